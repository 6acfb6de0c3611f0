import ArchitectureKitTestSupport
import Foundation
import Testing

/// A sample at a terminal, fast, recording its session with `--record`, to be killed in the
/// middle of it.
struct RecordingRun {
  /// The running app.
  let app: InteractiveRun
  /// The journal it writes.
  let journal: String

  /// Launches the executable `name` with `arguments`, `--speed 1000`, a cart in `home` and a
  /// journal there.
  init(
    launching name: String,
    _ arguments: [String],
    on terminal: PseudoTerminal,
    home: TemporaryDirectory
  ) throws {
    journal = home.path("\(name)-session.jsonl")
    let recording = ["--speed", "1000", "--cart", home.path("cart.json"), "--record", journal]
    app = try InteractiveRun(launching: name, arguments + recording, on: terminal, home: home)
  }

  /// Kills the app with SIGKILL, which it cannot catch — no chance to stop or flush anything —
  /// and reads its journal back once it has ended, to replay what it wrote as it went.
  func kill() async throws -> Replay {
    Foundation.kill(app.process.processIdentifier, SIGKILL)
    #expect(await app.status == SIGKILL)
    let text = try String(contentsOfFile: journal, encoding: .utf8)
    #expect(!text.contains(#""kind":"stopped""#), "the app was stopped, not killed")
    return try Replay(journalAt: journal)
  }
}

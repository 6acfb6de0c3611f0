import Foundation
import Testing

/// The samples at a terminal, as a person runs them: raw mode, a full-screen drawing, and the
/// terminal given back however the app ends.
@Suite(.timeLimit(.minutes(1)))
struct InteractiveEndToEndTests {
  static let enterScreen = "\u{1B}[?1049h"
  static let leaveScreen = "\u{1B}[?1049l"

  let terminal: PseudoTerminal
  let home: TemporaryDirectory

  init() throws {
    terminal = try PseudoTerminal(columns: 40)
    home = try TemporaryDirectory()
  }

  @Test func counterDrawsTheCountAndRestoresTheTerminalOnQuit() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    terminal.type("+")
    let screen = await terminal.read(until: "Count: \u{1B}[1m1")
    terminal.type("q")
    let end = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains("Count: \u{1B}[1m1"))
    #expect(end.contains("\u{1B}[?25h"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func counterRestoresTheTerminalOnCtrlC() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    terminal.type("\u{03}")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func counterRestoresTheTerminalOnSIGINT() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    app.process.interrupt()
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(await app.status == 128 + SIGINT)
    #expect(terminal.isCooked)
  }

  @Test func productPageWrapsTheDescriptionToTheWindow() async throws {
    let app = try InteractiveRun(
      launching: "pdp",
      ["--speed", "1000", "--cart", home.path("cart.json")],
      on: terminal,
      home: home
    )

    let screen = await terminal.read(until: "clean.")
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains("Yeezy Triple White"))
    // 40 columns, 2 of margin on each side: the catalog's description breaks here.
    #expect(screen.contains("  A Primeknit upper in triple white,"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }
}

/// A sample running on a pseudo-terminal.
struct InteractiveRun {
  let process = Process()
  private let exit: AsyncStream<Int32>

  init(
    launching name: String,
    _ arguments: [String] = [],
    on terminal: PseudoTerminal,
    home: TemporaryDirectory
  ) throws {
    let executable = try #require(SampleExecutables.url(of: name))
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = terminal.handle
    process.standardOutput = terminal.handle
    process.standardError = terminal.handle
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home.url.path
    environment["XDG_DATA_HOME"] = home.url.appending(path: "data").path
    process.environment = environment
    let (exit, continuation) = AsyncStream.makeStream(of: Int32.self)
    self.exit = exit
    process.terminationHandler = { process in
      continuation.yield(process.terminationStatus)
      continuation.finish()
    }
    try process.run()
  }

  /// The exit status, once the app has ended.
  var status: Int32 {
    get async {
      for await status in exit { return status }
      return -1
    }
  }
}

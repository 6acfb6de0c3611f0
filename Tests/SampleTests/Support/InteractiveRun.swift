import Foundation
import Testing

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

  /// Returns `true` once the app is stopped by a signal; `false` if it ends instead, or if
  /// neither happens within 10 seconds (a bound for a broken program, not a timing
  /// assumption).
  ///
  /// It waits without reaping the process (`WNOWAIT`), so ``status`` still sees its end.
  func waitUntilStopped() async -> Bool {
    let pid = process.processIdentifier
    let answer = OneAnswer()
    return await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WSTOPPED | WEXITED | WNOWAIT)
        answer.give(result == 0 && info.si_code == CLD_STOPPED, to: continuation)
      }
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 10)
        answer.give(false, to: continuation)
      }
    }
  }

  /// Continues a stopped app, as a shell's `fg` does.
  func `continue`() {
    kill(process.processIdentifier, SIGCONT)
  }

  /// The exit status, once the app has ended.
  var status: Int32 {
    get async {
      for await status in exit { return status }
      return -1
    }
  }
}

/// Resumes a continuation with the first of several answers that race, and ignores the rest.
///
/// `@unchecked Sendable`: its only state, `isGiven`, is read and written under `lock`.
private final class OneAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private var isGiven = false

  func give(_ answer: Bool, to continuation: CheckedContinuation<Bool, Never>) {
    let isFirst = lock.withLock {
      defer { isGiven = true }
      return !isGiven
    }
    if isFirst { continuation.resume(returning: answer) }
  }
}

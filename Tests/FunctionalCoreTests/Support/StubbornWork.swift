import FunctionalCore
import TestDoubles

/// Work that ignores cancellation: it ends only when the test calls ``finish()``.
///
/// It stands for a callback API wrapped in `withCheckedContinuation` that never resumes when
/// its task is cancelled. ``started`` opens when the work begins and ``ended`` when it returns,
/// so a test can wait for both instead of sleeping.
final class StubbornWork: Sendable {
  private struct State {
    var isFinished = false
    var continuation: CheckedContinuation<Void, Never>?
    var sawCancellation: Bool?
  }

  private let state = Lock(State())

  /// Opens when the work begins.
  let started = Gate()

  /// Opens when the work returns.
  let ended = Gate()

  /// Whether the work's task was cancelled when the work returned; `nil` before it returned.
  var sawCancellation: Bool? {
    state.withLock { $0.sawCancellation }
  }

  /// Runs until ``finish()``, whatever happens to the task that runs it.
  func run() async -> String {
    started.open()
    await withCheckedContinuation { continuation in
      let resumesNow = state.withLock { state in
        if state.isFinished { return true }
        state.continuation = continuation
        return false
      }
      if resumesNow { continuation.resume() }
    }
    state.withLock { $0.sawCancellation = Task.isCancelled }
    ended.open()
    return "late"
  }

  /// Lets the work return.
  func finish() {
    let continuation = state.withLock { state in
      state.isFinished = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume()
  }
}

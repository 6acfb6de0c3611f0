import FunctionalCore

/// A one-shot signal: tasks wait for it, and it stays open once opened; shared by every test
/// target.
///
/// Tests use gates instead of sleeps: a step that must happen before another one opens a gate
/// the other one waits for, so the order is forced rather than hoped for.
///
/// A wait ends early when the waiting task is cancelled (unless the gate was made
/// `ignoringCancellation`), so a test whose gate never opens is stopped by its time limit
/// instead of hanging the whole run.
package final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var nextID = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
  }

  private let state = Lock(State())
  /// Whether a wait goes on when its task is cancelled.
  private let ignoresCancellation: Bool

  /// Whether ``open()`` has been called.
  package var isOpen: Bool {
    state.withLock { $0.isOpen }
  }

  /// Creates a closed gate.
  ///
  /// - Parameter ignoringCancellation: Whether a wait goes on when its task is cancelled: for
  ///   an effect that must stay suspended after its own code cancelled it.
  package init(ignoringCancellation: Bool = false) {
    self.ignoresCancellation = ignoringCancellation
  }

  /// Opens the gate and lets every waiting task, present and future, through.
  package func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return state.waiters.values
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the gate is open, or once the waiting task is cancelled; ``isOpen`` then
  /// tells which.
  package func wait() async {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumesNow = state.withLock { state in
          // A cancellation before this point found no waiter to resume; check it here.
          if state.isOpen || (Task.isCancelled && !ignoresCancellation) { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumesNow { continuation.resume() }
      }
    } onCancel: {
      guard !ignoresCancellation else { return }
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// Waits as ``wait()`` does, then says whether the gate opened (`false`: the wait was
  /// cancelled first).
  package func opens() async -> Bool {
    await wait()
    return isOpen
  }
}

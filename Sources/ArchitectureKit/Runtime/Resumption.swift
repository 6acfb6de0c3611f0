import FunctionalCore

/// A one-shot signal a waiting task resumes on: opened once, it lets every waiter through.
///
/// A test harness hands one to an effect whose sent event it holds; the effect's ``Send`` call
/// returns when the test has received the event, or when the effect was cancelled. Cancelling
/// the waiting task also ends the wait.
package final class Resumption: Sendable {
  private struct State {
    var isOpen = false
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var lastID: UInt64 = 0
  }

  private let state = Lock(State())

  /// Creates a closed resumption.
  package init() {}

  /// Lets every waiter through, now and later.
  package func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until ``open()`` is called or the task is cancelled.
  package func wait() async {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        // Cancellation read once: read twice, a cancellation between the reads both registered
        // the waiter (which the cancellation handler then resumed) and resumed it here.
        let isOpen = state.withLock { state in
          if state.isOpen || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if isOpen { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume()
    }
  }
}

package import FunctionalCore

/// Continuations that a cancelled task takes back, so a test whose awaited condition never
/// comes fails at its time limit instead of hanging the run.
///
/// A double that lets a test await a condition keeps one of these beside its own state, under
/// the same lock, and parks waiters with ``waitUntil(_:makeID:park:cancel:)``.
package struct Waiters<Condition> {
  private typealias Parked = (condition: Condition, continuation: CheckedContinuation<Void, Never>)

  private var next = 0
  private var waiting: [Int: Parked] = [:]
  private var cancelled: Set<Int> = []

  package init() {}

  /// A new waiter's identifier.
  package mutating func makeID() -> Int {
    next += 1
    return next
  }

  /// Parks a continuation; returns `false` when its waiter was already cancelled.
  package mutating func park(
    _ id: Int, until condition: Condition, _ continuation: CheckedContinuation<Void, Never>
  ) -> Bool {
    if cancelled.remove(id) != nil { return false }
    waiting[id] = (condition, continuation)
    return true
  }

  /// Takes back the continuation of a cancelled waiter, if it is parked.
  package mutating func cancel(_ id: Int) -> CheckedContinuation<Void, Never>? {
    guard let waiter = waiting.removeValue(forKey: id) else {
      cancelled.insert(id)
      return nil
    }
    return waiter.continuation
  }

  /// Takes the continuations whose condition `isMet` says is met, updating the others.
  package mutating func takeReady(
    _ isMet: (inout Condition) -> Bool
  ) -> [CheckedContinuation<Void, Never>] {
    var ready: [CheckedContinuation<Void, Never>] = []
    for (id, var waiter) in waiting {
      if isMet(&waiter.condition) {
        waiting[id] = nil
        ready.append(waiter.continuation)
      } else {
        waiting[id] = waiter
      }
    }
    return ready
  }
}

/// Suspends until the waiter that `park` registers under `lock` is resumed, or the task is
/// cancelled; `park` returns `false` to go on at once.
package func waitUntil<Value>(
  _ lock: Lock<Value>,
  makeID: (inout Value) -> Int,
  park: @escaping (inout Value, Int, CheckedContinuation<Void, Never>) -> Bool,
  cancel: @escaping @Sendable (Int) -> Void
) async {
  let id = lock.withLock { makeID(&$0) }
  await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      if !lock.withLock({ park(&$0, id, continuation) }) { continuation.resume() }
    }
  } onCancel: {
    cancel(id)
  }
}

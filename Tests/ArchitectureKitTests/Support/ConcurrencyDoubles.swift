import ArchitectureKit
import FunctionalCore
import TestDoubles

/// Continuations that a cancelled task takes back, so a test whose awaited condition never
/// comes fails at its time limit instead of hanging the run.
struct Waiters<Condition> {
  private typealias Parked = (condition: Condition, continuation: CheckedContinuation<Void, Never>)

  private var next = 0
  private var waiting: [Int: Parked] = [:]
  private var cancelled: Set<Int> = []

  /// A new waiter's identifier.
  mutating func makeID() -> Int {
    next += 1
    return next
  }

  /// Parks a continuation; returns `false` when its waiter was already cancelled.
  mutating func park(
    _ id: Int, until condition: Condition, _ continuation: CheckedContinuation<Void, Never>
  ) -> Bool {
    if cancelled.remove(id) != nil { return false }
    waiting[id] = (condition, continuation)
    return true
  }

  /// Takes back the continuation of a cancelled waiter, if it is parked.
  mutating func cancel(_ id: Int) -> CheckedContinuation<Void, Never>? {
    guard let waiter = waiting.removeValue(forKey: id) else {
      cancelled.insert(id)
      return nil
    }
    return waiter.continuation
  }

  /// Takes the continuations whose condition `isMet` says is met, updating the others.
  mutating func takeReady(
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
func waitUntil<Value>(
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

/// A count that any thread bumps and a test awaits, without sleeping or polling.
final class Tally: Sendable {
  private struct Contents {
    var value = 0
    var waiters = Waiters<Int>()
  }

  private let contents = Lock(Contents())

  func increment(by amount: Int = 1) {
    let ready = contents.withLock { contents in
      contents.value += amount
      let value = contents.value
      return contents.waiters.takeReady { target in target <= value }
    }
    for continuation in ready { continuation.resume() }
  }

  var value: Int {
    contents.withLock { $0.value }
  }

  /// Returns once the count is at least `target` (at once if it already is), or when the
  /// waiting task is cancelled.
  func wait(untilAtLeast target: Int) async {
    await waitUntil(
      contents,
      makeID: { $0.waiters.makeID() },
      park: { contents, id, continuation in
        contents.value < target && contents.waiters.park(id, until: target, continuation)
      },
      cancel: { [contents] id in contents.withLock { $0.waiters.cancel(id) }?.resume() }
    )
  }
}

/// A number of live objects that also remembers the most that were ever alive at once.
final class LiveCount: Sendable {
  private let counts = Lock((current: 0, peak: 0))

  func add(_ delta: Int) {
    counts.withLock { counts in
      counts.current += delta
      counts.peak = max(counts.peak, counts.current)
    }
  }

  var current: Int { counts.withLock { $0.current } }
  var peak: Int { counts.withLock { $0.peak } }
}

/// Suspends until the current task is cancelled: an effect that runs until its request goes.
func suspendUntilCancelled() async {
  let gate = Gate()
  await withTaskCancellationHandler {
    await gate.wait()
  } onCancel: {
    gate.open()
  }
}

/// A weak reference, so a test can hold many without keeping them alive.
struct WeakReference<Object: AnyObject> {
  weak var object: Object?
}

/// Buffers a background system's activities, recorded on its actor, so a test can await the
/// ones it expects without sleeping.
final class ActivityRecorder<State: Sendable, Event: Sendable, ErrorType: Error>: Sendable {
  typealias Activity = SystemActivity<State, Event, ErrorType>

  /// A predicate and how many more activities must match it.
  private struct Expectation {
    let predicate: @Sendable (Activity) -> Bool
    var remaining: Int
  }

  private struct Contents {
    var activities: [Activity] = []
    var waiters = Waiters<Expectation>()
  }

  private let contents = Lock(Contents())

  /// Registers the recorder as an observer of `system`.
  func observe<Context>(_ system: BackgroundSystem<State, Event, ErrorType, Context>) async {
    await system.addObserver { [self] activity in record(activity) }
  }

  func record(_ activity: Activity) {
    let ready = contents.withLock { contents in
      contents.activities.append(activity)
      return contents.waiters.takeReady { expectation in
        if expectation.predicate(activity) { expectation.remaining -= 1 }
        return expectation.remaining <= 0
      }
    }
    for continuation in ready { continuation.resume() }
  }

  var activities: [Activity] {
    contents.withLock { $0.activities }
  }

  /// Returns once `count` activities matching `predicate` have happened, counting past ones,
  /// or when the waiting task is cancelled.
  func wait(count: Int = 1, of predicate: @escaping @Sendable (Activity) -> Bool) async {
    await waitUntil(
      contents,
      makeID: { $0.waiters.makeID() },
      park: { contents, id, continuation in
        let remaining = count - contents.activities.count(where: predicate)
        return remaining > 0
          && contents.waiters.park(
            id, until: Expectation(predicate: predicate, remaining: remaining), continuation)
      },
      cancel: { [contents] id in contents.withLock { $0.waiters.cancel(id) }?.resume() }
    )
  }

  var started: [EffectRequest] {
    activities.compactMap { if case .effectStarted(let request) = $0 { request } else { nil } }
  }

  var cancelled: [EffectRequest] {
    activities.compactMap { if case .effectCancelled(let request) = $0 { request } else { nil } }
  }

  var failures: [ErrorType] {
    activities.compactMap { if case .effectFailed(_, let error) = $0 { error } else { nil } }
  }

  var ignored: [(Event, IgnoredEventReason)] {
    activities.compactMap {
      if case .eventIgnored(let event, let reason) = $0 { (event, reason) } else { nil }
    }
  }

  var steps: [Event] {
    activities.compactMap { if case .step(let event, _, _) = $0 { event } else { nil } }
  }
}

extension Gate {
  /// Waits for the gate to open, or for the waiting task to be cancelled (a test past its time
  /// limit), so a broken system fails the test instead of hanging the run.
  func waitUnlessCancelled() async {
    await withTaskCancellationHandler {
      await wait()
    } onCancel: {
      open()
    }
  }
}

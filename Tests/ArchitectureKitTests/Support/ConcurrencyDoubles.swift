import FunctionalCore
import TestDoubles

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

/// A wait that ignores cancellation: only the test ends it, as with work that cannot be
/// interrupted (a blocking call, a callback that never comes).
final class Hold: Sendable {
  private let state = Lock<(isResumed: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, [])
  )
  let entered = Tally()
  let exited = Tally()

  func wait() async {
    entered.increment()
    await withCheckedContinuation { continuation in
      let isResumed = state.withLock { state in
        if !state.isResumed { state.waiters.append(continuation) }
        return state.isResumed
      }
      if isResumed { continuation.resume() }
    }
    exited.increment()
  }

  func resume() {
    let waiters = state.withLock { state in
      state.isResumed = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// A flag set from an Observation change handler, which may run on any thread.
final class Flag: Sendable {
  private let value = Lock(false)

  func set() {
    value.withLock { $0 = true }
  }

  var isSet: Bool {
    value.withLock { $0 }
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

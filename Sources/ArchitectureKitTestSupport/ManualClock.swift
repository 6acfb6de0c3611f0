import FunctionalCore

/// A `Clock` whose time moves only when a test moves it.
///
/// Put it in the test `Context` wherever the live context has a `ContinuousClock`; delays,
/// timers, debounces and timeouts written against the context's clock then run exactly when the
/// test advances time, never in real time.
///
/// ```swift
/// let clock = ManualClock()
/// let system = TestSystem(
///   initialState: Search.State(), context: .init(clock: clock),
///   reducer: Search.reducer, feedback: [Search.debounce], clock: clock
/// )
/// system.send(.queryChanged("yee")) { $0.query = "yee" }
/// system.expectStarted(Search.Request.debounce("yee"))
/// system.run(Search.Request.debounce("yee"))
/// clock.advance(by: .milliseconds(300))
/// await system.receive(.search("yee"))
/// ```
///
/// Sleepers whose deadline is reached are resumed in deadline order (then in the order they
/// started sleeping). A cancelled sleeper throws `CancellationError` at once.
public final class ManualClock: Clock, Sendable {
  /// A point in a manual clock's time: an offset from the moment the clock was made.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    /// The time since the clock's origin.
    public var offset: Duration

    /// Creates an instant at `offset` from the clock's origin.
    ///
    /// - Parameter offset: The time since the origin.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: The time to add.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: The time between them.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, as in `1.5 seconds`.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var now = Instant()
    var sleepers: [Sleeper] = []
    var lastID: UInt64 = 0
    /// Sleepers cancelled before they were registered (the task was already cancelled).
    var cancelledEarly: Set<UInt64> = []
    var observers: [@Sendable () -> Void] = []
    var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let count = sleepers.count
      let ready = sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
      sleeperWaiters.removeAll { $0.count <= count }
      return ready
    }
  }

  private let state = Lock(State())

  /// Creates a clock at time zero.
  public init() {}

  /// The current time; it changes only through ``advance(by:)`` and its siblings.
  public var now: Instant {
    state.withLock(\.now)
  }

  /// The smallest step this clock tells apart: it has no resolution limit.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int {
    state.withLock(\.sleepers.count)
  }

  /// The earliest deadline a task sleeps until, if any.
  public var nextDeadline: Instant? {
    state.withLock { $0.sleepers.map(\.deadline).min() }
  }

  /// Suspends until the clock reaches `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at; a past deadline returns at once.
  ///   - tolerance: Ignored: a manual clock wakes sleepers exactly.
  /// - Throws: `CancellationError` when the sleeping task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    let wasResumed = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let (observers, waiters) = state.withLock {
          state -> ([@Sendable () -> Void], [CheckedContinuation<Void, Never>]) in
          if state.cancelledEarly.remove(id) != nil {
            continuation.resume(returning: false)
            return ([], [])
          }
          if state.now >= deadline {
            continuation.resume(returning: true)
            return ([], [])
          }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (state.observers, state.satisfiedWaiters())
        }
        for waiter in waiters { waiter.resume() }
        for observer in observers { observer() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(returning: false)
    }
    if !wasResumed || Task.isCancelled { throw CancellationError() }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline is reached.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "A manual clock cannot go back in time.")
    advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `instant`, waking every sleeper whose deadline is reached.
  ///
  /// - Parameter instant: The new time; an earlier instant leaves the clock unchanged.
  public func advance(to instant: Instant) {
    let woken = state.withLock { state -> [Sleeper] in
      if instant > state.now { state.now = instant }
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }
    for sleeper in woken { sleeper.continuation.resume(returning: true) }
  }

  /// Moves time to the earliest deadline a task sleeps until, waking that task.
  ///
  /// - Returns: `false` when no task sleeps on the clock.
  @discardableResult
  public func advanceToNextDeadline() -> Bool {
    guard let deadline = nextDeadline else { return false }
    advance(to: deadline)
    return true
  }

  /// Returns once at least `count` tasks sleep on the clock.
  ///
  /// An effect started in a task reaches its `sleep` some time later; wait for it before
  /// advancing time, so the sleep's deadline is measured from the current time.
  ///
  /// - Parameter count: The number of sleepers to wait for.
  public func waitForSleepers(count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isReady = state.withLock { state in
        if state.sleepers.count >= count { return true }
        state.sleeperWaiters.append((count, continuation))
        return false
      }
      if isReady { continuation.resume() }
    }
  }

  /// Calls `observer` whenever a task starts sleeping; the test harness waits on this.
  package func onSleep(_ observer: @escaping @Sendable () -> Void) {
    state.withLock { $0.observers.append(observer) }
  }
}

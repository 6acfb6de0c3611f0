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
///   initialState: Search.State(), context: Search.Context(clock: clock),
///   reducer: Search.reducer, feedback: [Search.debounce], clock: clock
/// )
/// system.send(.queryChanged("yee")) { $0.query = "yee" }
/// system.expectStarted(Search.Request.debounce("yee"))
/// system.run(Search.Request.debounce("yee"))
/// await clock.advance(by: .milliseconds(300))
/// await system.receive(.search("yee")) { $0.submitted = "yee" }
/// await system.finish()
/// ```
///
/// ``advance(by:)`` is `async`: it returns once the effects it woke are idle again (asleep,
/// holding an event for the test, or ended), so the next line can receive what they sent.
///
/// ## Virtual time plays in deadline order
///
/// ``advance(by:)`` does not jump: it plays the timeline one deadline at a time. Before each
/// deadline it waits until the effects of the systems that use the clock are *idle* — asleep on
/// the clock, waiting for the test to receive an event, or ended — then moves time to the next
/// deadline and wakes its sleepers. So an effect that was just run reaches its sleep before
/// time moves (no `waitForSleepers()` needed), and two effects due at 1 s and 2 s deliver in
/// that order on every run, also after one `advance(by: .seconds(3))`. Sleepers due at the same
/// instant wake in the order they started sleeping.
///
/// The systems that use the clock are each ``TestSystem`` made with `clock:` and each system
/// one of whose effects has slept on the clock. An effect that waits for something else (a
/// gate, a server) holds the advance; after ``timeout`` of real time the advance fails the test,
/// naming the effect, and goes on. A cancelled sleeper throws `CancellationError` at once.
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
    /// The sleeping task's share of its effect's work, when a runtime tracks it.
    let unit: WorkUnit?
  }

  private struct State {
    var now = Instant()
    /// The furthest instant an advance asked for; advances add to it atomically.
    var horizon = Instant()
    var sleepers: [Sleeper] = []
    var lastID: UInt64 = 0
    /// Sleepers cancelled before they were registered (the task was already cancelled).
    var cancelledEarly: Set<UInt64> = []
    var sleeperWaiters: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] =
      [:]
    var cancelledWaiters: Set<UInt64> = []
    /// The work of the systems that use the clock, held weakly.
    var groups: [ObjectIdentifier: WeakGroup] = [:]

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let count = sleepers.count
      let ready = sleeperWaiters.filter { $0.value.count <= count }
      for id in ready.keys { sleeperWaiters[id] = nil }
      return ready.values.map(\.continuation)
    }

    /// Removes and returns the sleepers due at the earliest deadline up to `target`, moving
    /// time to that deadline; moves time to `target` when none is due.
    mutating func nextDue(upTo target: Instant) -> [Sleeper]? {
      guard let deadline = sleepers.map(\.deadline).min(), deadline <= target else {
        if target > now { now = target }
        return nil
      }
      if deadline > now { now = deadline }
      let due = sleepers.filter { $0.deadline <= now }.sorted { $0.id < $1.id }
      sleepers.removeAll { $0.deadline <= now }
      return due
    }
  }

  private struct WeakGroup {
    weak var group: WorkGroup?
  }

  private let state = Lock(State())

  /// How long, in real time, an advance waits for effects that work without the test before it
  /// fails the test and goes on.
  public let timeout: Duration

  /// Creates a clock at time zero.
  ///
  /// - Parameter timeout: The failsafe of each wait inside an advance, in real time.
  public init(timeout: Duration = .seconds(5)) {
    self.timeout = timeout
  }

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
    let unit = WorkUnit.currentOwned
    let wasResumed = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let (isSleeping, waiters) = state.withLock {
          state -> (Bool, [CheckedContinuation<Void, Never>]) in
          if state.cancelledEarly.remove(id) != nil {
            continuation.resume(returning: false)
            return (false, [])
          }
          if state.now >= deadline {
            continuation.resume(returning: true)
            return (false, [])
          }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation, unit: unit))
          if let group = unit?.group {
            state.groups[ObjectIdentifier(group)] = WeakGroup(group: group)
          }
          return (true, state.satisfiedWaiters())
        }
        // The task waits for the test from now on; whoever wakes it counts it again first.
        if isSleeping { unit?.suspend() }
        for waiter in waiters { waiter.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.unit?.resume()
      sleeper?.continuation.resume(returning: false)
    }
    if !wasResumed || Task.isCancelled { throw CancellationError() }
  }

  /// Moves time forward by `duration`, playing every deadline on the way in order.
  ///
  /// Concurrent advances add up: each adds its duration to the furthest instant asked for so
  /// far, atomically, so no time is lost.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) async {
    precondition(duration >= .zero, "A manual clock cannot go back in time.")
    let target = state.withLock { state in
      state.horizon = max(state.horizon, state.now).advanced(by: duration)
      return state.horizon
    }
    await play(upTo: target)
  }

  /// Moves time forward to `instant`, playing every deadline on the way in order.
  ///
  /// - Parameter instant: The new time; an earlier instant leaves the clock unchanged.
  public func advance(to instant: Instant) async {
    let target = state.withLock { state in
      state.horizon = max(state.horizon, instant)
      return state.horizon
    }
    await play(upTo: target)
  }

  /// Moves time to the earliest deadline a task sleeps until, waking that task, once the
  /// systems that use the clock are idle.
  ///
  /// - Returns: `false` when no task sleeps on the clock.
  @discardableResult
  public func advanceToNextDeadline() async -> Bool {
    await settle()
    guard let deadline = nextDeadline else { return false }
    await advance(to: deadline)
    return true
  }

  /// Returns once at least `count` tasks sleep on the clock, or the waiting task is cancelled.
  ///
  /// ``advance(by:)`` already waits for the effects of the systems that use the clock; this is
  /// for sleepers the clock cannot know about in advance, such as a task of the test's own.
  ///
  /// - Parameter count: The number of sleepers to wait for.
  public func waitForSleepers(count: Int = 1) async {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let isReady = state.withLock { state in
          if state.cancelledWaiters.remove(id) != nil || state.sleepers.count >= count {
            return true
          }
          state.sleeperWaiters[id] = (count, continuation)
          return false
        }
        if isReady { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        let waiter = state.sleeperWaiters.removeValue(forKey: id)
        if waiter == nil { state.cancelledWaiters.insert(id) }
        return waiter
      }
      waiter?.continuation.resume()
    }
  }

  /// Makes advances wait for the effects of a system that uses the clock.
  package func track(_ group: WorkGroup) {
    state.withLock { $0.groups[ObjectIdentifier(group)] = WeakGroup(group: group) }
  }

  // MARK: Playing the timeline

  private func play(upTo target: Instant) async {
    await settle()
    while let due = state.withLock({ $0.nextDue(upTo: target) }) {
      for sleeper in due {
        sleeper.unit?.resume()
        sleeper.continuation.resume(returning: true)
      }
      await settle()
    }
  }

  /// Waits until every system that uses the clock is idle, or the failsafe passes.
  private func settle() async {
    var deadline = ContinuousClock.now + timeout
    while true {
      let groups = state.withLock { state in
        state.groups = state.groups.filter { $0.value.group != nil }
        return state.groups.values.compactMap(\.group)
      }
      guard let busy = groups.first(where: { !$0.isQuiet }) else { return }
      let generation = busy.generation
      if busy.isQuiet { continue }
      switch await busy.waitForChange(after: generation, deadline: deadline) {
      case .changed:
        continue
      case .cancelled:
        return
      case .timedOut where busy.runningLabels.isEmpty:
        // Only results on their way to a busy actor: they will come.
        deadline = .now + timeout
        continue
      case .timedOut:
        reportFailure(
          "ManualClock waited \(timeout) (its failsafe) for effects that work without the "
            + "test: \(busy.runningLabels.sorted()). Let them finish before advancing time.",
          at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
        return
      }
    }
  }
}

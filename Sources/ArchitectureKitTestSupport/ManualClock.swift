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
/// ``advance(by:fileID:filePath:line:column:)`` is `async`: it returns once the effects it woke are
/// idle again (asleep, holding an event for the test, or ended), so the next line can receive what
/// they sent.
///
/// ## Virtual time plays in deadline order
///
/// ``advance(by:fileID:filePath:line:column:)`` does not jump: it plays the timeline one deadline
/// at a time. Before each deadline it waits until the effects of the systems that use the clock are
/// *idle* — asleep on the clock, waiting for the test to receive an event, or ended — then moves
/// time to the next deadline and wakes its sleepers. So an effect that was just run reaches its
/// sleep before time moves (no `waitForSleepers()` needed), and two effects due at 1 s and 2 s
/// deliver in that order on every run, also after one `advance(by: .seconds(3))`.
///
/// Sleepers due at the same instant wake one at a time, in the order they began to sleep, each
/// allowed to run to its next suspension before the next wakes: what effects due together send
/// is received in that order, every run. A `timeout` tied with its work lets the work win: the
/// work starts before its deadline's timer, so it began to sleep first.
///
/// ## What a test system's effects wait on
///
/// A ``TestSystem`` runs its effects on an executor of its own, which their child tasks, task
/// groups and the default actors they call inherit; an effect suspended on anything the test
/// controls — a stream it yields into, a continuation in a fake backend, an actor, a child
/// asleep on this clock — is known to wait for the test, so it never holds an advance. The
/// failsafe is for work that never stops: after ``timeout`` of real time the advance fails the
/// test, naming the effect, and goes on. Work that escapes the executor (`Task {}`,
/// `Task.detached`, real-clock sleeps, callbacks from other threads) is not waited for. A
/// cancelled sleeper throws `CancellationError` at once.
///
/// The systems that use the clock are each ``TestSystem`` made with `clock:` and each system one of
/// whose effects has slept on the clock. Advances and
/// ``waitForSleepers(count:fileID:filePath:line:column:)`` report a failsafe failure at the
/// caller's line.
///
/// ## Sleeps that are already due
///
/// A sleep until an instant the clock has reached — a zero-length sleep, or a deadline in the
/// past — returns at once, without waiting for an advance: a drift-free timer that fell behind
/// catches up tick by tick, as it would on a real clock. TCA's `TestClock` suspends such a sleep
/// until the next advance instead; a ported test that relies on that sleeps for a real
/// duration, and advances by it (see <doc:MigratingFromTCA>).
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
    var sleeperWaiters:
      [UInt64: (count: Int, continuation: CheckedContinuation<WorkGroup.WaitEnd, Never>)] = [:]
    var cancelledWaiters: Set<UInt64> = []
    /// Sleepers an advance woke whose tasks have not run since (their threads are busy), with
    /// the work group of the system each belongs to, if any.
    var waking: [UInt64: ObjectIdentifier?] = [:]
    /// The work of the systems that use the clock, held weakly.
    var groups: [ObjectIdentifier: WeakGroup] = [:]

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [CheckedContinuation<WorkGroup.WaitEnd, Never>] {
      let count = sleepers.count
      let ready = sleeperWaiters.filter { $0.value.count <= count }
      for id in ready.keys { sleeperWaiters[id] = nil }
      return ready.values.map(\.continuation)
    }

    /// Removes and returns the first sleeper due up to `target` — the earliest deadline, and
    /// among sleepers due at that instant the one that began to sleep first — moving time to
    /// its deadline; moves time to `target` when none is due.
    mutating func nextDue(upTo target: Instant) -> Sleeper? {
      let first = sleepers.indices.min { lhs, rhs in
        (sleepers[lhs].deadline, sleepers[lhs].id) < (sleepers[rhs].deadline, sleepers[rhs].id)
      }
      guard let first, sleepers[first].deadline <= target else {
        if target > now { now = target }
        return nil
      }
      if sleepers[first].deadline > now { now = sleepers[first].deadline }
      return sleepers.remove(at: first)
    }

    /// Removes and returns the next sleeper due up to `target`, as ``nextDue(upTo:)``, and
    /// counts it as waking until its task runs again.
    mutating func wakeNext(upTo target: Instant) -> Sleeper? {
      guard let sleeper = nextDue(upTo: target) else { return nil }
      waking[sleeper.id] = sleeper.unit.map { ObjectIdentifier($0.group) }
      return sleeper
    }

    /// Whether a sleeper of `group`'s system was woken and its task has not run since.
    func isWaking(in group: WorkGroup) -> Bool {
      waking.values.contains(ObjectIdentifier(group))
    }
  }

  private struct WeakGroup {
    weak var group: WorkGroup?
  }

  private let state = Lock(State())

  /// How long, in real time, an advance waits for effects that work without the test before it
  /// fails the test and goes on; likewise how long
  /// ``waitForSleepers(count:fileID:filePath:line:column:)`` waits for its sleepers.
  ///
  /// A task the advance woke that the machine's threads have not run yet is not such work: the
  /// advance waits up to three more periods for it to run.
  public let timeout: Duration

  /// Creates a clock at time zero.
  ///
  /// - Parameter timeout: The failsafe of each wait inside an advance, in real time.
  public init(timeout: Duration = .seconds(5)) {
    self.timeout = timeout
  }

  /// The current time; it changes only through ``advance(by:fileID:filePath:line:column:)`` and
  /// its siblings.
  public var now: Instant {
    state.withLock(\.now)
  }

  /// The smallest step this clock tells apart: it has no resolution limit.
  public var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on this clock.
  public var sleeperCount: Int {
    state.withLock(\.sleepers.count)
  }

  /// The cancellations kept for sleeps that have not registered yet: none once every sleep
  /// has returned.
  package var pendingCancellations: Int {
    state.withLock(\.cancelledEarly.count)
  }

  /// The earliest deadline a task sleeps until, if any.
  public var nextDeadline: Instant? {
    state.withLock { $0.sleepers.map(\.deadline).min() }
  }

  /// Suspends until the clock reaches `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at; a deadline the clock has reached (a zero-length
  ///     sleep, a past deadline) returns at once.
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
          state -> (Bool, [CheckedContinuation<WorkGroup.WaitEnd, Never>]) in
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
        for waiter in waiters { waiter.resume(returning: .changed) }
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
    state.withLock { state in
      _ = state.waking.removeValue(forKey: id)
      // A cancellation that came after the wake, and found no sleeper, is left for nobody.
      _ = state.cancelledEarly.remove(id)
    }
    if !wasResumed || Task.isCancelled { throw CancellationError() }
  }

  /// Moves time forward by `duration`, playing every deadline on the way in order.
  ///
  /// Concurrent advances add up: each adds its duration to the furthest instant asked for so
  /// far, atomically, so no time is lost.
  ///
  /// - Parameters:
  ///   - duration: How far to move; must not be negative.
  ///   - fileID: The caller's file ID; a failsafe failure is reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func advance(
    by duration: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    precondition(duration >= .zero, "A manual clock cannot go back in time.")
    let target = state.withLock { state in
      state.horizon = max(state.horizon, state.now).advanced(by: duration)
      return state.horizon
    }
    await play(
      upTo: target,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Moves time forward to `instant`, playing every deadline on the way in order.
  ///
  /// - Parameters:
  ///   - instant: The new time; an earlier instant leaves the clock unchanged.
  ///   - fileID: The caller's file ID; a failsafe failure is reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func advance(
    to instant: Instant,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let target = state.withLock { state in
      state.horizon = max(state.horizon, instant)
      return state.horizon
    }
    await play(
      upTo: target,
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Moves time to the earliest deadline a task sleeps until, waking that task, once the
  /// systems that use the clock are idle.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID; a failsafe failure is reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: `false` when no task sleeps on the clock.
  @discardableResult
  public func advanceToNextDeadline(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle(at: site)
    guard let deadline = nextDeadline else { return false }
    let target = state.withLock { state in
      state.horizon = max(state.horizon, deadline)
      return state.horizon
    }
    await play(upTo: target, at: site)
    return true
  }

  /// Returns once at least `count` tasks sleep on the clock, or the waiting task is cancelled.
  ///
  /// ``advance(by:fileID:filePath:line:column:)`` already waits for the effects of the systems
  /// that use the clock; this is for sleepers the clock cannot know about in advance, such as a
  /// task of the test's own, or the first sleep of a `System`'s effect (the clock follows a
  /// system once one of its effects has slept on it).
  ///
  /// Its failsafe is ``timeout`` of real time without the sleepers: past it, the wait fails the
  /// test at the caller's line and returns. Sleepers that come after the failsafe passed, but
  /// before the wait could report it (its thread was busy), are what it waited for: it returns
  /// without a failure. A main actor that other tests keep busy can hold back a sleeper that a
  /// main-actor task starts: give such a test a clock with a longer timeout.
  ///
  /// - Parameters:
  ///   - count: The number of sleepers to wait for.
  ///   - fileID: The caller's file ID, for a report.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func waitForSleepers(
    count: Int = 1,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now + timeout
    while true {
      let groups = trackedGroups()
      if sleeperCount >= count { return }
      let end: WorkGroup.WaitEnd
      // A test system whose effects are on their way to a sleep, or to something else.
      if let busy = groups.first(where: { $0.drainer != nil && !$0.isIdle }) {
        let generation = busy.generation
        if busy.isIdle || sleeperCount >= count { continue }
        end = await busy.waitForChange(after: generation, deadline: deadline)
      } else {
        end = await waitForSleeperCount(count, deadline: deadline)
      }
      switch end {
      case .changed: continue
      case .cancelled: return
      case .timedOut:
        // The sleepers may have come since the failsafe passed, before this task ran again.
        if sleeperCount >= count { return }
        reportFailure(
          "ManualClock waited \(timeout) (its failsafe) for \(count) sleeper(s); "
            + "\(sleeperCount) sleep on the clock.",
          at: site)
        return
      }
    }
  }

  /// The groups of the systems that use the clock, forgetting those that are gone.
  private func trackedGroups() -> [WorkGroup] {
    state.withLock { state in
      state.groups = state.groups.filter { $0.value.group != nil }
      return state.groups.values.compactMap(\.group)
    }
  }

  /// Suspends until at least `count` tasks sleep on the clock (`.changed`), `deadline` passes,
  /// or the waiting task is cancelled.
  private func waitForSleeperCount(
    _ count: Int, deadline: ContinuousClock.Instant
  ) async -> WorkGroup.WaitEnd {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    // The failsafe's timer, cancelled once the wait ends, however it ends.
    let timer = Lock<Task<Void, Never>?>(nil)
    let end = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<WorkGroup.WaitEnd, Never>) in
        let immediate = state.withLock { state -> WorkGroup.WaitEnd? in
          if state.cancelledWaiters.remove(id) != nil { return .cancelled }
          if state.sleepers.count >= count { return .changed }
          state.sleeperWaiters[id] = (count, continuation)
          return nil
        }
        if let immediate {
          continuation.resume(returning: immediate)
          return
        }
        let task = Task { [weak self] in
          try? await ContinuousClock().sleep(until: deadline)
          self?.resumeSleeperWaiter(id, with: .timedOut)
        }
        timer.withLock { $0 = task }
      }
    } onCancel: {
      resumeSleeperWaiter(id, with: .cancelled, rememberingEarly: true)
    }
    timer.withLock { $0 }?.cancel()
    return end
  }

  private func resumeSleeperWaiter(
    _ id: UInt64, with end: WorkGroup.WaitEnd, rememberingEarly: Bool = false
  ) {
    let waiter = state.withLock { state in
      let waiter = state.sleeperWaiters.removeValue(forKey: id)
      if waiter == nil, rememberingEarly { state.cancelledWaiters.insert(id) }
      return waiter
    }
    waiter?.continuation.resume(returning: end)
  }

  /// Makes advances wait for the effects of a system that uses the clock.
  package func track(_ group: WorkGroup) {
    state.withLock { $0.groups[ObjectIdentifier(group)] = WeakGroup(group: group) }
  }

  // MARK: Playing the timeline

  /// Wakes the sleepers due up to `target` one at a time, each allowed to run to its next
  /// suspension (the systems that use the clock idle again) before the next wakes: sleepers due
  /// at the same instant wake in the order they began to sleep, and what they send arrives in
  /// that order on every run.
  private func play(upTo target: Instant, at site: CallSite) async {
    await settle(at: site)
    while let sleeper = state.withLock({ $0.wakeNext(upTo: target) }) {
      sleeper.unit?.resume()
      sleeper.continuation.resume(returning: true)
      await settle(at: site)
    }
  }

  /// Waits until every system that uses the clock is idle, or the failsafe passes.
  private func settle(at site: CallSite) async {
    var deadline = ContinuousClock.now + timeout
    var grace = FailsafeGrace()
    while true {
      let groups = trackedGroups()
      guard let busy = groups.first(where: { !$0.isQuiet }) else { return }
      let generation = busy.generation
      if busy.isQuiet { continue }
      switch await busy.waitForChange(after: generation, deadline: deadline) {
      case .changed:
        continue
      case .cancelled:
        return
      case .timedOut:
        if busy.isQuiet { continue }
        let isWaking = state.withLock { $0.isWaking(in: busy) }
        if grace.extends(for: busy, workingLabels: busy.runningLabels, threadsAreLate: isWaking) {
          deadline = .now + timeout
          continue
        }
        let late =
          isWaking ? " A task it woke has not run since: the machine's threads are busy." : ""
        reportFailure(
          "ManualClock waited \(timeout) (its failsafe) for effects that work without the "
            + "test: \(busy.runningLabels.sorted()). Let them finish before advancing time."
            + late,
          at: site)
        return
      }
    }
  }
}

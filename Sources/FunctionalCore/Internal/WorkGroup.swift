/// Counts, for each job of one owner (the effects of one system), the tasks that can make
/// progress without a test's help, so a test harness can tell "still working" from "waiting for
/// the test" exactly, without guessing from time.
///
/// A job starts with one active task (its root). A task stops counting while it waits for
/// something only the test can give (a sleep on a manual clock, an event parked until the test
/// receives it) and counts again when it is given it; see ``WorkUnit``. The group is *idle* when
/// no job has an active task. A job that ends or is cancelled stops counting at once, whatever
/// its stray tasks still do.
///
/// Waiters are woken on every change that can matter to them: the group turning idle, a job
/// ending, or an explicit ``signal()`` (the harness signals when it parks an event).
///
/// A group can instead have its tasks run on an executor of the test's (a ``JobDrainer``): then
/// nothing is counted by hand. A task is working exactly while it has a job queued or running
/// there, so a task suspended on anything the test controls (a stream it yields into, a
/// continuation, an actor, a child sleeping on a manual clock) is known to wait, and known to be
/// resumed the moment the test resumes it.
///
/// Why it lives in FunctionalCore, though only test support reads it: the concurrent
/// combinators of this module (`zip`, races, timeouts, callback bridging) start the child tasks
/// that a `ManualClock` driving a plain `System` must count, and a module cannot call one
/// built on top of it. The bookkeeping they carry is ``WorkUnit``'s three calls
/// (``WorkUnit/spawnChildren(_:)``, ``WorkUnit/awaitChild(_:)``, an external wait), each a
/// task-local read that finds nothing outside a tracked effect; with a test executor
/// (`TestSystem`) nothing is counted at all.
@usableFromInline
package final class WorkGroup: Sendable {
  /// Why a wait returned.
  package enum WaitEnd: Sendable, Equatable {
    /// Something changed since the generation the waiter saw: check again.
    case changed
    /// The failsafe deadline passed.
    case timedOut
    /// The waiting task was cancelled.
    case cancelled
  }

  private struct Job {
    var active: Int
    /// Tasks of the job waiting for the outside world (a callback), not for the test.
    var external = 0
    /// Results of the job on their way to the owner's isolation.
    var hops = 0
    /// Names the job in diagnostics; described only when one is written (describing a value
    /// through its existential costs more than the rest of an effect's launch).
    let label: any CustomStringConvertible & Sendable

    /// Whether something may still come from the job without the test.
    var isBusy: Bool { active > 0 || external > 0 }

    /// Whether the job works for reasons of its own, not just waits for its owner to take a
    /// result: a wait's failsafe counts only such work.
    var isWorking: Bool { external > 0 || (active > 0 && hops == 0) }
  }

  private struct Waiter {
    let continuation: CheckedContinuation<WaitEnd, Never>
    var timer: Task<Void, Never>?
  }

  private struct State {
    var jobs: [UInt64: Job] = [:]
    /// Jobs from which something may still come without the test.
    var busyJobs = 0
    /// Jobs with a task running (not asleep, not waiting for a callback or the test).
    var activeJobs = 0
    var generation: UInt64 = 0
    /// Results on their way to the owner's isolation, over all jobs.
    var hops = 0
    /// Tasks started for jobs that have not returned yet, with their jobs' labels, when the
    /// owner counts them (``taskBegan(_:label:)``).
    var tasks: [UInt64: any CustomStringConvertible & Sendable] = [:]
    var waiters: [UInt64: Waiter] = [:]
    var cancelledEarly: Set<UInt64> = []
    var lastWaiterID: UInt64 = 0

    /// Records a change and hands back the waiters to wake.
    mutating func bump() -> [Waiter] {
      generation &+= 1
      defer { waiters = [:] }
      return Array(waiters.values)
    }
  }

  private let state = Lock(State())

  /// The executor the group's tasks run on, when a test runs them (see the type's discussion).
  @usableFromInline package let drainer: (any JobDrainer)?

  /// Creates an empty group.
  ///
  /// - Parameter drainer: The executor of the test the group's tasks run on, if any.
  @usableFromInline
  package init(drainer: (any JobDrainer)? = nil) {
    self.drainer = drainer
    drainer?.bind { [weak self] in self?.signal() }
  }

  /// Whether nothing can come from any job without the test: every task is asleep on a
  /// manual clock, waits for the test to receive an event, or ended.
  ///
  /// With a drainer: no job is queued on it and no result is on its way to the owner.
  package var isIdle: Bool {
    if let drainer { return drainer.isEmpty && state.withLock { $0.hops == 0 } }
    return state.withLock { $0.busyJobs == 0 }
  }

  /// Whether no task of any job is running.
  ///
  /// Each task is asleep, or waits for the test or for the outside world. A manual clock waits
  /// for this before it moves time: no task is on its way to a sleep. With a drainer, the same
  /// as ``isIdle``.
  package var isQuiet: Bool {
    if drainer != nil { return isIdle }
    return state.withLock { $0.activeJobs == 0 }
  }

  /// Whether a failsafe that passed found work that never stops, rather than jobs only queued
  /// (the thread meant to run them starved) or results on their way to a busy owner: a group
  /// with a drainer is working while the drainer runs jobs.
  package var isRunningJobs: Bool {
    drainer?.isRunningJobs ?? true
  }

  /// Whether results are on their way to the owner's isolation.
  package var hasHops: Bool {
    state.withLock { $0.hops > 0 }
  }

  /// The labels of the jobs with a task running for reasons of its own — not asleep, not
  /// waiting for the outside world, not only handing a result to the owner — in no particular
  /// order: what keeps a manual clock from moving time.
  package var runningLabels: [String] {
    if let drainer {
      // Only jobs queued on the drainer work; which task they belong to is not known.
      return drainer.isEmpty ? [] : liveLabels
    }
    // Described outside the lock: a description is the user's code.
    return state.withLock { state in
      state.jobs.values.filter { $0.active > 0 && $0.hops == 0 }.map(\.label)
    }
    .map(\.description)
  }

  /// The labels of every job that has not ended, in no particular order.
  package var liveLabels: [String] {
    state.withLock { state in state.jobs.values.map(\.label) }.map(\.description)
  }

  /// The labels of the jobs that work for reasons of their own — not only waiting for their
  /// owner's isolation to take a result — in no particular order.
  ///
  /// A wait whose failsafe passes while only results are on their way keeps waiting: the owner
  /// is busy (another test may hold the main actor), and the results will come.
  package var workingLabels: [String] {
    if let drainer { return drainer.isEmpty ? [] : liveLabels }
    return state.withLock { state in state.jobs.values.filter(\.isWorking).map(\.label) }
      .map(\.description)
  }

  /// Marks a result of the job as on its way to the owner's isolation, until ``endHop(_:)``.
  @usableFromInline
  package func beginHop(_ key: UInt64) {
    // Through an index: the optional-chained `modify` of the dictionary allocated its frame.
    state.withLock { state in
      guard let index = state.jobs.index(forKey: key) else { return }
      state.jobs.values[index].hops += 1
      state.hops += 1
    }
  }

  /// Marks a result of the job as taken by the owner.
  @usableFromInline
  package func endHop(_ key: UInt64) {
    let woken = state.withLock { state -> [Waiter] in
      guard let index = state.jobs.index(forKey: key) else { return [] }
      state.jobs.values[index].hops -= 1
      state.hops -= 1
      // Only a drained group's idleness depends on hops.
      return drainer != nil && state.hops == 0 ? state.bump() : []
    }
    wake(woken, with: .changed)
  }

  /// A number that changes whenever a waiter should check again.
  package var generation: UInt64 {
    state.withLock(\.generation)
  }

  /// Starts counting a job with one active task, its root.
  ///
  /// - Parameters:
  ///   - key: Identifies the job in the group.
  ///   - label: Names the job in diagnostics.
  @usableFromInline
  package func begin(_ key: UInt64, label: any CustomStringConvertible & Sendable) {
    state.withLock { state in
      state.jobs[key] = Job(active: 1, label: label)
      state.busyJobs += 1
      state.activeJobs += 1
    }
  }

  /// Counts a task started for job `key` until ``taskEnded(_:)``, whether or not the job still
  /// counts: what lets a test wait for a cancelled effect's task to end.
  ///
  /// - Parameters:
  ///   - key: The job's key in the group.
  ///   - label: Names the task in diagnostics.
  @usableFromInline
  package func taskBegan(_ key: UInt64, label: any CustomStringConvertible & Sendable) {
    state.withLock { $0.tasks[key] = label }
  }

  /// Stops counting the task of job `key`: it returned.
  @usableFromInline
  package func taskEnded(_ key: UInt64) {
    let woken = state.withLock { state -> [Waiter] in
      guard state.tasks.removeValue(forKey: key) != nil else { return [] }
      return state.bump()
    }
    wake(woken, with: .changed)
  }

  /// The labels of the counted tasks that have not returned, in no particular order.
  package var liveTaskLabels: [String] {
    state.withLock { state in Array(state.tasks.values) }.map(\.description)
  }

  /// Stops counting a job; its stray tasks no longer matter.
  @usableFromInline
  package func end(_ key: UInt64) {
    let woken = state.withLock { state -> [Waiter] in
      guard let job = state.jobs.removeValue(forKey: key) else { return [] }
      state.hops -= job.hops
      if job.isBusy { state.busyJobs -= 1 }
      if job.active > 0 { state.activeJobs -= 1 }
      return state.bump()
    }
    wake(woken, with: .changed)
  }

  /// Changes the number of active tasks of a job, and of its tasks waiting for a callback.
  func adjust(_ key: UInt64, by delta: Int, external externalDelta: Int = 0) {
    let woken = state.withLock { state -> [Waiter] in
      guard let before = state.jobs[key] else { return [] }
      var after = before
      after.active += delta
      after.external += externalDelta
      state.jobs[key] = after
      var isNowQuieter = false
      if before.isBusy != after.isBusy {
        state.busyJobs += after.isBusy ? 1 : -1
        isNowQuieter = isNowQuieter || state.busyJobs == 0
      }
      if (before.active > 0) != (after.active > 0) {
        state.activeJobs += after.active > 0 ? 1 : -1
        isNowQuieter = isNowQuieter || state.activeJobs == 0
      }
      return isNowQuieter ? state.bump() : []
    }
    wake(woken, with: .changed)
  }

  /// Wakes every waiter, so it checks its condition again.
  package func signal() {
    let woken = state.withLock { $0.bump() }
    wake(woken, with: .changed)
  }

  /// Suspends until the group changes after `generation`, `deadline` passes, or the task is
  /// cancelled.
  ///
  /// Read ``generation`` before checking the condition you wait for, then pass it here: a change
  /// in between returns at once, so no wake-up is lost.
  ///
  /// - Parameters:
  ///   - generation: The generation seen before the condition was checked.
  ///   - deadline: When to give up, in real time: the failsafe that keeps a test from hanging.
  /// - Returns: Why the wait ended.
  package func waitForChange(
    after generation: UInt64,
    deadline: ContinuousClock.Instant
  ) async -> WaitEnd {
    let id = state.withLock { state in
      state.lastWaiterID += 1
      return state.lastWaiterID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<WaitEnd, Never>) in
        let immediate = state.withLock { state -> WaitEnd? in
          if state.cancelledEarly.remove(id) != nil { return .cancelled }
          if state.generation != generation { return .changed }
          state.waiters[id] = Waiter(continuation: continuation)
          return nil
        }
        if let immediate {
          continuation.resume(returning: immediate)
          return
        }
        let timer = Task { [weak self] in
          try? await ContinuousClock().sleep(until: deadline)
          self?.resumeWaiter(id, with: .timedOut)
        }
        let isWaiting = state.withLock { state in
          state.waiters[id]?.timer = timer
          return state.waiters[id] != nil
        }
        if !isWaiting { timer.cancel() }
      }
    } onCancel: {
      resumeWaiter(id, with: .cancelled, rememberingEarly: true)
    }
  }

  private func resumeWaiter(_ id: UInt64, with end: WaitEnd, rememberingEarly: Bool = false) {
    let waiter = state.withLock { state -> Waiter? in
      let waiter = state.waiters.removeValue(forKey: id)
      if waiter == nil, rememberingEarly { state.cancelledEarly.insert(id) }
      return waiter
    }
    if let waiter { wake([waiter], with: end) }
  }

  private func wake(_ waiters: [Waiter], with end: WaitEnd) {
    for waiter in waiters {
      waiter.timer?.cancel()
      waiter.continuation.resume(returning: end)
    }
  }
}

/// What a wait decides when its failsafe passes: to wait another period, or to report the work.
///
/// It waits again while only results are on their way to a busy owner (they will come), and,
/// at most three times, while the threads that run the group's work are late: its jobs are
/// queued on a drainer but not running, or a task a test clock woke has not run since (a
/// loaded machine, tests in parallel, can take seconds). Neither is work that never stops, but
/// a wait must end.
package struct FailsafeGrace {
  private var lateExtensions = 0

  /// Creates the grace of one wait.
  package init() {}

  /// Whether the wait, whose failsafe just passed, waits another period.
  ///
  /// - Parameters:
  ///   - group: The group the wait is for.
  ///   - workingLabels: The group's jobs that work for reasons of their own.
  ///   - threadsAreLate: Whether a task the wait woke has not run since.
  /// - Returns: `true` to wait again; `false` to report `workingLabels`.
  package mutating func extends(
    for group: WorkGroup, workingLabels: [String], threadsAreLate: Bool = false
  ) -> Bool {
    if workingLabels.isEmpty { return true }
    guard !group.isRunningJobs || threadsAreLate, lateExtensions < 3 else { return false }
    lateExtensions += 1
    return true
  }
}

/// An executor of a test's that the tasks of a ``WorkGroup`` queue their jobs on, and that runs
/// them one at a time, in order, telling whether any is queued or running.
@usableFromInline
package protocol JobDrainer: AnyObject, Sendable {
  /// Whether no job is queued, and none is running.
  var isEmpty: Bool { get }

  /// Whether jobs are running.
  var isRunningJobs: Bool { get }

  /// Sets what to call each time a job is queued, or a drain ends.
  ///
  /// - Parameter signal: Wakes whoever waits for the drainer's jobs.
  func bind(_ signal: @escaping @Sendable () -> Void)
}

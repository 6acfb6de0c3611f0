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

  /// Creates an empty group.
  @usableFromInline
  package init() {}

  /// Whether nothing can come from any job without the test: every task is asleep on a
  /// manual clock, waits for the test to receive an event, or ended.
  package var isIdle: Bool {
    state.withLock { $0.busyJobs == 0 }
  }

  /// Whether no task of any job is running.
  ///
  /// Each task is asleep, or waits for the test or for the outside world. A manual clock waits
  /// for this before it moves time: no task is on its way to a sleep.
  package var isQuiet: Bool {
    state.withLock { $0.activeJobs == 0 }
  }

  /// The labels of the jobs with a task running for reasons of its own — not asleep, not
  /// waiting for the outside world, not only handing a result to the owner — in no particular
  /// order: what keeps a manual clock from moving time.
  package var runningLabels: [String] {
    // Described outside the lock: a description is the user's code.
    state.withLock { state in
      state.jobs.values.filter { $0.active > 0 && $0.hops == 0 }.map(\.label)
    }
    .map(\.description)
  }

  /// The labels of the jobs that work for reasons of their own — not only waiting for their
  /// owner's isolation to take a result — in no particular order.
  ///
  /// A wait whose failsafe passes while only results are on their way keeps waiting: the owner
  /// is busy (another test may hold the main actor), and the results will come.
  package var workingLabels: [String] {
    state.withLock { state in state.jobs.values.filter(\.isWorking).map(\.label) }
      .map(\.description)
  }

  /// Marks a result of the job as on its way to the owner's isolation, until ``endHop(_:)``.
  @usableFromInline
  package func beginHop(_ key: UInt64) {
    // Through an index: the optional-chained `modify` of the dictionary allocated its frame.
    state.withLock { state in
      guard let index = state.jobs.index(forKey: key) else { return }
      state.jobs.values[index].hops += 1
    }
  }

  /// Marks a result of the job as taken by the owner.
  @usableFromInline
  package func endHop(_ key: UInt64) {
    state.withLock { state in
      guard let index = state.jobs.index(forKey: key) else { return }
      state.jobs.values[index].hops -= 1
    }
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

  /// Stops counting a job; its stray tasks no longer matter.
  @usableFromInline
  package func end(_ key: UInt64) {
    let woken = state.withLock { state -> [Waiter] in
      guard let job = state.jobs.removeValue(forKey: key) else { return [] }
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

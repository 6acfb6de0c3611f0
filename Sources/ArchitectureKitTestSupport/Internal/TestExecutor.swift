import Dispatch
import FunctionalCore

/// The executor every effect task of a ``TestSystem`` runs on: a serial, first-in first-out
/// queue that runs nothing on its own.
///
/// The harness starts each effect task with this executor as its preference (SE-0417), which
/// its child tasks, task groups and `async let`s inherit, and which default actors honour when
/// the task calls into them. Whatever resumes such a task — the test yielding into a stream the
/// effect iterates, resuming a fake backend's continuation, a manual clock waking a sleeper —
/// queues a job here. The jobs run one at a time, in the order they were queued, on a serial
/// dispatch queue of the executor's, as soon as they are queued: effects go on while the test
/// awaits its own fakes, and their code never runs on the test's thread. So "nothing can happen
/// without the test" is known rather than guessed: no job is queued and none runs.
///
/// What escapes: tasks made with `Task {}` or `Task.detached` (they inherit no preference),
/// actors with executors of their own, the main actor, real-clock sleeps, and continuations
/// resumed from other threads. Their work is not seen until it resumes a task that runs here.
///
/// - Invariant: The queue and its flags are touched only under the lock; a job is taken off the
///   queue under the lock and run exactly once, outside it, by the pump, the only code that runs
///   jobs (one drain at a time: a drain is scheduled only while none runs or is scheduled). That
///   is what makes `@unchecked Sendable` sound (`UnownedJob` is not `Sendable`); the
///   thread-sanitizer run of the suite exercises it.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class TestExecutor: TaskExecutor, JobDrainer, @unchecked Sendable {
  private struct Queue {
    var jobs: [UnownedJob] = []
    /// The position of the next job to run in `jobs`.
    var head = 0
    /// Whether a drain is running jobs.
    var isDraining = false
    /// Whether a drain is scheduled on ``pump``.
    var isPumpScheduled = false
    var signal: (@Sendable () -> Void)?

    var hasJobs: Bool { head < jobs.count }

    /// The next job, or `nil` when none is queued: then the drain ends, in the same critical
    /// section, so a job queued afterwards schedules a drain of its own.
    mutating func next() -> UnownedJob? {
      guard hasJobs else {
        jobs.removeAll(keepingCapacity: true)
        head = 0
        isDraining = false
        return nil
      }
      defer { head += 1 }
      return jobs[head]
    }
  }

  private let queue = Lock(Queue())
  /// Where queued jobs run when no wait of the harness runs them.
  private let pump = DispatchQueue(label: "ArchitectureKitTestSupport.TestExecutor")

  init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let (signal, schedulesPump) = queue.withLock { queue in
      // Waiters care about the executor turning busy or idle, not about each job: work that
      // keeps queueing jobs must not keep waking them.
      let wasIdle = !queue.hasJobs && !queue.isDraining
      queue.jobs.append(job)
      let schedulesPump = !queue.isDraining && !queue.isPumpScheduled
      if schedulesPump { queue.isPumpScheduled = true }
      return (wasIdle ? queue.signal : nil, schedulesPump)
    }
    signal?()
    if schedulesPump { schedulePump() }
  }

  /// Drains the queue on ``pump``; call it once `isPumpScheduled` was set.
  private func schedulePump() {
    pump.async {
      self.queue.withLock { $0.isPumpScheduled = false }
      // No failsafe of its own: a job that never stops holds the pump as it would hold a thread
      // of the global executor, and the harness's waits report it.
      self.drain()
    }
  }

  var isEmpty: Bool {
    queue.withLock { !$0.hasJobs && !$0.isDraining }
  }

  func bind(_ signal: @escaping @Sendable () -> Void) {
    queue.withLock { $0.signal = signal }
  }

  var isRunningJobs: Bool {
    queue.withLock(\.isDraining)
  }

  /// Runs the queued jobs on ``pump``, in order, until none is queued.
  ///
  /// Only the pump runs jobs, never a wait of the harness: an effect's code never runs on the
  /// test's thread, so an effect that blocks its thread cannot block the main actor.
  private func drain() {
    queue.withLock { $0.isDraining = true }
    var ran = false
    while let job = queue.withLock({ $0.next() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
      ran = true
    }
    if ran { queue.withLock(\.signal)?() }
  }
}

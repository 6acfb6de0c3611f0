import ArchitectureKitTestSupport
import Foundation
import Testing

/// An advance of a ``ManualClock`` waits for the task it woke while the threads have not run it.
///
/// A task that was woken and has not run yet is not work that never stops. On a loaded
/// machine (tests in parallel) the cooperative pool can take seconds to run it, and a live
/// system has no drainer that tells the clock so.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct StarvedWakeTests {
  @Test func anAdvanceWaitsForAWokenTaskTheThreadsHaveNotRunYet() async {
    let clock = ManualClock(timeout: .milliseconds(400))
    let threads = LateExecutor(delay: 0.6)
    let system = await ticker(on: threads, clock: clock)
    let failures = await capturingFailures { await clock.advance(by: .seconds(1)) }
    #expect(failures == [])
    #expect(system.state == 1)
    #expect(threads.lateJobs >= 1)
    system.stop()
  }

  @Test func anAdvanceWhoseWokenTaskNeverRunsStillEnds() async {
    let clock = ManualClock(timeout: .milliseconds(100))
    let threads = LateExecutor(delay: nil)
    let system = await ticker(on: threads, clock: clock)
    // The threads never run the woken task until the test lets them: the failsafe and its
    // three extensions end the advance.
    let failures = await capturingFailures { await clock.advance(by: .seconds(1)) }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("A task it woke has not run since") == true)
    #expect(system.state == 0)
    threads.isLate = false
    system.stop()
  }

  @Test func aSleeperCancelledAfterItsWakeLeavesNothingBehind() async {
    let clock = ManualClock()
    let threads = LateExecutor(delay: nil)
    let sleeper = Task(executorPreference: threads) { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers()
    threads.isLate = true
    await clock.advance(by: .seconds(1))
    // Woken, not run yet: the cancellation finds no sleeper to take off the list.
    sleeper.cancel()
    threads.isLate = false
    _ = await sleeper.result
    #expect(clock.pendingCancellations == 0)
  }

  /// A system that counts ticks once a second until 2, its timer on `threads`, returned once
  /// the timer sleeps and `threads` are late.
  private func ticker(on threads: LateExecutor, clock: ManualClock) async -> System<
    Int, Int, Never, ManualClock
  > {
    let system = System(
      initialState: 0,
      context: clock,
      reduce: { (count: inout Int, tick: Int) in count += tick },
      feedback: [
        .react(
          request: { $0 < 2 ? "tick" : nil },
          effect: .stream { _, clock, send in
            // A woken sleep resumes on threads that run it late.
            await withTaskExecutorPreference(threads) {
              while (try? await clock.sleep(for: .seconds(1))) != nil { await send(1) }
            }
          })
      ])
    await clock.waitForSleepers()
    threads.isLate = true
    return system
  }
}

/// A task executor with a thread of its own that, while it is late (the machine's threads
/// busy with other work), runs each job it is given `delay` after it was given, or, without a
/// delay, once it is no longer late.
///
/// Its state is guarded by `condition`'s lock, which its thread waits on.
final class LateExecutor: TaskExecutor, @unchecked Sendable {
  private let delay: TimeInterval?
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var late = false
  private var lateCount = 0

  init(delay: TimeInterval?) {
    self.delay = delay
    // The thread keeps the executor, and both live as long as the test process (two per run):
    // a job may come after the test has let go of it, from a task its effect left behind.
    let thread = Thread { self.drain() }
    thread.start()
  }

  /// Whether jobs wait before they run.
  var isLate: Bool {
    get { locked { late } }
    set { locked { late = newValue } }
  }

  /// How many jobs ran late.
  var lateJobs: Int { locked { lateCount } }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    locked { jobs.append(job) }
  }

  /// Runs `body` under the lock, then wakes the thread.
  private func locked<Value>(_ body: () -> Value) -> Value {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return body()
  }

  private func drain() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      if late {
        lateCount += 1
        if let delay {
          condition.unlock()
          Thread.sleep(forTimeInterval: delay)
          condition.lock()
        } else {
          while late { condition.wait() }
        }
      }
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

import ArchitectureKitTestSupport
import TestDoubles
import Testing

@Suite(.timeLimit(.minutes(10)))
struct ManualClockTests {
  @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadlineInOrder() async throws {
    let clock = ManualClock()
    let woken = Recorder<Int>()
    async let first: Void = {
      try? await clock.sleep(for: .seconds(2))
      woken.record(2)
    }()
    async let second: Void = {
      try? await clock.sleep(for: .seconds(1))
      woken.record(1)
    }()
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .milliseconds(500))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(2))
    _ = await (first, second)
    #expect(woken.values.sorted() == [1, 2])
    #expect(clock.now == ManualClock.Instant(offset: .milliseconds(2500)))
  }

  @Test func advanceToNextDeadlineWakesTheEarliestSleeper() async {
    let clock = ManualClock()
    #expect(await clock.advanceToNextDeadline() == false)
    let sleeper = Task { try await clock.sleep(for: .seconds(3)) }
    await clock.waitForSleepers(count: 1)
    #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(3)))
    #expect(await clock.advanceToNextDeadline())
    await #expect(throws: Never.self) { try await sleeper.value }
  }

  @Test func aCancelledSleeperThrowsAndStopsCounting() async {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    await clock.waitForSleepers(count: 1)
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }

  /// A wait whose failsafe passed, and whose sleeper came before the wait could resume to
  /// report it, got what it waited for: it reports no failure.
  ///
  /// The test holds the main actor, where the wait resumes, for half a second: the failsafe
  /// (50 ms) passes meanwhile, then the sleeper comes, from another thread. (Were the failsafe's
  /// timer later than the sleeper, the sleeper would end the wait first, and the test would not
  /// tell; it never was in 20 runs.)
  @MainActor @Test func aSleeperThatComesBeforeATimedOutWaitResumesEndsItWithoutAFailure() async {
    let clock = ManualClock(timeout: .milliseconds(50))
    var sleeper: Task<Void, Never>?
    let failures = await capturingFailures {
      let waiting = Task { await clock.waitForSleepers() }
      // The main actor runs the waiting task until it parks, then this one.
      await Task.yield()
      let held = ContinuousClock.now
      while ContinuousClock.now - held < .milliseconds(500) {}
      sleeper = Task.detached { try? await clock.sleep(for: .seconds(1)) }
      while clock.sleeperCount == 0 {}
      await waiting.value
    }
    sleeper?.cancel()
    await sleeper?.value
    #expect(failures.isEmpty)
  }

  @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async {
    let clock = ManualClock()
    let gate = Gate()
    let sleeper = Task {
      await gate.wait()
      try await clock.sleep(for: .seconds(1))
    }
    sleeper.cancel()
    gate.open()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}

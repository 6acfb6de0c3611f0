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

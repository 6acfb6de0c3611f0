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
  /// The wait runs on an actor of the test's, which the test then holds for half a second: the
  /// failsafe (50 ms) passes meanwhile, then the sleeper comes, from another thread. (Were the
  /// failsafe's timer later than the sleeper, the sleeper would end the wait first, and the test
  /// would not tell; it never was in 20 runs.) The main actor, which other suites share, is
  /// never held.
  @Test func aSleeperThatComesBeforeATimedOutWaitResumesEndsItWithoutAFailure() async {
    let clock = ManualClock(timeout: .milliseconds(50))
    let holder = Holder()
    let parking = Recorder<Bool>()
    var sleeper: Task<Void, Never>?
    let failures = await capturingFailures {
      let waiting = Task { await holder.waitForSleepers(on: clock, telling: parking) }
      await parking.wait()
      // The waiting task left the actor only by parking: the hold runs after it parked.
      sleeper = await holder.hold {
        let held = ContinuousClock.now
        while ContinuousClock.now - held < .milliseconds(500) {}
        let sleeper = Task.detached { _ = try? await clock.sleep(for: .seconds(1)) }
        while clock.sleeperCount == 0 {}
        return sleeper
      }
      await waiting.value
    }
    sleeper?.cancel()
    await sleeper?.value
    #expect(failures.isEmpty)
  }

  /// An actor whose executor the test holds while a wait on it is due to resume.
  actor Holder {
    func waitForSleepers(on clock: ManualClock, telling parking: Recorder<Bool>) async {
      parking.record(true)
      await clock.waitForSleepers()
    }

    func hold<Value: Sendable>(_ body: @Sendable () -> Value) -> Value {
      body()
    }
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

import FunctionalCore
import TestDoubles
import Testing

// Time is a TestClock: it moves only when a test advances it, and each test waits until the
// code under test is asleep before advancing. The time limit turns a hang into a failure.
@Suite(.timeLimit(.minutes(10)))
struct FutureClockTests {
  static let delays: [Duration] = [
    .nanoseconds(1), .milliseconds(300), .seconds(3), .seconds(3600),
  ]

  // MARK: - delayed

  @Test(arguments: Self.delays)
  func delayedStartsTheWorkOnlyOnceTheDelayHasPassed(delay: Duration) async throws {
    let clock = TestClock()
    let starts = Lock(0)
    let future = Future { () async -> Int in
      starts.withLock { $0 += 1 }
      return 7
    }
    .delayed(by: delay, on: clock)
    #expect(clock.sleeperCount == 0, "Building a delayed future started the timer.")

    async let value = future.run()
    await clock.waitForSleepers()
    clock.advance(by: delay - .nanoseconds(1))
    #expect(clock.sleeperCount == 1)
    #expect(starts.withLock { $0 } == 0)

    clock.advance(by: .nanoseconds(1))
    #expect(try await value == 7)
    #expect(starts.withLock { $0 } == 1)
  }

  @Test func delayedByZeroStartsTheWorkWithoutTheClockMoving() async throws {
    let clock = TestClock()

    let value = try await Future.pure(3).delayed(by: .zero, on: clock).run()

    #expect(value == 3)
    #expect(clock.elapsed == .zero)
  }

  @Test(arguments: Self.delays)
  func cancellingDuringTheDelayMeansTheWorkNeverStarts(delay: Duration) async {
    let clock = TestClock()
    let starts = Lock(0)
    let future = Future { () async -> Int in
      starts.withLock { $0 += 1 }
      return 7
    }
    .delayed(by: delay, on: clock)
    let task = Task { try await future.run() }
    await clock.waitForSleepers()

    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    clock.advance(by: delay)
    #expect(starts.withLock { $0 } == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func delaysAddUp() async throws {
    let clock = TestClock()
    let future = Future.pure(1)
      .delayed(by: .seconds(1), on: clock)
      .map { $0 + 1 }
      .delayed(by: .seconds(2), on: clock)
    async let value = future.run()

    await clock.waitForSleepers()
    clock.advance(by: .seconds(2))
    await clock.waitForSleepers()
    clock.advance(by: .milliseconds(999))
    #expect(clock.sleeperCount == 1)
    clock.advance(by: .milliseconds(1))

    #expect(try await value == 2)
    #expect(clock.elapsed == .seconds(3))
  }

  // MARK: - timeout

  @Test func timeoutReturnsTheValueOfWorkThatIsAlreadyDone() async throws {
    let clock = TestClock()

    let value = try await Future.pure(3).timeout(after: .seconds(1), on: clock).run()

    #expect(value == 3)
    #expect(clock.sleeperCount == 0, "The timer outlived the work.")
  }

  @Test(arguments: Self.delays)
  func timeoutReturnsTheValueOfWorkThatEndsJustBeforeTheDeadline(limit: Duration) async throws {
    let clock = TestClock()
    let release = Gate()
    let future = Future { () async -> String in
      await release.wait()
      return "in time"
    }
    async let value = future.timeout(after: limit, on: clock).run()

    await clock.waitForSleepers()
    clock.advance(by: limit - .nanoseconds(1))
    release.open()

    #expect(try await value == "in time")
    #expect(clock.sleeperCount == 0, "The timer outlived the work.")
  }

  @Test(arguments: Self.delays)
  func timeoutReturnsNilAndCancelsTheWorkWhenTheDeadlinePasses(limit: Duration) async throws {
    let clock = TestClock()
    let cancelled = Gate()
    let future = Future<String>(cancellableCallback: { _ in { cancelled.open() } })
    async let value = future.timeout(after: limit, on: clock).run()

    await clock.waitForSleepers()
    clock.advance(by: limit)

    #expect(try await value == nil)
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test func cancellingATimeoutCancelsBothTheWorkAndTheTimer() async {
    let clock = TestClock()
    let started = Gate()
    let cancelled = Gate()
    let future = Future<Int>(cancellableCallback: { _ in
      started.open()
      return { cancelled.open() }
    })
    let task = Task { try await future.timeout(after: .seconds(1), on: clock).run() }
    await started.wait()
    await clock.waitForSleepers()

    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.opens(), "The work was not cancelled.")
    #expect(clock.sleeperCount == 0)
  }

  @Test(arguments: Self.delays)
  func timeoutReturnsAtTheDeadlineEvenWhenTheWorkIgnoresCancellation(
    limit: Duration
  ) async throws {
    let clock = TestClock()
    let work = StubbornWork()
    async let value = Future { await work.run() }.timeout(after: limit, on: clock).run()
    await work.started.wait()
    await clock.waitForSleepers()

    clock.advance(by: limit)

    #expect(try await value == nil)
    #expect(work.sawCancellation == nil, "The timeout waited for the work to return.")
    work.finish()
    await work.ended.wait()
    #expect(work.sawCancellation == true, "The work left behind was not cancelled.")
  }

  @Test func cancellingATimeoutReturnsAtOnceEvenWhenTheWorkIgnoresCancellation() async {
    let clock = TestClock()
    let work = StubbornWork()
    let task = Task {
      try await Future { await work.run() }.timeout(after: .seconds(1), on: clock).run()
    }
    await work.started.wait()
    await clock.waitForSleepers()

    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(work.sawCancellation == nil, "The timeout waited for the work to return.")
    #expect(clock.sleeperCount == 0)
    work.finish()
    await work.ended.wait()
    #expect(work.sawCancellation == true, "The work left behind was not cancelled.")
  }

  // MARK: - A clock that fails

  @Test(arguments: FailingClock.Fault.allCases)
  func delayedStartsTheWorkWhenTheClockFails(fault: FailingClock.Fault) async throws {
    let value = try await Future.pure(3).delayed(by: .seconds(1), on: FailingClock(fault: fault))
      .run()

    #expect(value == 3)
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func timeoutGivesUpAndCancelsTheWorkWhenTheClockFails(fault: FailingClock.Fault) async throws {
    let cancelled = Gate()
    let future = Future<String>(cancellableCallback: { _ in { cancelled.open() } })

    let value = try await future.timeout(after: .seconds(1), on: FailingClock(fault: fault)).run()

    #expect(value == nil)
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func aClockThatFailsInACancelledTaskIsCancellation(fault: FailingClock.Fault) async {
    let starts = Lock(0)
    let future = Future { () async -> Int in
      starts.withLock { $0 += 1 }
      return 7
    }
    .delayed(by: .seconds(1), on: FailingClock(fault: fault))
    let go = Gate()
    let task = Task {
      await go.wait()
      return try await future.run()
    }

    task.cancel()
    go.open()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(starts.withLock { $0 } == 0)
  }

  @Test func timeoutIsLazy() async throws {
    let clock = TestClock()
    let starts = Lock(0)
    let future = Future { () async -> Int in
      starts.withLock { $0 += 1 }
      return 1
    }
    .timeout(after: .seconds(1), on: clock)

    #expect(starts.withLock { $0 } == 0)
    #expect(clock.sleeperCount == 0)
    #expect(try await future.run() == 1)
    #expect(starts.withLock { $0 } == 1)
  }
}

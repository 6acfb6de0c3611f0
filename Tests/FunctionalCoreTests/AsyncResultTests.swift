import FunctionalCore
import TestDoubles
import Testing

// A broken cancellation guarantee shows up as a task that never ends; the time limit turns that
// hang into a failure. No assertion depends on time.
@Suite(.timeLimit(.minutes(10)))
struct AsyncResultTests {
  /// A computation in a `String` context, the shape most tests need.
  typealias Computation<Value: Sendable> = AsyncResult<String, Value, TestError>

  /// The ways to build a computation, each counting how often its work starts.
  enum Shape: CaseIterable, Sendable {
    case operation
    case unfold
    case reader
    case map
    case flatMap
    case mapError
    case handleErrorWith
    case recover
    case local
    case zip
    case parallel

    /// How many times the work starts in one run.
    var startsPerRun: Int {
      switch self {
      case .operation, .unfold, .reader, .map, .mapError, .recover, .local: 1
      case .flatMap, .handleErrorWith, .zip, .parallel: 2
      }
    }

    func computation(counting starts: Lock<Int>) -> Computation<Int> {
      let operation = Computation<Int>(operation: { _ in
        starts.withLock { $0 += 1 }
        return .success(1)
      })
      let failing = Computation<Int>(operation: { _ in
        starts.withLock { $0 += 1 }
        return .failure(.first)
      })
      return switch self {
      case .operation:
        operation
      case .unfold:
        .unfold { _, complete in
          starts.withLock { $0 += 1 }
          complete(.success(1))
        }
      case .reader:
        AsyncResult(
          Reader { _ in
            Future {
              starts.withLock { $0 += 1 }
              return .success(1)
            }
          }
        )
      case .map:
        operation.map { $0 + 1 }
      case .flatMap:
        operation.flatMap { _ in operation }
      case .mapError:
        failing.mapError { _ in .second }
      case .handleErrorWith:
        failing.handleErrorWith { _ in operation }
      case .recover:
        // `Never` has no values, so the closure that maps it back to `TestError` needs no body.
        failing.recover { _ in 1 }.mapError { (never: Never) -> TestError in }
      case .local:
        AsyncResult<Int, Int, TestError>(operation: { _ in
          starts.withLock { $0 += 1 }
          return .success(1)
        })
        .local(\.count)
      case .zip:
        operation.zip(operation).map { $0 + $1 }
      case .parallel:
        Computation<[Int]>.parallel([operation, operation]).map(\.count)
      }
    }
  }

  // MARK: - Laziness

  @Test(arguments: Shape.allCases)
  func nothingRunsBeforeRun(shape: Shape) async {
    let starts = Lock(0)
    let computation = shape.computation(counting: starts)
    #expect(starts.withLock { $0 } == 0)

    _ = await computation.run("context")
    #expect(starts.withLock { $0 } == shape.startsPerRun)

    _ = await computation.run("context")
    #expect(starts.withLock { $0 } == 2 * shape.startsPerRun)
  }

  // MARK: - Constructors

  @Test func pureSucceedsWithoutDeferredWork() async {
    let computation = Computation<Int>.pure(1)

    #expect(await computation.run("context") == .success(1))
    guard case .done(.success(1)) = computation.work else {
      Issue.record("pure deferred its work: \(computation.work)")
      return
    }
  }

  @Test func failureFailsWithoutDeferredWork() async {
    let computation = Computation<Int>.failure(.first)

    #expect(await computation.run("context") == .failure(.first))
    guard case .done(.failure(.first)) = computation.work else {
      Issue.record("failure deferred its work: \(computation.work)")
      return
    }
  }

  @Test(arguments: ["", "Richi", "context"])
  func askSucceedsWithTheContext(context: String) async {
    #expect(await Computation<String>.ask().run(context) == .success(context))
  }

  @Test func operationReadsTheContext() async {
    let computation = Computation<Int>(operation: { context in .success(context.count) })

    #expect(await computation.run("Richi") == .success(5))
  }

  @Test func unfoldCompletesWithTheResultItsBodyReports() async {
    let computation = Computation<String>.unfold { context, complete in
      Task.detached { complete(.success("\(context) from another task")) }
    }

    #expect(await computation.run("Richi") == .success("Richi from another task"))
  }

  @Test func unfoldCompletesOnceWhenItsBodyCompletesTwice() async {
    let transforms = Lock(0)
    let computation = Computation<Int>.unfold { _, complete in
      complete(.failure(.first))
      complete(.success(2))
    }
    .mapError { error in
      transforms.withLock { $0 += 1 }
      return error
    }

    #expect(await computation.run("context") == .failure(.first))
    #expect(transforms.withLock { $0 } == 1)
  }

  @Test func readerBuildsAComputationFromItsLayers() async throws {
    let layers = Reader<String, Future<Result<Int, TestError>>> { context in
      Future.pure(.success(context.count))
    }
    let computation = AsyncResult(layers)

    #expect(await computation.run("Richi") == .success(5))
    #expect(try await computation.reader.run("Ana").run() == .success(3))
  }

  // MARK: - Combinators

  @Test func mapTransformsASuccess() async {
    let computation = Computation<Int>(operation: { context in .success(context.count) })

    #expect(await computation.map { $0 * 10 }.run("Richi") == .success(50))
  }

  @Test func mapLeavesAFailureAlone() async {
    let computation = Computation<Int>.failure(.first).map { value -> Int in
      Issue.record("map transformed a failure.")
      return value
    }

    #expect(await computation.run("context") == .failure(.first))
  }

  @Test func flatMapFeedsTheValueToTheNextComputation() async {
    let computation = Computation<Int>.pure(2).flatMap { value in
      Computation<Int>(operation: { context in .success(value * context.count) })
    }

    #expect(await computation.run("Richi") == .success(10))
  }

  @Test func aFailureShortCircuitsFlatMap() async {
    let nextStages = Lock(0)
    let computation = Computation<Int>.unfold { _, complete in complete(.failure(.first)) }
      .flatMap { value in
        nextStages.withLock { $0 += 1 }
        return .pure(value)
      }
      .map { $0 + 1 }

    #expect(await computation.run("context") == .failure(.first))
    #expect(nextStages.withLock { $0 } == 0)
  }

  @Test func mapErrorMapsAFailure() async {
    let computation = Computation<Int>.failure(.other(4))
      .mapError { error -> LawError in
        if case .other(let code) = error { LawError(value: code) } else { LawError(value: 0) }
      }

    #expect(await computation.run("context") == .failure(LawError(value: 4)))
  }

  @Test func mapErrorLeavesASuccessAlone() async {
    let computation = Computation<Int>.pure(1).mapError { error -> LawError in
      Issue.record("mapError transformed a success.")
      return LawError(value: 0)
    }

    #expect(await computation.run("context") == .success(1))
  }

  @Test(
    arguments: [
      (Computation<Int>.failure(.other(7)), 70),
      (Computation<Int>.failure(.first), -1),
      (Computation<Int>.pure(3), 3),
    ]
  )
  func mapErrorRecoverTurnsAFailureIntoAValue(computation: Computation<Int>, expected: Int) async {
    let recovered = computation.mapErrorRecover { error in
      if case .other(let code) = error { code * 10 } else { -1 }
    }

    #expect(await recovered.run("context") == .success(expected))
  }

  @Test(
    arguments: [
      (Computation<Int>.failure(.other(7)), 70),
      (Computation<Int>.failure(.first), -1),
      (Computation<Int>.pure(3), 3),
    ]
  )
  func recoverTurnsAFailureIntoAValueAndDropsTheErrorType(
    computation: Computation<Int>,
    expected: Int
  ) async {
    let recovered: AsyncResult<String, Int, Never> = computation.recover { error in
      if case .other(let code) = error { code * 10 } else { -1 }
    }

    #expect(await recovered.run("context") == .success(expected))
  }

  @Test func recoverLeavesASuccessAlone() async {
    let computation = Computation<Int>.pure(1).recover { _ in
      Issue.record("recover handled a success.")
      return 0
    }

    #expect(await computation.run("context") == .success(1))
  }

  @Test func aRecoveredComputationFitsWhereNoFailureIsAllowed() async {
    /// Stands for a parent whose error type is `Never`: it has no failure case to handle.
    func event(of effect: AsyncResult<String, String, Never>) async -> String {
      switch await effect.run("Richi") {
      case .success(let event): event
      }
    }
    let child = Computation<String>(operation: { context in
      context.isEmpty ? .success("loaded") : .failure(.other(context.count))
    })

    let parentEvent = await event(of: child.recover { "failed: \($0)" })

    #expect(parentEvent == "failed: other(5)")
  }

  @Test func performStopsAtOnceWhenARecoveredComputationIsCancelled() async {
    let started = Gate()
    let computation = Computation<Int>.unfold { _, _ in started.open() }.recover { _ in 0 }
    let task = Task { try await computation.perform("context") }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func handleErrorWithRecoversWithAnotherComputation() async {
    let computation = Computation<Int>.failure(.first).handleErrorWith { error in
      Computation<Int>(operation: { context in
        error == .first ? .success(context.count) : .failure(error)
      })
    }

    #expect(await computation.run("Richi") == .success(5))
  }

  @Test func handleErrorWithMayFailAgain() async {
    let computation = Computation<Int>.failure(.first).handleErrorWith { _ in .failure(.second) }

    #expect(await computation.run("context") == .failure(.second))
  }

  @Test func handleErrorWithLeavesASuccessAlone() async {
    let computation = Computation<Int>.pure(1).handleErrorWith { _ in
      Issue.record("handleErrorWith handled a success.")
      return .pure(0)
    }

    #expect(await computation.run("context") == .success(1))
  }

  @Test func localRunsInAContextDerivedFromALargerOne() async {
    let length = Computation<Int>(operation: { context in .success(context.count) })
    let inLargerContext: AsyncResult<[String], Int, TestError> = length.local { $0.joined() }

    #expect(await inLargerContext.run(["Yeezy", "Triple", "White"]) == .success(16))
  }

  @Test(arguments: [1, 42, -7])
  func theContextReachesEveryStage(context: Int) async {
    let seen = Lock<[String: String]>([:])
    @Sendable func stage(_ name: String) -> Computation<String> {
      Computation<String>.ask().map { context in
        seen.withLock { $0[name] = context }
        return context
      }
    }
    let clock = TestClock()
    let chain = stage("ask")
      .flatMap { _ in stage("flatMap") }
      .zip(stage("zip"))
      .flatMap { _ in Computation<[String]>.parallel([stage("parallel")]) }
      .flatMap { _ in Computation<String>.failure(.first) }
      .handleErrorWith { _ in stage("handleErrorWith") }
      .mapError { $0 }
      .flatMap { _ in stage("delayed").delayed(by: .zero, on: clock) }
      .flatMap { _ in
        stage("timeout").timeout(after: .seconds(1), on: clock, failingWith: .other(408))
      }
      .flatMap { _ in
        Computation<String>.unfold { context, complete in
          seen.withLock { $0["unfold"] = context }
          complete(.success(context))
        }
      }
      .flatMap { _ in
        Computation<String>(operation: { context in
          seen.withLock { $0["operation"] = context }
          return .success(context)
        })
      }
      .local { (context: Int) in "context \(context)" }

    let result = await chain.run(context)

    #expect(result == .success("context \(context)"))
    let stages = [
      "ask", "flatMap", "zip", "parallel", "handleErrorWith", "delayed", "timeout", "unfold",
      "operation",
    ]
    #expect(
      seen.withLock { $0 }
        == Dictionary(uniqueKeysWithValues: stages.map { ($0, "context \(context)") })
    )
  }

  // MARK: - run and perform

  @Test func runRunsTheWorkToItsEndEvenWhenItsTaskIsCancelled() async {
    let started = Gate()
    let release = Gate()
    let computation = Computation<Bool>(operation: { _ in
      started.open()
      await release.wait()
      return .success(Task.isCancelled)
    })
    let task = Task { await computation.run("context") }

    await started.wait()
    task.cancel()
    release.open()

    #expect(await task.value == .success(false), "run passed its cancellation to the work.")
  }

  @Test func runWaitsForACallbackThatCompletesAfterItsTaskIsCancelled() async throws {
    let completion = Lock<(@Sendable (Result<Int, TestError>) -> Void)?>(nil)
    let started = Gate()
    let computation = Computation<Int>.unfold { _, complete in
      completion.withLock { $0 = complete }
      started.open()
    }
    let task = Task { await computation.run("context") }
    await started.wait()
    task.cancel()

    let complete = try #require(completion.withLock { $0 })
    complete(.success(9))

    #expect(await task.value == .success(9))
  }

  @Test func performStopsAtOnceWhenItsTaskIsCancelled() async {
    let started = Gate()
    let computation = Computation<Int>.unfold { _, _ in started.open() }.map { $0 + 1 }
    let task = Task { try await computation.perform("context") }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func performPassesCancellationToTheOperation() async throws {
    let started = Gate()
    let release = Gate()
    let computation = Computation<Bool>(operation: { _ in
      started.open()
      await release.wait()
      return .success(Task.isCancelled)
    })
    let task = Task { try await computation.perform("context") }

    await started.wait()
    task.cancel()
    release.open()

    #expect(try await task.value == .success(true))
  }

  @Test func performIgnoresACompletionAfterCancellation() async throws {
    let completion = Lock<(@Sendable (Result<Int, TestError>) -> Void)?>(nil)
    let started = Gate()
    let computation = Computation<Int>.unfold { _, complete in
      completion.withLock { $0 = complete }
      started.open()
    }
    let task = Task { try await computation.perform("context") }
    await started.wait()
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }

    let complete = try #require(completion.withLock { $0 })
    complete(.success(9))
  }

  @Test func performDeliversAKnownOutcomeEvenInACancelledTask() async throws {
    let go = Gate()
    let task = Task {
      await go.wait()
      return try await Computation<Int>.pure(1).perform("context")
    }

    task.cancel()
    go.open()

    #expect(try await task.value == .success(1))
  }

  // MARK: - Time

  @Test func delayedStartsTheWorkOnlyOnceTheDelayHasPassed() async throws {
    let clock = TestClock()
    let starts = Lock(0)
    let computation = Computation<Int>(operation: { context in
      starts.withLock { $0 += 1 }
      return .success(context.count)
    })
    .delayed(by: .seconds(3), on: clock)
    async let result = computation.perform("Richi")

    await clock.waitForSleepers()
    clock.advance(by: .seconds(3) - .nanoseconds(1))
    #expect(clock.sleeperCount == 1)
    #expect(starts.withLock { $0 } == 0)
    clock.advance(by: .nanoseconds(1))

    #expect(try await result == .success(5))
    #expect(starts.withLock { $0 } == 1)
  }

  @Test func cancellingPerformDuringTheDelayMeansTheWorkNeverStarts() async {
    let clock = TestClock()
    let starts = Lock(0)
    let computation = Computation<Int>(operation: { _ in
      starts.withLock { $0 += 1 }
      return .success(1)
    })
    .delayed(by: .seconds(1), on: clock)
    let task = Task { try await computation.perform("context") }
    await clock.waitForSleepers()

    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    clock.advance(by: .seconds(1))
    #expect(starts.withLock { $0 } == 0)
    #expect(clock.sleeperCount == 0)
  }

  @Test func timeoutSucceedsWhenTheWorkEndsBeforeTheDeadline() async throws {
    let clock = TestClock()
    let release = Gate()
    let computation = Computation<Int>(operation: { context in
      await release.wait()
      return .success(context.count)
    })
    .timeout(after: .seconds(1), on: clock, failingWith: .other(408))
    async let result = computation.perform("Richi")

    await clock.waitForSleepers()
    clock.advance(by: .seconds(1) - .nanoseconds(1))
    release.open()

    #expect(try await result == .success(5))
    #expect(clock.sleeperCount == 0, "The timer outlived the work.")
  }

  @Test func timeoutPassesOnAFailureOfTheWork() async throws {
    let clock = TestClock()
    let computation = Computation<Int>.unfold { _, complete in complete(.failure(.first)) }
      .timeout(after: .seconds(1), on: clock, failingWith: .other(408))

    #expect(try await computation.perform("context") == .failure(.first))
    #expect(clock.sleeperCount == 0, "The timer outlived the work.")
  }

  @Test func timeoutFailsAndCancelsTheWorkWhenTheDeadlinePasses() async throws {
    let clock = TestClock()
    let cancelled = Gate()
    let computation = AsyncResult<String, Int, TestError>(
      Reader { _ in Future(cancellableCallback: { _ in { cancelled.open() } }) }
    )
    .timeout(after: .seconds(1), on: clock, failingWith: .other(408))
    async let result = computation.perform("context")

    await clock.waitForSleepers()
    clock.advance(by: .seconds(1))

    #expect(try await result == .failure(.other(408)))
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test func timeoutFailsAtTheDeadlineEvenWhenTheWorkIgnoresCancellation() async {
    let clock = TestClock()
    let work = StubbornWork()
    let computation = Computation<String>(operation: { _ in .success(await work.run()) })
      .timeout(after: .seconds(1), on: clock, failingWith: .other(408))
    async let result = computation.run("context")
    await work.started.wait()
    await clock.waitForSleepers()

    clock.advance(by: .seconds(1))

    #expect(await result == .failure(.other(408)))
    #expect(work.sawCancellation == nil, "The timeout waited for the work to return.")
    work.finish()
    await work.ended.wait()
    #expect(work.sawCancellation == true, "The work left behind was not cancelled.")
  }

  // MARK: - A clock that fails

  @Test(arguments: FailingClock.Fault.allCases)
  func runStartsTheDelayedWorkWhenTheClockFails(fault: FailingClock.Fault) async {
    let computation = Computation<Int>(operation: { context in .success(context.count) })
      .delayed(by: .seconds(1), on: FailingClock(fault: fault))

    #expect(await computation.run("Richi") == .success(5))
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func performStartsTheDelayedWorkWhenTheClockFails(fault: FailingClock.Fault) async throws {
    let computation = Computation<Int>.pure(1).delayed(
      by: .seconds(1), on: FailingClock(fault: fault))

    #expect(try await computation.perform("context") == .success(1))
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func timeoutFailsWithItsErrorWhenTheClockFails(fault: FailingClock.Fault) async {
    let cancelled = Gate()
    let computation = AsyncResult<String, Int, TestError>(
      Reader { _ in Future(cancellableCallback: { _ in { cancelled.open() } }) }
    )
    .timeout(after: .seconds(1), on: FailingClock(fault: fault), failingWith: .other(408))

    #expect(await computation.run("context") == .failure(.other(408)))
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func delayedFailsWithTheClockFailureAndNeverStartsTheWorkWhenTheClockFails(
    fault: FailingClock.Fault
  ) async {
    let starts = Lock(0)
    let reported = Lock<(any Error)?>(nil)
    let computation = Computation<Int>(operation: { _ in
      starts.withLock { $0 += 1 }
      return .success(1)
    })
    .delayed(
      by: .seconds(1), on: FailingClock(fault: fault),
      ifClockFails: { failure in
        reported.withLock { $0 = failure.underlying }
        return .other(503)
      })

    #expect(await computation.run("context") == .failure(.other(503)))
    #expect(starts.withLock { $0 } == 0)
    let underlying = reported.withLock { $0 }
    switch fault {
    case .clockError: #expect(underlying is FailingClock.ClockBroke)
    case .spuriousCancellation: #expect(underlying is CancellationError)
    }
  }

  @Test func delayedThatHandlesClockFailuresStartsTheWorkOnceTheDelayHasPassed() async throws {
    let clock = TestClock()
    let computation = Computation<Int>(operation: { context in .success(context.count) })
      .delayed(
        by: .seconds(2), on: clock,
        ifClockFails: { _ in
          Issue.record("A clock that worked was reported as failed.")
          return .other(503)
        })
    async let result = computation.perform("Richi")

    await clock.waitForSleepers()
    clock.advance(by: .seconds(2))

    #expect(try await result == .success(5))
  }

  @Test func cancellingADelayThatHandlesClockFailuresIsStillCancellation() async {
    let clock = TestClock()
    let starts = Lock(0)
    let computation = Computation<Int>(operation: { _ in
      starts.withLock { $0 += 1 }
      return .success(1)
    })
    .delayed(
      by: .seconds(1), on: clock,
      ifClockFails: { _ in
        Issue.record("Cancellation was reported as a clock failure.")
        return .other(503)
      })
    let task = Task { try await computation.perform("context") }
    await clock.waitForSleepers()

    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(starts.withLock { $0 } == 0)
  }

  @Test(arguments: FailingClock.Fault.allCases)
  func timeoutFailsWithTheClockFailureWhenTheClockFails(fault: FailingClock.Fault) async {
    let cancelled = Gate()
    let computation = AsyncResult<String, Int, TestError>(
      Reader { _ in Future(cancellableCallback: { _ in { cancelled.open() } }) }
    )
    .timeout(
      after: .seconds(1), on: FailingClock(fault: fault), failingWith: .other(408),
      ifClockFails: { _ in .other(503) })

    #expect(await computation.run("context") == .failure(.other(503)))
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test func timeoutThatHandlesClockFailuresFailsWithItsErrorAtTheDeadline() async {
    let clock = TestClock()
    let work = StubbornWork()
    let computation = Computation<String>(operation: { _ in .success(await work.run()) })
      .timeout(
        after: .seconds(1), on: clock, failingWith: .other(408),
        ifClockFails: { _ in
          Issue.record("A clock that worked was reported as failed.")
          return .other(503)
        })
    async let result = computation.run("context")
    await work.started.wait()
    await clock.waitForSleepers()

    clock.advance(by: .seconds(1))

    #expect(await result == .failure(.other(408)))
    work.finish()
    await work.ended.wait()
    #expect(work.sawCancellation == true, "The work left behind was not cancelled.")
  }

  // MARK: - Functor laws

  @Test(arguments: LawInput.samples)
  func mapOfIdentityChangesNothing(input: LawInput) async {
    let computation = Self.computation(input.value)

    #expect(
      await computation.map { $0 }.run(input.environment) == computation.run(input.environment)
    )
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func mapOfACompositionIsTheCompositionOfMaps(
    input: LawInput,
    functions: IntFunctionPair
  ) async {
    let computation = Self.computation(input.value)
    let (f, g) = (functions.first.apply, functions.second.apply)

    #expect(
      await computation.map { g(f($0)) }.run(input.environment)
        == computation.map(f).map(g).run(input.environment)
    )
  }

  // MARK: - Monad laws

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func pureIsALeftIdentityOfFlatMap(input: LawInput, function: IntFunction) async {
    let f = Self.arrow(function)

    #expect(
      await AsyncResult.pure(input.value).flatMap(f).run(input.environment)
        == f(input.value).run(input.environment)
    )
  }

  @Test(arguments: LawInput.samples)
  func pureIsARightIdentityOfFlatMap(input: LawInput) async {
    let computation = Self.computation(input.value)

    #expect(
      await computation.flatMap { .pure($0) }.run(input.environment)
        == computation.run(input.environment)
    )
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func flatMapIsAssociative(input: LawInput, functions: IntFunctionPair) async {
    let computation = Self.computation(input.value)
    let (f, g) = (Self.arrow(functions.first), Self.arrow(functions.second))

    #expect(
      await computation.flatMap(f).flatMap(g).run(input.environment)
        == computation.flatMap { f($0).flatMap(g) }.run(input.environment)
    )
  }

  // MARK: - recover laws

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func recoverAgreesWithRecoverOnTheResult(input: LawInput, function: IntFunction) async {
    let computation = Self.computation(input.value)
    let handler: @Sendable (LawError) -> Int = { function.apply($0.value) }

    #expect(
      await computation.recover(handler).run(input.environment)
        == computation.run(input.environment).recover(handler)
    )
  }

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func recoverOfPureIsPure(input: LawInput, function: IntFunction) async {
    let recovered = AsyncResult<Int, Int, LawError>.pure(input.value)
      .recover { function.apply($0.value) }

    #expect(await recovered.run(input.environment) == .success(input.value))
  }

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func recoverOfAFailureIsPureOfTheHandlersValue(input: LawInput, function: IntFunction) async {
    let recovered = AsyncResult<Int, Int, LawError>.failure(LawError(value: input.value))
      .recover { function.apply($0.value) }

    #expect(await recovered.run(input.environment) == .success(function.apply(input.value)))
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func mapThenRecoverIsRecoverThenMap(input: LawInput, functions: IntFunctionPair) async {
    let computation = Self.computation(input.value)
    let (f, g) = (functions.first.apply, functions.second.apply)

    #expect(
      await computation.map(g).recover { g(f($0.value)) }.run(input.environment)
        == computation.recover { f($0.value) }.map(g).run(input.environment)
    )
  }

  /// A callback-based computation that reads its context and fails for multiples of 4.
  private static func computation(_ value: Int) -> AsyncResult<Int, Int, LawError> {
    .unfold { context, complete in
      let output = value &+ context
      Task.detached {
        complete(output % 4 == 0 ? .failure(LawError(value: output)) : .success(output))
      }
    }
  }

  /// A Kleisli arrow that reads its context and fails for multiples of 3, so a law breaks if a
  /// stage gets the wrong context or a failure does not stop the chain.
  private static func arrow(
    _ function: IntFunction
  ) -> @Sendable (Int) -> AsyncResult<Int, Int, LawError> {
    { value in
      AsyncResult(operation: { context in
        let output = function.apply(value &+ context)
        return output % 3 == 0 ? .failure(LawError(value: output)) : .success(output)
      })
    }
  }
}

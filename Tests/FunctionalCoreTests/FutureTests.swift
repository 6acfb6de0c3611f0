import FunctionalCore
import TestDoubles
import Testing

// A broken cancellation or concurrency guarantee shows up as a task that never ends; the time
// limit turns that hang into a failure. No assertion depends on time.
@Suite(.timeLimit(.minutes(10)))
struct FutureTests {
  /// The ways to build a future, each counting how often its work starts.
  enum Shape: CaseIterable, Sendable {
    case operation
    case callback
    case cancellableCallback
    case mapChain
    case flatMapChain
    case zip

    /// How many times the work starts in one run.
    var startsPerRun: Int {
      switch self {
      case .operation, .callback, .cancellableCallback, .mapChain: 1
      case .flatMapChain, .zip: 2
      }
    }

    func future(counting starts: Lock<Int>) -> Future<Int> {
      let operation = Future {
        starts.withLock { $0 += 1 }
        return 1
      }
      return switch self {
      case .operation:
        operation
      case .callback:
        Future(callback: { complete in
          starts.withLock { $0 += 1 }
          complete(1)
        })
      case .cancellableCallback:
        Future(cancellableCallback: { complete in
          starts.withLock { $0 += 1 }
          complete(1)
          return {}
        })
      case .mapChain:
        operation.map { $0 + 1 }.map { $0 * 2 }
      case .flatMapChain:
        operation.flatMap { _ in operation }.map { $0 + 1 }
      case .zip:
        operation.zip(operation).map { $0 + $1 }
      }
    }
  }

  // MARK: - Laziness

  @Test(arguments: Shape.allCases)
  func nothingRunsBeforeRun(shape: Shape) async throws {
    let starts = Lock(0)
    let future = shape.future(counting: starts)
    #expect(starts.withLock { $0 } == 0)

    _ = try await future.run()
    #expect(starts.withLock { $0 } == shape.startsPerRun)
  }

  @Test(arguments: Shape.allCases)
  func everyRunStartsTheWorkAgain(shape: Shape) async throws {
    let starts = Lock(0)
    let future = shape.future(counting: starts)

    _ = try await future.run()
    _ = try await future.run()

    #expect(starts.withLock { $0 } == 2 * shape.startsPerRun)
  }

  // MARK: - Values

  @Test(arguments: LawInput.samples)
  func pureProducesItsValue(input: LawInput) async throws {
    #expect(try await Future.pure(input.value).run() == input.value)
  }

  @Test func operationProducesWhatTheAsyncFunctionReturns() async throws {
    let future = Future { () async -> String in "Yeezy Triple White" }

    #expect(try await future.run() == "Yeezy Triple White")
  }

  @Test func callbackProducesTheValueOfItsCompletion() async throws {
    let future = Future<String>(callback: { complete in
      Task.detached { complete("from another task") }
    })

    #expect(try await future.run() == "from another task")
  }

  @Test func mapTransformsTheValue() async throws {
    #expect(try await Future.pure("Richi").map(\.count).run() == 5)
  }

  @Test func flatMapFeedsTheValueToTheNextFuture() async throws {
    let future = Future.pure(2).flatMap { value in Future { value * 21 } }

    #expect(try await future.run() == 42)
  }

  // MARK: - Callbacks

  @Test func aCallbackCalledTwiceCompletesOnce() async throws {
    let transforms = Lock(0)
    let future = Future<Int>(callback: { complete in
      complete(1)
      complete(2)
    })
    .map { value in
      transforms.withLock { $0 += 1 }
      return value
    }

    #expect(try await future.run() == 1)
    #expect(transforms.withLock { $0 } == 1)
  }

  @Test func aCallbackCalledConcurrentlyFromTwoTasksCompletesOnce() async throws {
    let future = Future<Int>(callback: { complete in
      Task.detached { complete(1) }
      Task.detached { complete(2) }
    })

    let value = try await future.run()

    #expect(value == 1 || value == 2)
  }

  @Test func aCancellableCallbackThatCompletesIsNotCancelledAfterwards() async throws {
    let cancels = Lock(0)
    let future = Future<Int>(cancellableCallback: { complete in
      complete(5)
      return { cancels.withLock { $0 += 1 } }
    })
    let task = Task { try await future.run() }

    #expect(try await task.value == 5)
    task.cancel()
    #expect(cancels.withLock { $0 } == 0)
  }

  // MARK: - Cancellation

  @Test func cancellingTheRunCancelsTheOperationCooperatively() async throws {
    let started = Gate()
    let release = Gate()
    let future = Future { () async -> Bool in
      started.open()
      await release.wait()
      return Task.isCancelled
    }
    let task = Task { try await future.run() }

    await started.wait()
    task.cancel()
    release.open()

    #expect(try await task.value, "The operation did not see its task's cancellation.")
  }

  @Test func cancellingTheRunThrowsAtOnceEvenIfTheCallbackNeverComes() async {
    let started = Gate()
    let future = Future<Int>(callback: { _ in started.open() })
    let task = Task { try await future.run() }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func cancellingTheRunCallsTheCancelActionOfACancellableCallback() async {
    let started = Gate()
    let cancelled = Gate()
    let future = Future<Int>(cancellableCallback: { _ in
      started.open()
      return { cancelled.open() }
    })
    let task = Task { try await future.run() }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test func aCompletionAfterCancellationIsIgnored() async throws {
    let completion = Lock<(@Sendable (Int) -> Void)?>(nil)
    let started = Gate()
    let transforms = Lock(0)
    let future = Future<Int>(callback: { complete in
      completion.withLock { $0 = complete }
      started.open()
    })
    .map { value in
      transforms.withLock { $0 += 1 }
      return value
    }
    let task = Task { try await future.run() }
    await started.wait()
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }

    let complete = try #require(completion.withLock { $0 })
    complete(42)

    #expect(transforms.withLock { $0 } == 0)
  }

  @Test func aRunInAnAlreadyCancelledTaskNeverStartsTheCallback() async {
    let starts = Lock(0)
    let future = Future<Int>(callback: { complete in
      starts.withLock { $0 += 1 }
      complete(1)
    })
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

  @Test func cancellationStopsAFlatMapChainBeforeItsNextStage() async {
    let started = Gate()
    let nextStages = Lock(0)
    let future = Future<Int>(callback: { _ in started.open() }).flatMap { value in
      nextStages.withLock { $0 += 1 }
      return Future.pure(value)
    }
    let task = Task { try await future.run() }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(nextStages.withLock { $0 } == 0)
  }

  // MARK: - zip

  @Test func zipRunsBothSidesConcurrently() async throws {
    // Each side waits for the other to arrive: run one after the other, they never finish.
    let barrier = Latch(count: 2)
    let left = Future { () async -> Int in
      await barrier.arrive()
      return 1
    }
    let right = Future { () async -> String in
      await barrier.arrive()
      return "right"
    }

    let (first, second) = try await left.zip(right).run()

    #expect(first == 1)
    #expect(second == "right")
  }

  @Test func zipKeepsArgumentOrderWhenTheSecondSideFinishesFirst() async throws {
    let secondFinished = Gate()
    let left = Future { () async -> String in
      await secondFinished.wait()
      return "first"
    }
    let right = Future { () async -> String in
      defer { secondFinished.open() }
      return "second"
    }

    let pair = try await left.zip(right).run()

    #expect(pair == ("first", "second"))
  }

  @Test func cancellingAZipCancelsBothSides() async {
    let started = Latch(count: 2)
    let cancelled = Latch(count: 2)
    let side = Future<Int>(cancellableCallback: { _ in
      started.countDown()
      return { cancelled.countDown() }
    })
    let task = Task { try await side.zip(side).run() }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.wait(), "The work was not cancelled.")
  }

  // MARK: - Functor laws

  @Test(arguments: LawInput.samples)
  func mapOfIdentityChangesNothing(input: LawInput) async throws {
    let future = Self.future(input.value)

    #expect(try await future.map { $0 }.run() == future.run())
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func mapOfACompositionIsTheCompositionOfMaps(
    input: LawInput,
    functions: IntFunctionPair
  ) async throws {
    let future = Self.future(input.value)
    let (f, g) = (functions.first.apply, functions.second.apply)

    #expect(try await future.map { g(f($0)) }.run() == future.map(f).map(g).run())
  }

  // MARK: - Monad laws

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func pureIsALeftIdentityOfFlatMap(input: LawInput, function: IntFunction) async throws {
    let f = Self.arrow(function)

    #expect(try await Future.pure(input.value).flatMap(f).run() == f(input.value).run())
  }

  @Test(arguments: LawInput.samples)
  func pureIsARightIdentityOfFlatMap(input: LawInput) async throws {
    let future = Self.future(input.value)

    #expect(try await future.flatMap { .pure($0) }.run() == future.run())
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func flatMapIsAssociative(input: LawInput, functions: IntFunctionPair) async throws {
    let future = Self.future(input.value)
    let (f, g) = (Self.arrow(functions.first), Self.arrow(functions.second))

    #expect(
      try await future.flatMap(f).flatMap(g).run() == future.flatMap { f($0).flatMap(g) }.run()
    )
  }

  /// A future whose value arrives through a callback from another task.
  private static func future(_ value: Int) -> Future<Int> {
    Future(callback: { complete in Task.detached { complete(value) } })
  }

  /// A Kleisli arrow that suspends, so the laws are checked on real asynchronous work.
  private static func arrow(_ function: IntFunction) -> @Sendable (Int) -> Future<Int> {
    { value in
      Future {
        await Task.yield()
        return function.apply(value)
      }
    }
  }
}

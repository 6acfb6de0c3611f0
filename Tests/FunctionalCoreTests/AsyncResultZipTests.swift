import FunctionalCore
import TestDoubles
import Testing

// Concurrency is proven with barriers: every input waits until all of them have started, so
// running them one after another never finishes. The time limit turns such a hang into a
// failure; no assertion depends on time. Tests call `perform` rather than `run` where a bug could
// leave work hanging: `run` shields its work from cancellation, so not even the time limit
// could stop it.
@Suite(.timeLimit(.minutes(10)))
struct AsyncResultZipTests {
  typealias Computation<Value: Sendable> = AsyncResult<String, Value, TestError>

  enum Side: CaseIterable, Sendable {
    case first
    case second
  }

  /// Computations that wait at `barrier` for all the others, then finish in reverse argument
  /// order (the last one first), each succeeding with its index.
  private struct ReverseFinishers {
    let barrier: Latch
    let finished: [Gate]

    init(count: Int) {
      barrier = Latch(count: count)
      finished = (0..<count).map { _ in Gate() }
    }

    func computation(_ index: Int) -> Computation<Int> {
      let barrier = barrier
      let finished = finished
      return Computation(operation: { _ in
        await barrier.arrive()
        if finished.indices.contains(index + 1) { await finished[index + 1].wait() }
        finished[index].open()
        return .success(index)
      })
    }
  }

  /// A computation that starts, never completes, and reports its cancellation.
  private static func hanging(
    started: @escaping @Sendable () -> Void,
    cancelled: @escaping @Sendable () -> Void
  ) -> Computation<Int> {
    AsyncResult(
      Reader { _ in
        Future(cancellableCallback: { _ in
          started()
          return cancelled
        })
      }
    )
  }

  // MARK: - zip

  @Test func zipRunsBothSidesConcurrently() async throws {
    let barrier = Latch(count: 2)
    let left = Computation<Int>(operation: { _ in
      await barrier.arrive()
      return .success(1)
    })
    let right = Computation<String>(operation: { context in
      await barrier.arrive()
      return .success(context)
    })

    let (first, second) = try await left.zip(right).perform("right").get()

    #expect(first == 1)
    #expect(second == "right")
  }

  @Test func zipKeepsArgumentOrderWhenTheSecondSideFinishesFirst() async throws {
    let sides = ReverseFinishers(count: 2)

    let pair = try await sides.computation(0).zip(sides.computation(1)).perform("context").get()

    #expect(pair == (0, 1))
  }

  @Test(arguments: 3...5)
  func zipOfManyRunsEveryInputConcurrentlyAndKeepsArgumentOrder(arity: Int) async throws {
    let sides = ReverseFinishers(count: arity)
    let input = sides.computation

    let values: [Int] =
      switch arity {
      case 3:
        try await input(0).zip(input(1), input(2)).map { [$0, $1, $2] }.perform("context").get()
      case 4:
        try await input(0).zip(input(1), input(2), input(3)).map { [$0, $1, $2, $3] }
          .perform("context").get()
      default:
        try await input(0).zip(input(1), input(2), input(3), input(4))
          .map { [$0, $1, $2, $3, $4] }.perform("context").get()
      }

    #expect(values == Array(0..<arity))
  }

  @Test(arguments: Side.allCases)
  func aFailureOfEitherSideFailsTheZipAndCancelsTheOtherSide(failing: Side) async throws {
    let started = Gate()
    let cancelled = Gate()
    let hanging = Self.hanging(started: started.open, cancelled: cancelled.open)
    let failure = Computation<Int>(operation: { _ in
      await started.wait()
      return .failure(.second)
    })

    let result =
      switch failing {
      case .first: try await failure.zip(hanging).map { $0 + $1 }.perform("context")
      case .second: try await hanging.zip(failure).map { $0 + $1 }.perform("context")
      }

    #expect(result == .failure(.second))
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test(arguments: 3...5)
  func aFailureOfOneInputCancelsEveryOtherInputOfAZipOfMany(arity: Int) async throws {
    let started = Latch(count: arity - 1)
    let cancelled = Latch(count: arity - 1)
    let hanging = Self.hanging(started: started.countDown, cancelled: cancelled.countDown)
    let failure = Computation<Int>(operation: { _ in
      await started.wait()
      return .failure(.other(arity))
    })

    let result: Result<Int, TestError> =
      switch arity {
      case 3: try await hanging.zip(failure, hanging).map { _ in 0 }.perform("context")
      case 4: try await hanging.zip(hanging, failure, hanging).map { _ in 0 }.perform("context")
      default:
        try await hanging.zip(hanging, hanging, hanging, failure).map { _ in 0 }.perform("context")
      }

    #expect(result == .failure(.other(arity)))
    #expect(await cancelled.wait(), "The work was not cancelled.")
  }

  @Test func zipWithAnImmediateFailureFails() async {
    let left = Computation<Int>.failure(.first).zip(Computation<Int>.pure(1))
    let right = Computation<Int>.pure(1).zip(Computation<Int>.failure(.second))

    #expect(await left.map { $0 + $1 }.run("context") == .failure(.first))
    #expect(await right.map { $0 + $1 }.run("context") == .failure(.second))
  }

  @Test func cancellingAZipCancelsBothSides() async {
    let started = Latch(count: 2)
    let cancelled = Latch(count: 2)
    let side = Self.hanging(started: started.countDown, cancelled: cancelled.countDown)
    let task = Task { try await side.zip(side).perform("context") }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.wait(), "The work was not cancelled.")
  }

  @Test(arguments: ["a", "Richi"])
  func bothSidesOfAZipReadTheContext(context: String) async throws {
    let pair = try await Computation<String>.ask().zip(Computation<String>.ask().map(\.count))
      .run(context).get()

    #expect(pair == (context, context.count))
  }

  // MARK: - parallel

  @Test func parallelOfNothingSucceedsWithNoValues() async {
    #expect(await Computation<[Int]>.parallel([]).run("context") == .success([]))
  }

  @Test(arguments: [1, 2, 3, 8, 32])
  func parallelRunsEveryComputationConcurrentlyAndKeepsTheirOrder(count: Int) async throws {
    let computations = ReverseFinishers(count: count)

    let values = try await Computation<[Int]>.parallel((0..<count).map(computations.computation))
      .perform("context")

    #expect(values == .success(Array(0..<count)))
  }

  @Test(arguments: [0, 1, 4])
  func aFailureStopsParallelAndCancelsTheOtherComputations(failingIndex: Int) async throws {
    let count = 5
    let started = Latch(count: count - 1)
    let cancelled = Latch(count: count - 1)
    let hanging = Self.hanging(started: started.countDown, cancelled: cancelled.countDown)
    let failure = Computation<Int>(operation: { _ in
      await started.wait()
      return .failure(.other(failingIndex))
    })
    var computations = Array(repeating: hanging, count: count)
    computations[failingIndex] = failure

    let result = try await Computation<[Int]>.parallel(computations).perform("context")

    #expect(result == .failure(.other(failingIndex)))
    #expect(await cancelled.wait(), "The work was not cancelled.")
  }

  @Test func cancellingParallelCancelsEveryComputation() async {
    let count = 4
    let started = Latch(count: count)
    let cancelled = Latch(count: count)
    let hanging = Self.hanging(started: started.countDown, cancelled: cancelled.countDown)
    let all = Computation<[Int]>.parallel(Array(repeating: hanging, count: count))
    let task = Task { try await all.perform("context") }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.wait(), "The work was not cancelled.")
  }

  @Test func everyComputationOfParallelReadsTheContext() async {
    let lengths = Computation<[Int]>.parallel([
      Computation<String>.ask().map(\.count),
      Computation<Int>(operation: { .success($0.count * 2) }),
      Computation<Int>.unfold { context, complete in complete(.success(context.count * 3)) },
    ])

    #expect(await lengths.run("Richi") == .success([5, 10, 15]))
  }

  @Test func parallelKeepsOptionalValuesThatAreNil() async {
    let values = AsyncResult<String, [Int?], TestError>.parallel([.pure(nil), .pure(1), .pure(nil)])

    #expect(await values.run("context") == .success([nil, 1, nil]))
  }

  // MARK: - outcome

  @Test func outcomeCapturesCancellationAsAValue() async throws {
    let started = Gate()
    let computation = Computation<Int>.unfold { _, _ in started.open() }
    let task = Task { await computation.outcome("context") }

    await started.wait()
    task.cancel()

    let outcome = await task.value
    #expect(throws: CancellationError.self) { try outcome.get() }
  }
}

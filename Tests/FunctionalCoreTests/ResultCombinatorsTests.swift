import FunctionalCore
import Testing

struct ResultCombinatorsTests {
  typealias IntResult = Result<Int, TestError>

  // MARK: - zip

  @Test func zipPairsTwoSuccesses() throws {
    let pair = try IntResult.success(1).zip(Result<String, TestError>.success("a")).get()

    #expect(pair.0 == 1)
    #expect(pair.1 == "a")
  }

  @Test(
    arguments: [
      (IntResult.failure(.first), IntResult.success(2), TestError.first),
      (IntResult.success(1), IntResult.failure(.second), TestError.second),
      (IntResult.failure(.first), IntResult.failure(.second), TestError.first),
    ]
  )
  func zipFailsWithTheFirstFailureInArgumentOrder(
    first: IntResult,
    second: IntResult,
    expected: TestError
  ) {
    #expect(first.zip(second).error == expected)
  }

  @Test func zipOfThreeKeepsArgumentOrder() throws {
    let triple = try IntResult.success(1).zip(.success(2), .success(3)).get()

    #expect(triple.0 == 1)
    #expect(triple.1 == 2)
    #expect(triple.2 == 3)
  }

  @Test(
    arguments: [
      ([IntResult.failure(.first), .success(2), .failure(.second)], TestError.first),
      ([IntResult.success(1), .failure(.second), .failure(.other(3))], TestError.second),
      ([IntResult.success(1), .success(2), .failure(.other(3))], TestError.other(3)),
    ]
  )
  func zipOfThreeFailsWithTheFirstFailure(results: [IntResult], expected: TestError) {
    #expect(results[0].zip(results[1], results[2]).error == expected)
  }

  // MARK: - Recovery

  @Test func recoverTurnsAFailureIntoAValue() {
    let recovered: Result<Int, Never> = IntResult.failure(.other(4)).recover { error in
      error == .other(4) ? 40 : 0
    }

    #expect(recovered.value == 40)
  }

  @Test func recoverKeepsASuccessWithoutCallingTheHandler() {
    let recovered = IntResult.success(1).recover { _ -> Int in
      Issue.record("The handler ran for a success.")
      return 0
    }

    #expect(recovered.value == 1)
  }

  @Test(
    arguments: [
      (IntResult.failure(.first), IntResult.success(1)),
      (IntResult.failure(.second), IntResult.failure(.other(2))),
      (IntResult.success(5), IntResult.success(5)),
    ]
  )
  func recoverWithReplacesAFailureWithAnotherResult(result: IntResult, expected: IntResult) {
    let recovered = result.recover(with: { error in
      error == .first ? .success(1) : .failure(.other(2))
    })

    #expect(recovered == expected)
  }

  @Test func aTrailingClosureChoosesTheRecoverThatMatchesWhatItReturns() {
    let failure = IntResult.failure(.first)

    let value = failure.recover { _ in 1 }
    let result = failure.recover { _ in .failure(.second) }

    #expect(value == Result<Int, Never>.success(1))
    #expect(result == IntResult.failure(.second))
  }

  @Test(arguments: [(IntResult.failure(.other(7)), 70), (IntResult.success(3), 3)])
  func mapErrorRecoverAlwaysSucceeds(result: IntResult, expected: Int) {
    let recovered = result.mapErrorRecover { error in
      if case .other(let code) = error { code * 10 } else { 0 }
    }

    #expect(recovered == .success(expected))
  }

  // MARK: - Inspection

  @Test(arguments: [
    (IntResult.success(3), "value 3"), (IntResult.failure(.second), "error second"),
  ])
  func foldRunsTheHandlerOfItsCase(result: IntResult, expected: String) {
    let folded = result.fold(onSuccess: { "value \($0)" }, onFailure: { "error \($0)" })

    #expect(folded == expected)
  }

  @Test func successExposesItsValue() {
    let result = IntResult.success(9)

    #expect(result.value == 9)
    #expect(result.error == nil)
    #expect(result.isSuccess)
    #expect(!result.isFailure)
  }

  @Test func failureExposesItsError() {
    let result = IntResult.failure(.first)

    #expect(result.value == nil)
    #expect(result.error == .first)
    #expect(!result.isSuccess)
    #expect(result.isFailure)
  }

  @Test func anOptionalSuccessOfNilIsStillASuccess() {
    let result = Result<Int?, TestError>.success(nil)

    #expect(result.isSuccess)
    #expect(!result.isFailure)
  }

  // MARK: - Functor laws

  @Test(arguments: Self.lawSamples)
  func mapOfIdentityChangesNothing(result: Result<Int, LawError>) {
    #expect(result.map { $0 } == result)
  }

  @Test(arguments: Self.lawSamples, IntFunctionPair.samples)
  func mapOfACompositionIsTheCompositionOfMaps(
    result: Result<Int, LawError>,
    functions: IntFunctionPair
  ) {
    let (f, g) = (functions.first.apply, functions.second.apply)

    #expect(result.map { g(f($0)) } == result.map(f).map(g))
  }

  // MARK: - Monad laws

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func successIsALeftIdentityOfFlatMap(input: LawInput, function: IntFunction) {
    let f = Self.arrow(function)

    #expect(Result<Int, LawError>.success(input.value).flatMap(f) == f(input.value))
  }

  @Test(arguments: Self.lawSamples)
  func successIsARightIdentityOfFlatMap(result: Result<Int, LawError>) {
    #expect(result.flatMap { .success($0) } == result)
  }

  @Test(arguments: Self.lawSamples, IntFunctionPair.samples)
  func flatMapIsAssociative(result: Result<Int, LawError>, functions: IntFunctionPair) {
    let (f, g) = (Self.arrow(functions.first), Self.arrow(functions.second))

    #expect(result.flatMap(f).flatMap(g) == result.flatMap { f($0).flatMap(g) })
  }

  /// A success and a failure for every sample value: each law must hold in both cases.
  private static let lawSamples: [Result<Int, LawError>] = LawInput.samples.flatMap { input in
    [.success(input.value), .failure(LawError(value: input.value))]
  }

  /// A Kleisli arrow that fails for multiples of 3, so the laws see failures mid-chain too.
  private static func arrow(_ function: IntFunction) -> (Int) -> Result<Int, LawError> {
    { value in
      let output = function.apply(value)
      return output % 3 == 0 ? .failure(LawError(value: output)) : .success(output)
    }
  }
}

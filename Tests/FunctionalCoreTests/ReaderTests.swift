import FunctionalCore
import Testing

struct ReaderTests {
  private struct Environment: Sendable {
    var greeting: String
    var name: String
  }

  private struct AppEnvironment: Sendable {
    var environment: Environment
    var version: Int
  }

  private let environment = Environment(greeting: "Hello", name: "Richi")

  // MARK: - Operations

  @Test func runsItsComputationWithTheEnvironment() {
    let greet = Reader<Environment, String> { "\($0.greeting), \($0.name)" }

    #expect(greet.run(environment) == "Hello, Richi")
    #expect(greet.run(Environment(greeting: "Hi", name: "Ana")) == "Hi, Ana")
  }

  @Test(arguments: LawInput.samples)
  func pureIgnoresTheEnvironment(input: LawInput) {
    #expect(Reader<Int, Int>.pure(input.value).run(input.environment) == input.value)
  }

  @Test(arguments: LawInput.samples)
  func askProducesTheEnvironment(input: LawInput) {
    #expect(Reader<Int, Int>.ask().run(input.environment) == input.environment)
  }

  @Test func mapTransformsTheValue() {
    let length = Reader<Environment, Environment>.ask().map(\.name).map(\.count)

    #expect(length.run(environment) == 5)
  }

  @Test func flatMapGivesBothStagesTheSameEnvironment() {
    let greet = Reader<Environment, String> { $0.greeting }.flatMap { greeting in
      Reader<Environment, String> { "\(greeting), \($0.name)" }
    }

    #expect(greet.run(environment) == "Hello, Richi")
  }

  @Test func zipPairsTwoReadersOfTheSameEnvironment() {
    let pair = Reader<Environment, String> { $0.greeting }.zip(Reader { $0.name.count })

    let (greeting, length) = pair.run(environment)
    #expect(greeting == "Hello")
    #expect(length == 5)
  }

  @Test func localRunsInAnEnvironmentDerivedFromALargerOne() {
    let greet = Reader<Environment, String> { "\($0.greeting), \($0.name)" }
    let appGreet: Reader<AppEnvironment, String> = greet.local(\.environment)
      .zip(Reader { $0.version })
      .map { "\($0) (v\($1))" }

    #expect(
      appGreet.run(AppEnvironment(environment: environment, version: 3)) == "Hello, Richi (v3)")
  }

  @Test func nothingRunsBeforeRun() {
    let calls = Lock(0)
    let counted = Reader<Int, Int> { environment in
      calls.withLock { $0 += 1 }
      return environment
    }

    let chain = counted.map { $0 + 1 }.flatMap { _ in counted }.zip(counted).local { $0 * 2 }
    #expect(calls.withLock { $0 } == 0)

    _ = chain.run(1)
    #expect(calls.withLock { $0 } == 3)
  }

  @Test func canBeBuiltInOneTaskAndRunInAnother() async {
    let greet = Reader<Environment, String> { "\($0.greeting), \($0.name)" }
    let environment = self.environment

    let greeting = await Task.detached { greet.run(environment) }.value

    #expect(greeting == "Hello, Richi")
  }

  // MARK: - Functor laws

  @Test(arguments: LawInput.samples)
  func mapOfIdentityChangesNothing(input: LawInput) {
    let reader = Self.reader(input.value)

    #expect(reader.map { $0 }.run(input.environment) == reader.run(input.environment))
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func mapOfACompositionIsTheCompositionOfMaps(input: LawInput, functions: IntFunctionPair) {
    let reader = Self.reader(input.value)
    let (f, g) = (functions.first.apply, functions.second.apply)

    #expect(
      reader.map { g(f($0)) }.run(input.environment)
        == reader.map(f).map(g).run(input.environment)
    )
  }

  // MARK: - Monad laws

  @Test(arguments: LawInput.samples, IntFunction.samples)
  func pureIsALeftIdentityOfFlatMap(input: LawInput, function: IntFunction) {
    let f = Self.arrow(function)

    #expect(
      Reader<Int, Int>.pure(input.value).flatMap(f).run(input.environment)
        == f(input.value).run(input.environment)
    )
  }

  @Test(arguments: LawInput.samples)
  func pureIsARightIdentityOfFlatMap(input: LawInput) {
    let reader = Self.reader(input.value)

    #expect(
      reader.flatMap { .pure($0) }.run(input.environment) == reader.run(input.environment)
    )
  }

  @Test(arguments: LawInput.samples, IntFunctionPair.samples)
  func flatMapIsAssociative(input: LawInput, functions: IntFunctionPair) {
    let reader = Self.reader(input.value)
    let (f, g) = (Self.arrow(functions.first), Self.arrow(functions.second))

    #expect(
      reader.flatMap(f).flatMap(g).run(input.environment)
        == reader.flatMap { f($0).flatMap(g) }.run(input.environment)
    )
  }

  /// A reader that depends on both its value and its environment.
  private static func reader(_ value: Int) -> Reader<Int, Int> {
    Reader { value &* 3 &- $0 }
  }

  /// A Kleisli arrow that reads the environment, so a law breaks if a stage gets the wrong one.
  private static func arrow(_ function: IntFunction) -> @Sendable (Int) -> Reader<Int, Int> {
    { value in Reader { function.apply(value &+ $0) } }
  }
}

/// A computation that needs an environment to produce its value.
///
/// `Reader` is dependency injection as a value: build a description of what to do with the
/// dependencies now, hand them over later with ``run(_:)``.
///
/// ```swift
/// struct Environment { var greeting: String }
///
/// let greet = Reader<Environment, String>.ask()
///   .map(\.greeting)
///   .map { "\($0), Richi" }
///
/// greet.run(Environment(greeting: "Hello"))  // "Hello, Richi"
/// ```
///
/// `Reader` is `Sendable`: its computation is a `@Sendable` closure, so a reader can be built on
/// one actor and run on another.
public struct Reader<Environment, Value>: Sendable {
  private let computation: @Sendable (Environment) -> Value

  /// Creates a reader from a function of the environment.
  ///
  /// - Parameter computation: Produces the value from the environment it is run with.
  public init(_ computation: @escaping @Sendable (Environment) -> Value) {
    self.computation = computation
  }

  /// Runs the computation with an environment.
  ///
  /// - Parameter environment: The dependencies the computation reads.
  /// - Returns: The computed value.
  public func run(_ environment: Environment) -> Value {
    computation(environment)
  }

  /// A reader that ignores its environment and returns `value`.
  ///
  /// - Parameter value: The value every run returns.
  /// - Returns: A reader that always produces `value`.
  public static func pure(_ value: Value) -> Reader where Value: Sendable {
    Reader { _ in value }
  }

  /// A reader whose value is its environment.
  ///
  /// - Returns: The identity reader.
  public static func ask() -> Reader where Value == Environment {
    Reader { $0 }
  }

  /// Transforms the value this reader produces.
  ///
  /// - Parameter transform: Applied to the value after the reader runs.
  /// - Returns: A reader of the transformed value.
  public func map<NewValue>(
    _ transform: @escaping @Sendable (Value) -> NewValue
  ) -> Reader<Environment, NewValue> {
    Reader<Environment, NewValue> { transform(self.computation($0)) }
  }

  /// Chains a reader that depends on this reader's value; both read the same environment.
  ///
  /// - Parameter transform: Builds the next reader from this reader's value.
  /// - Returns: A reader that runs both in order.
  public func flatMap<NewValue>(
    _ transform: @escaping @Sendable (Value) -> Reader<Environment, NewValue>
  ) -> Reader<Environment, NewValue> {
    Reader<Environment, NewValue> { environment in
      transform(self.computation(environment)).computation(environment)
    }
  }

  /// Combines this reader with another one that reads the same environment.
  ///
  /// - Parameter other: The second reader.
  /// - Returns: A reader of both values.
  public func zip<Other>(
    _ other: Reader<Environment, Other>
  ) -> Reader<Environment, (Value, Other)> {
    Reader<Environment, (Value, Other)> { environment in
      (self.computation(environment), other.computation(environment))
    }
  }

  /// Runs this reader in an environment derived from a larger one.
  ///
  /// Use it to embed a reader that needs only part of the dependencies into one that has all of
  /// them.
  ///
  /// ```swift
  /// struct AppEnvironment { var api: ProductAPI; var analytics: Analytics }
  ///
  /// let loadTitle: Reader<ProductAPI, String> = ...
  /// let appLoadTitle: Reader<AppEnvironment, String> = loadTitle.local(\.api)
  /// ```
  ///
  /// - Parameter transform: Extracts this reader's environment from the larger one.
  /// - Returns: A reader that runs in the larger environment.
  public func local<LargerEnvironment>(
    _ transform: @escaping @Sendable (LargerEnvironment) -> Environment
  ) -> Reader<LargerEnvironment, Value> {
    Reader<LargerEnvironment, Value> { self.computation(transform($0)) }
  }
}

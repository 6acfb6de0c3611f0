// `recover(_:)` and `recover(with:)` are public API and keep their names. Called with a trailing
// closure, the compiler picks the one that matches what the closure returns (a value or a
// `Result`), as `ResultCombinatorsTests` checks.
// swift-format-ignore: AmbiguousTrailingClosureOverload
/// Combinators on the standard library's `Result`, in the vocabulary the seed's users know.
///
/// There is no second `Result` type: these are extensions of `Swift.Result`.
extension Result {
  /// Combines two successes into a pair; the first failure wins.
  ///
  /// ```swift
  /// let pair = Result<Int, MyError>.success(1).zip(.success("a"))  // .success((1, "a"))
  /// ```
  ///
  /// - Parameter other: The second result.
  /// - Returns: Both values, or the first failure in argument order.
  public func zip<Other>(_ other: Result<Other, Failure>) -> Result<(Success, Other), Failure> {
    flatMap { value in other.map { (value, $0) } }
  }

  /// Combines three successes into a tuple; the first failure wins.
  ///
  /// - Parameters:
  ///   - second: The second result.
  ///   - third: The third result.
  /// - Returns: All values, or the first failure in argument order.
  public func zip<Second, Third>(
    _ second: Result<Second, Failure>,
    _ third: Result<Third, Failure>
  ) -> Result<(Success, Second, Third), Failure> {
    zip(second).zip(third).map { ($0.0, $0.1, $1) }
  }

  /// Replaces a failure with a value computed from it.
  ///
  /// - Parameter handler: Turns the failure into a success value.
  /// - Returns: A result that cannot fail.
  public func recover(_ handler: (Failure) -> Success) -> Result<Success, Never> {
    switch self {
    case .success(let value): .success(value)
    case .failure(let error): .success(handler(error))
    }
  }

  /// Replaces a failure with another result computed from it.
  ///
  /// - Parameter handler: Turns the failure into a new result, which may fail again.
  /// - Returns: This result if it succeeded, otherwise the handler's result.
  public func recover(with handler: (Failure) -> Result) -> Result {
    flatMapError(handler)
  }

  /// Maps a failure to a success value, keeping the failure type (the seed's spelling).
  ///
  /// Use it to turn errors into events:
  ///
  /// ```swift
  /// result.map(Event.loaded).mapErrorRecover { Event.failed($0) }
  /// ```
  ///
  /// - Parameter handler: Turns the failure into a success value.
  /// - Returns: A result that is always a success.
  public func mapErrorRecover(_ handler: (Failure) -> Success) -> Result {
    .success(recover(handler).get())
  }

  /// Reduces the result to one value by handling both cases.
  ///
  /// - Parameters:
  ///   - onSuccess: Handles a success.
  ///   - onFailure: Handles a failure.
  /// - Returns: The value of the handler that ran.
  public func fold<Output>(
    onSuccess: (Success) -> Output,
    onFailure: (Failure) -> Output
  ) -> Output {
    switch self {
    case .success(let value): onSuccess(value)
    case .failure(let error): onFailure(error)
    }
  }

  /// The success value, or `nil` for a failure.
  ///
  /// Package-only: names this short on `Swift.Result` collide with other libraries'
  /// extensions in client code. Clients write `try? result.get()` or match the cases.
  package var value: Success? {
    if case .success(let value) = self { value } else { nil }
  }

  /// The failure, or `nil` for a success.
  package var error: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }

  /// Whether the result is a success.
  package var isSuccess: Bool { value != nil }

  /// Whether the result is a failure.
  package var isFailure: Bool { error != nil }
}

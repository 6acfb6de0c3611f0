/// An asynchronous computation that reads a context and succeeds with a value or fails.
///
/// `AsyncResult` is a `Reader` over a ``Future`` over a `Result`: a description of work that
/// needs the dependencies in `Context`, runs asynchronously, and ends in
/// `Result<Value, Failure>`. It is lazy (nothing runs before ``run(_:)``) and it is the seed's
/// effect type: feedback effects return one.
///
/// ```swift
/// func loadProduct() -> AsyncResult<Context, Product, ProductError> {
///   .ask().flatMap { context in
///     .unfold { context, complete in
///       context.api.getProduct { complete($0) }
///     }
///   }
/// }
///
/// let product = await loadProduct().run(liveContext)
/// ```
public struct AsyncResult<Context: Sendable, Value: Sendable, Failure: Error>: Sendable {
  /// The two shapes of work: an outcome known without running anything (`pure`, `failure`),
  /// which the runtimes deliver without a task hop, or work to run.
  @usableFromInline
  package enum Work: Sendable {
    case done(Result<Value, Failure>)
    case deferred(@Sendable (Context) async throws(CancellationError) -> Result<Value, Failure>)
  }

  /// What this computation does when run.
  @usableFromInline package let work: Work

  @usableFromInline
  package init(work: Work) {
    self.work = work
  }

  package init(
    _ operation:
      @escaping @Sendable (Context) async throws(CancellationError) -> Result<Value, Failure>
  ) {
    self.work = .deferred(operation)
  }

  /// Creates a computation from its layers: a reader of a future of a result.
  ///
  /// - Parameter reader: Produces, from the context, the future that does the work.
  public init(_ reader: Reader<Context, Future<Result<Value, Failure>>>) {
    self.init { context throws(CancellationError) in try await reader.run(context).run() }
  }

  /// Creates a computation from an `async` function of the context.
  ///
  /// ```swift
  /// let user = AsyncResult<Context, User, APIError>(operation: { context in
  ///   await context.api.user()
  /// })
  /// ```
  ///
  /// - Parameter operation: The work; it sees `Task.isCancelled` when it is cancelled.
  public init(operation: @escaping @Sendable (Context) async -> Result<Value, Failure>) {
    self.init { context throws(CancellationError) in await operation(context) }
  }

  /// The layers of this computation: a reader of a future of a result.
  public var reader: Reader<Context, Future<Result<Value, Failure>>> {
    let work = self.work
    return Reader { context in
      Future(cancellableOperation: { () async throws(CancellationError) in
        try await AsyncResult(work: work).perform(context)
      })
    }
  }

  /// A computation that succeeds with `value` without doing any work.
  ///
  /// - Parameter value: The success value.
  /// - Returns: A computation that always succeeds with `value`.
  @inlinable
  public static func pure(_ value: Value) -> AsyncResult {
    AsyncResult(work: .done(.success(value)))
  }

  /// A computation that fails with `error` without doing any work.
  ///
  /// - Parameter error: The failure.
  /// - Returns: A computation that always fails with `error`.
  @inlinable
  public static func failure(_ error: Failure) -> AsyncResult {
    AsyncResult(work: .done(.failure(error)))
  }

  /// A computation whose value is the context it runs with.
  ///
  /// ```swift
  /// AsyncResult<Context, Context, Never>.ask().map(\.user)
  /// ```
  ///
  /// - Returns: A computation that succeeds with its context.
  public static func ask() -> AsyncResult where Value == Context {
    AsyncResult { context throws(CancellationError) in .success(context) }
  }

  /// Creates a computation from a callback-based API (the seed's constructor).
  ///
  /// `body` receives the context and a completion to call once, from any thread; later calls
  /// are ignored. When the computation is cancelled first, the completion is ignored.
  ///
  /// ```swift
  /// let getUser = AsyncResult<Context, User, APIError>.unfold { context, complete in
  ///   context.api.getUser { user, error in
  ///     complete(user.map { .success($0) } ?? .failure(.network(error)))
  ///   }
  /// }
  /// ```
  ///
  /// - Parameter body: Starts the work with the context and the completion.
  /// - Returns: A computation that ends with the result passed to the completion.
  public static func unfold(
    _ body:
      @escaping @Sendable (Context, @escaping @Sendable (Result<Value, Failure>) -> Void) -> Void
  ) -> AsyncResult {
    AsyncResult { context throws(CancellationError) in
      try await awaitExternalCallback { complete in
        body(context, complete)
        return nil
      }
    }
  }

  /// Runs the computation with a context and returns how it ended.
  ///
  /// The work always runs to its end: cancelling the task that awaits `run` does not cut it
  /// short (a callback that never completes would otherwise leave no value to return). The
  /// runtimes cancel effects through their own path, which does stop the work.
  ///
  /// - Parameter context: The dependencies the work reads.
  /// - Returns: The success value or the failure.
  public func run(_ context: Context) async -> Result<Value, Failure> {
    switch work {
    case .done(let result):
      return result
    case .deferred(let operation):
      // A fresh task is never cancelled, so `operation` cannot throw inside it.
      let shielded = startTask { () async -> Result<Value, Failure>? in
        try? await operation(context)
      }
      guard let result = await shielded.value else {
        preconditionFailure("An uncancelled task reported cancellation.")
      }
      return result
    }
  }

  /// Runs the computation, stopping as soon as the current task is cancelled.
  ///
  /// - Parameter context: The dependencies the work reads.
  /// - Returns: The success value or the failure.
  /// - Throws: `CancellationError` when the task was cancelled before the work ended.
  package func perform(_ context: Context) async throws(CancellationError) -> Result<
    Value, Failure
  > {
    switch work {
    case .done(let result): result
    case .deferred(let operation): try await operation(context)
    }
  }
}

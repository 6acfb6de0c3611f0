/// A lazy, cancellable asynchronous computation of a value.
///
/// Nothing happens when a future is created: the work starts each time ``run()`` is awaited and
/// is cancelled when the awaiting task is cancelled, in which case ``run()`` throws
/// `CancellationError`.
///
/// ```swift
/// let price = Future { await catalog.price(of: "yeezy") }
///   .map { $0 * 2 }
///
/// let doubled = try await price.run()  // the catalog is asked only now
/// ```
///
/// Bridge callback APIs with ``init(callback:)`` or ``init(cancellableCallback:)``, and `async`
/// functions with ``init(operation:)``.
public struct Future<Value: Sendable>: Sendable {
  private let operation: @Sendable () async throws(CancellationError) -> Value

  /// Creates a future from an operation that reports cancellation by throwing.
  package init(
    cancellableOperation: @escaping @Sendable () async throws(CancellationError) -> Value
  ) {
    self.operation = cancellableOperation
  }

  /// Creates a future from an `async` function.
  ///
  /// The function runs once per ``run()``. Cancelling the awaiting task cancels it cooperatively:
  /// the function sees `Task.isCancelled`.
  ///
  /// - Parameter operation: The work, started by each run.
  public init(operation: @escaping @Sendable () async -> Value) {
    self.init(cancellableOperation: operation)
  }

  /// Creates a future from a callback-based API.
  ///
  /// `body` receives a completion to call once with the value, from any thread. Later calls are
  /// ignored. If the awaiting task is cancelled first, ``run()`` throws `CancellationError` at
  /// once and a later completion is ignored.
  ///
  /// ```swift
  /// let user = Future<String>(callback: { complete in
  ///   legacyAPI.fetchUser { name in complete(name) }
  /// })
  /// ```
  ///
  /// - Parameter body: Starts the work and arranges for the completion to be called.
  public init(
    callback body: @escaping @Sendable (_ complete: @escaping @Sendable (Value) -> Void) -> Void
  ) {
    self.init(cancellableOperation: {
      () async throws(CancellationError) -> Value in
      try await awaitExternalCallback { complete in
        body(complete)
        return nil
      }
    })
  }

  /// Creates a future from a callback-based API that can be cancelled.
  ///
  /// Like ``init(callback:)``, but `body` returns an action that cancels the work; it is called
  /// when the awaiting task is cancelled before the completion arrives.
  ///
  /// ```swift
  /// let data = Future<Data>(cancellableCallback: { complete in
  ///   let request = downloader.start { complete($0) }
  ///   return { request.cancel() }
  /// })
  /// ```
  ///
  /// - Parameter body: Starts the work and returns the action that cancels it.
  public init(
    cancellableCallback body:
      @escaping @Sendable (_ complete: @escaping @Sendable (Value) -> Void) -> @Sendable () -> Void
  ) {
    self.init(cancellableOperation: {
      () async throws(CancellationError) -> Value in
      try await awaitExternalCallback { complete in body(complete) }
    })
  }

  /// Runs the work and returns its value.
  ///
  /// - Returns: The value the work produced.
  /// - Throws: `CancellationError` when the awaiting task was cancelled before a value was ready
  ///   and the work could not finish.
  public func run() async throws(CancellationError) -> Value {
    try await operation()
  }

  /// A future that produces `value` without doing any work.
  ///
  /// - Parameter value: The value every run returns.
  /// - Returns: A future of `value`.
  public static func pure(_ value: Value) -> Future {
    Future(cancellableOperation: { value })
  }

  /// Transforms the value this future produces.
  ///
  /// - Parameter transform: Applied to the value when it is ready.
  /// - Returns: A future of the transformed value.
  public func map<NewValue>(
    _ transform: @escaping @Sendable (Value) -> NewValue
  ) -> Future<NewValue> {
    Future<NewValue>(cancellableOperation: {
      () async throws(CancellationError) -> NewValue in
      transform(try await self.operation())
    })
  }

  /// Chains a future that depends on this future's value.
  ///
  /// - Parameter transform: Builds the next future from this future's value.
  /// - Returns: A future that runs both in order.
  public func flatMap<NewValue>(
    _ transform: @escaping @Sendable (Value) -> Future<NewValue>
  ) -> Future<NewValue> {
    Future<NewValue>(cancellableOperation: {
      () async throws(CancellationError) -> NewValue in
      try await transform(try await self.operation()).operation()
    })
  }

  /// Runs this future and another one concurrently and combines their values.
  ///
  /// - Parameter other: The future to run alongside this one.
  /// - Returns: A future of both values, ready when both are.
  public func zip<Other>(_ other: Future<Other>) -> Future<(Value, Other)> {
    Future<(Value, Other)>(cancellableOperation: {
      () async throws(CancellationError) -> (Value, Other) in
      async let first = self.outcome()
      async let second = other.outcome()
      let (value, otherValue) = await (first, second)
      return (try value.get(), try otherValue.get())
    })
  }

  /// Runs the work and captures cancellation as a value, so it can cross `async let`.
  package func outcome() async -> Result<Value, CancellationError> {
    do {
      return .success(try await operation())
    } catch {
      return .failure(error)
    }
  }
}

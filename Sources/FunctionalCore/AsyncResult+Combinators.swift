/// The functor and monad operations of ``AsyncResult``.
extension AsyncResult {
  /// Transforms the success value.
  ///
  /// - Parameter transform: Applied to the value when the work succeeds.
  /// - Returns: A computation of the transformed value; failures pass through.
  public func map<NewValue>(
    _ transform: @escaping @Sendable (Value) -> NewValue
  ) -> AsyncResult<Context, NewValue, Failure> {
    let work = self.work
    return .init { context throws(CancellationError) in
      try await AsyncResult(work: work).perform(context).map(transform)
    }
  }

  /// Chains a computation that depends on the success value; a failure stops the chain.
  ///
  /// ```swift
  /// let added = getProduct(cached: true).flatMap { product in
  ///   addToCart(product)
  /// }
  /// ```
  ///
  /// - Parameter transform: Builds the next computation from the value.
  /// - Returns: A computation that runs both in order, with the same context.
  public func flatMap<NewValue>(
    _ transform: @escaping @Sendable (Value) -> AsyncResult<Context, NewValue, Failure>
  ) -> AsyncResult<Context, NewValue, Failure> {
    let work = self.work
    return .init { context throws(CancellationError) in
      switch try await AsyncResult(work: work).perform(context) {
      case .success(let value): try await transform(value).perform(context)
      case .failure(let error): .failure(error)
      }
    }
  }

  /// Transforms the failure.
  ///
  /// - Parameter transform: Applied to the error when the work fails.
  /// - Returns: A computation with the new failure type; successes pass through.
  public func mapError<NewFailure>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> AsyncResult<Context, Value, NewFailure> {
    let work = self.work
    return .init { context throws(CancellationError) in
      try await AsyncResult(work: work).perform(context).mapError(transform)
    }
  }

  /// Turns a failure into a success value (the seed's way of making errors into events).
  ///
  /// ```swift
  /// api.addToCart(product).map(Event.addedToCart).mapErrorRecover { Event.failed($0) }
  /// ```
  ///
  /// - Parameter transform: Makes a value from the error.
  /// - Returns: A computation that always succeeds.
  public func mapErrorRecover(
    _ transform: @escaping @Sendable (Failure) -> Value
  ) -> AsyncResult {
    handleErrorWith { .pure(transform($0)) }
  }

  /// Recovers from a failure with another computation, which may fail in turn.
  ///
  /// - Parameter handler: Builds the fallback computation from the error.
  /// - Returns: This computation's success, or the fallback's result.
  public func handleErrorWith(
    _ handler: @escaping @Sendable (Failure) -> AsyncResult
  ) -> AsyncResult {
    let work = self.work
    return .init { context throws(CancellationError) in
      switch try await AsyncResult(work: work).perform(context) {
      case .success(let value): .success(value)
      case .failure(let error): try await handler(error).perform(context)
      }
    }
  }

  /// Runs this computation in a context derived from a larger one.
  ///
  /// - Parameter transform: Extracts this computation's context from the larger one.
  /// - Returns: A computation that runs in the larger context.
  public func local<LargerContext>(
    _ transform: @escaping @Sendable (LargerContext) -> Context
  ) -> AsyncResult<LargerContext, Value, Failure> {
    let work = self.work
    return .init { context throws(CancellationError) in
      try await AsyncResult(work: work).perform(transform(context))
    }
  }

  /// Fails with `error` when the work does not end within `duration` on `clock`.
  ///
  /// - Parameters:
  ///   - duration: How long the work may take.
  ///   - clock: The clock that measures the limit; inject it through the context.
  ///   - error: The failure when the time runs out.
  /// - Returns: A computation that ends by the deadline; the late work is cancelled.
  public func timeout<C: Clock>(
    after duration: C.Duration,
    on clock: C,
    failingWith error: Failure
  ) -> AsyncResult where Failure: Sendable {
    let work = self.work
    return .init { context throws(CancellationError) in
      let future = Future(cancellableOperation: { () async throws(CancellationError) in
        try await AsyncResult(work: work).perform(context)
      })
      return try await future.timeout(after: duration, on: clock).run() ?? .failure(error)
    }
  }

  /// Waits for `duration` on `clock` before starting the work.
  ///
  /// - Parameters:
  ///   - duration: How long to wait.
  ///   - clock: The clock that measures the wait; inject it through the context.
  /// - Returns: A computation that starts late; cancelled during the wait, it never starts.
  public func delayed<C: Clock>(by duration: C.Duration, on clock: C) -> AsyncResult {
    let work = self.work
    return .init { context throws(CancellationError) in
      try await sleep(for: duration, on: clock)
      return try await AsyncResult(work: work).perform(context)
    }
  }
}

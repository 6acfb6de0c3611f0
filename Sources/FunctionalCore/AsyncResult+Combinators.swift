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

  /// Turns a failure into a success value and drops the failure type to `Never`.
  ///
  /// Where ``mapErrorRecover(_:)`` keeps `Failure` in the type, `recover` yields a computation
  /// that cannot fail, so it fits where no failure is allowed: an effect of a feature whose
  /// error type is `Never`, or a child feature inside such a parent. It is the asynchronous
  /// form of `Result`'s `recover(_:)`: running it gives the same result as recovering the
  /// result of running this computation. Cancellation is not a failure and passes through.
  ///
  /// ```swift
  /// let addToCart: AsyncResult<Context, Event, Never> = api.addToCart(product)
  ///   .map(Event.addedToCart)
  ///   .recover { Event.addToCartFailed($0) }
  /// ```
  ///
  /// - Parameter transform: Makes a value (typically an event) from the error.
  /// - Returns: A computation that always succeeds, with this computation's value or the value
  ///   made from its failure.
  public func recover(
    _ transform: @escaping @Sendable (Failure) -> Value
  ) -> AsyncResult<Context, Value, Never> {
    let work = self.work
    return .init { context throws(CancellationError) in
      try await AsyncResult(work: work).perform(context).recover(transform)
    }
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
  /// The computation ends by its deadline even when the work ignores cancellation (a callback
  /// that never completes, a loop that never checks `Task.isCancelled`): it fails with `error`
  /// at the deadline and leaves the work behind, cancelled, to end on its own; whatever the
  /// work produces then is discarded.
  ///
  /// ```swift
  /// let product = api.product(id)
  ///   .timeout(after: .seconds(10), on: context.clock, failingWith: .timedOut)
  /// ```
  ///
  /// When the clock fails (its `sleep` throws and the task is not cancelled), the time counts as
  /// run out: the computation fails with `error` at once and the work is cancelled. To fail
  /// with a different error then, use ``timeout(after:on:failingWith:ifClockFails:)``.
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
    timeout(after: duration, on: clock, failingWith: error, ifClockFails: { _ in error })
  }

  /// Fails with `error` when the work does not end within `duration` on `clock`, and with a
  /// failure made from the ``ClockError`` when the clock fails.
  ///
  /// Like ``timeout(after:on:failingWith:)``, it ends by its deadline even when the work ignores
  /// cancellation. When the clock's `sleep` throws while the task is not cancelled, the
  /// computation fails at once with `clockFailure(error)` and the work is cancelled.
  ///
  /// ```swift
  /// let product = api.product(id).timeout(
  ///   after: .seconds(10), on: context.clock,
  ///   failingWith: .timedOut, ifClockFails: { .clock($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How long the work may take.
  ///   - clock: The clock that measures the limit; inject it through the context.
  ///   - error: The failure when the time runs out.
  ///   - clockFailure: Makes the failure when the clock fails.
  /// - Returns: A computation that ends by the deadline, or as soon as the clock fails; the
  ///   work still running then is cancelled.
  public func timeout<C: Clock>(
    after duration: C.Duration,
    on clock: C,
    failingWith error: Failure,
    ifClockFails clockFailure: @escaping @Sendable (ClockError) -> Failure
  ) -> AsyncResult where Failure: Sendable {
    let work = self.work
    return .init { context throws(CancellationError) in
      let outcome = try await withDeadline(after: duration, on: clock) {
        () async throws(CancellationError) in
        try await AsyncResult(work: work).perform(context)
      }
      return switch outcome {
      case .finished(let result): result
      case .timedOut: .failure(error)
      case .clockFailed(let failure): .failure(clockFailure(failure))
      }
    }
  }

  /// Waits for `duration` on `clock` before starting the work.
  ///
  /// When the clock fails (its `sleep` throws and the task is not cancelled), the wait counts as
  /// over and the work starts at once: this computation has no failure to report it with. To
  /// fail instead, use ``delayed(by:on:ifClockFails:)``.
  ///
  /// - Parameters:
  ///   - duration: How long to wait.
  ///   - clock: The clock that measures the wait; inject it through the context.
  /// - Returns: A computation that starts late; cancelled during the wait, it never starts.
  public func delayed<C: Clock>(by duration: C.Duration, on clock: C) -> AsyncResult {
    let work = self.work
    return .init { context throws(CancellationError) in
      // No failure to report a broken clock with: the wait counts as over (documented above).
      _ = try await sleep(for: duration, on: clock)
      return try await AsyncResult(work: work).perform(context)
    }
  }

  /// Waits for `duration` on `clock` before starting the work, and fails with a failure made
  /// from the ``ClockError`` when the clock fails.
  ///
  /// When the clock's `sleep` throws while the task is not cancelled, the work never starts and
  /// the computation fails with `clockFailure(error)`. Cancellation stays cancellation: it is
  /// never passed to `clockFailure`.
  ///
  /// ```swift
  /// let debounced = search(query)
  ///   .delayed(by: .milliseconds(300), on: context.clock, ifClockFails: { .clock($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How long to wait.
  ///   - clock: The clock that measures the wait; inject it through the context.
  ///   - clockFailure: Makes the failure when the clock fails.
  /// - Returns: A computation that starts late, or fails without starting when the clock fails;
  ///   cancelled during the wait, it never starts.
  public func delayed<C: Clock>(
    by duration: C.Duration,
    on clock: C,
    ifClockFails clockFailure: @escaping @Sendable (ClockError) -> Failure
  ) -> AsyncResult {
    let work = self.work
    return .init { context throws(CancellationError) in
      if let failure = try await sleep(for: duration, on: clock) {
        return .failure(clockFailure(failure))
      }
      return try await AsyncResult(work: work).perform(context)
    }
  }
}

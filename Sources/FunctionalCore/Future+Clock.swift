/// The time-based operators of ``Future``, on an injected `Clock`.
///
/// Pass the clock your `Context` carries (a `ContinuousClock` in the app, a manual clock in
/// tests), so that time is never real in a test.
extension Future {
  /// Waits for `duration` on `clock`, then runs this future.
  ///
  /// ```swift
  /// let search = Future { await api.search(query) }
  ///   .delayed(by: .milliseconds(300), on: context.clock)
  /// ```
  ///
  /// - Parameters:
  ///   - duration: How long to wait before the work starts.
  ///   - clock: The clock that measures the wait.
  /// - Returns: A future that starts its work after the delay; cancelling it during the delay
  ///   means the work never starts.
  public func delayed<C: Clock>(by duration: C.Duration, on clock: C) -> Future {
    Future(cancellableOperation: {
      () async throws(CancellationError) -> Value in
      try await sleep(for: duration, on: clock)
      return try await self.run()
    })
  }

  /// Runs this future, giving up after `duration` on `clock`.
  ///
  /// The work and the timer race: the first to finish wins and the other is cancelled.
  ///
  /// - Parameters:
  ///   - duration: How long the work may take.
  ///   - clock: The clock that measures the limit.
  /// - Returns: A future of the value, or of `nil` when the time ran out first.
  public func timeout<C: Clock>(after duration: C.Duration, on clock: C) -> Future<Value?> {
    Future<Value?>(cancellableOperation: {
      () async throws(CancellationError) -> Value? in
      let outcome = await withTaskGroup(of: Result<Value?, CancellationError>?.self) { group in
        group.addTask { await self.outcome().map { Optional($0) } }
        group.addTask {
          do {
            try await sleep(for: duration, on: clock)
            return .success(nil)
          } catch {
            return nil
          }
        }
        defer { group.cancelAll() }
        while let next = await group.next() {
          if let next { return next }
        }
        return .failure(CancellationError())
      }
      return try outcome.get()
    })
  }
}

/// Sleeps on a clock, reporting only cancellation (the one error a clock's sleep throws).
package func sleep<C: Clock>(
  for duration: C.Duration,
  on clock: C
) async throws(CancellationError) {
  do {
    try await clock.sleep(for: duration)
  } catch {
    throw CancellationError()
  }
}

/// Concurrent combination of ``AsyncResult`` values.
///
/// Every input starts at once. The first failure wins and cancels the inputs still running;
/// otherwise the values are combined in argument order.
extension AsyncResult {
  /// Runs this computation and `other` concurrently and pairs their values.
  ///
  /// ```swift
  /// getProduct(cached: true).zip(getUser()).flatMap { product, user in
  ///   addToCart(product, for: user)
  /// }
  /// ```
  ///
  /// - Parameter other: The computation to run alongside this one.
  /// - Returns: Both values, or the first failure.
  public func zip<Other>(
    _ other: AsyncResult<Context, Other, Failure>
  ) -> AsyncResult<Context, (Value, Other), Failure> {
    let first = self.work
    let second = other.work
    return .init { context throws(CancellationError) in
      try await race(
        AsyncResult(work: first),
        AsyncResult<Context, Other, Failure>(work: second),
        context: context
      )
    }
  }

  /// Runs three computations concurrently and combines their values.
  ///
  /// - Parameters:
  ///   - second: The second computation.
  ///   - third: The third computation.
  /// - Returns: All values in argument order, or the first failure.
  public func zip<Second, Third>(
    _ second: AsyncResult<Context, Second, Failure>,
    _ third: AsyncResult<Context, Third, Failure>
  ) -> AsyncResult<Context, (Value, Second, Third), Failure> {
    zip(second).zip(third).map { ($0.0, $0.1, $1) }
  }

  /// Runs four computations concurrently and combines their values.
  ///
  /// - Parameters:
  ///   - second: The second computation.
  ///   - third: The third computation.
  ///   - fourth: The fourth computation.
  /// - Returns: All values in argument order, or the first failure.
  public func zip<Second, Third, Fourth>(
    _ second: AsyncResult<Context, Second, Failure>,
    _ third: AsyncResult<Context, Third, Failure>,
    _ fourth: AsyncResult<Context, Fourth, Failure>
  ) -> AsyncResult<Context, (Value, Second, Third, Fourth), Failure> {
    zip(second).zip(third.zip(fourth)).map { ($0.0, $0.1, $1.0, $1.1) }
  }

  /// Runs five computations concurrently and combines their values.
  ///
  /// - Parameters:
  ///   - second: The second computation.
  ///   - third: The third computation.
  ///   - fourth: The fourth computation.
  ///   - fifth: The fifth computation.
  /// - Returns: All values in argument order, or the first failure.
  public func zip<Second, Third, Fourth, Fifth>(
    _ second: AsyncResult<Context, Second, Failure>,
    _ third: AsyncResult<Context, Third, Failure>,
    _ fourth: AsyncResult<Context, Fourth, Failure>,
    _ fifth: AsyncResult<Context, Fifth, Failure>
  ) -> AsyncResult<Context, (Value, Second, Third, Fourth, Fifth), Failure> {
    zip(second, third).zip(fourth.zip(fifth)).map { ($0.0, $0.1, $0.2, $1.0, $1.1) }
  }

  /// Runs every computation concurrently and collects their values in order.
  ///
  /// ```swift
  /// let prices = AsyncResult.parallel(ids.map(api.price(of:)))
  /// ```
  ///
  /// - Parameter computations: The computations to run; an empty array succeeds with `[]`.
  /// - Returns: The values in the order of `computations`, or the first failure.
  public static func parallel<Element>(
    _ computations: [AsyncResult<Context, Element, Failure>]
  ) -> AsyncResult where Value == [Element] {
    .init { context throws(CancellationError) in
      let outcome = await withTaskGroup(
        of: (Int, Result<Result<Element, Failure>, CancellationError>).self
      ) { group -> Result<Result<[Element], Failure>, CancellationError> in
        // A test harness must see these children asleep on its clock, not the parent waiting.
        let units = WorkUnit.spawnChildren(computations.count)
        for (index, computation) in computations.enumerated() {
          group.addTask { await units.run { (index, await computation.outcome(context)) } }
        }
        var values = [Element?](repeating: nil, count: computations.count)
        var remaining = computations.count
        while let (index, outcome) = await WorkUnit.awaitChild({ await group.next() }) {
          remaining -= 1
          switch outcome {
          case .success(.success(let value)): values[index] = value
          case .success(.failure(let error)):
            group.cancelAll()
            units.abandon(remaining)
            return .success(.failure(error))
          case .failure(let cancellation):
            group.cancelAll()
            units.abandon(remaining)
            return .failure(cancellation)
          }
        }
        return .success(.success(values.compactMap { $0 }))
      }
      return try outcome.get()
    }
  }

  /// Runs the work and captures cancellation as a value, so it can cross a task boundary.
  package func outcome(
    _ context: Context
  ) async -> Result<Result<Value, Failure>, CancellationError> {
    do {
      return .success(try await perform(context))
    } catch {
      return .failure(error)
    }
  }
}

/// Runs two computations concurrently; the first failure cancels the other.
private func race<Context, First, Second, Failure>(
  _ first: AsyncResult<Context, First, Failure>,
  _ second: AsyncResult<Context, Second, Failure>,
  context: Context
) async throws(CancellationError) -> Result<(First, Second), Failure> {
  let outcome = await withTaskGroup(of: ZipSide<First, Second, Failure>.self) {
    group -> Result<Result<(First, Second), Failure>, CancellationError> in
    let units = WorkUnit.spawnChildren(2)
    group.addTask { await units.run { .first(await first.outcome(context)) } }
    group.addTask { await units.run { .second(await second.outcome(context)) } }
    var firstValue: First?
    var secondValue: Second?
    var remaining = 2
    while let side = await WorkUnit.awaitChild({ await group.next() }) {
      remaining -= 1
      let failure: Result<Result<(First, Second), Failure>, CancellationError>?
      switch side {
      case .first(.success(.success(let value))):
        firstValue = value
        failure = nil
      case .second(.success(.success(let value))):
        secondValue = value
        failure = nil
      case .first(.success(.failure(let error))), .second(.success(.failure(let error))):
        failure = .success(.failure(error))
      case .first(.failure(let cancellation)), .second(.failure(let cancellation)):
        failure = .failure(cancellation)
      }
      if let failure {
        group.cancelAll()
        units.abandon(remaining)
        return failure
      }
    }
    guard let firstValue, let secondValue else { return .failure(CancellationError()) }
    return .success(.success((firstValue, secondValue)))
  }
  return try outcome.get()
}

/// The outcome of one side of ``race(_:_:context:)``.
private enum ZipSide<First: Sendable, Second: Sendable, Failure: Error>: Sendable {
  case first(Result<Result<First, Failure>, CancellationError>)
  case second(Result<Result<Second, Failure>, CancellationError>)
}

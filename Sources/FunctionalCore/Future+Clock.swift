/// The time-based operators of ``Future``, on an injected `Clock`.
///
/// Pass the clock your `Context` carries (a `ContinuousClock` in the app, a manual clock in
/// tests), so that time is never real in a test.
///
/// ## A clock that fails
///
/// A clock's `sleep` may throw. When it throws while the waiting task is cancelled, that is
/// cancellation, and the future throws `CancellationError`. Any other throw — a clock-specific
/// error, or a `CancellationError` the clock throws although the task was not cancelled — is a
/// *clock failure* (a ``ClockError``). A future has no failure of its own to report it with, so
/// the wait counts as over: ``delayed(by:on:)`` starts the work at once and
/// ``timeout(after:on:)`` gives up at once. Neither crashes nor waits forever. To report clock
/// failures as failures, use the ``AsyncResult`` operators that take `ifClockFails:`.
extension Future {
  /// Waits for `duration` on `clock`, then runs this future.
  ///
  /// ```swift
  /// let search = Future { await api.search(query) }
  ///   .delayed(by: .milliseconds(300), on: context.clock)
  /// ```
  ///
  /// When the clock fails (its `sleep` throws and the task is not cancelled), the wait counts as
  /// over and the work starts at once.
  ///
  /// - Parameters:
  ///   - duration: How long to wait before the work starts.
  ///   - clock: The clock that measures the wait.
  /// - Returns: A future that starts its work after the delay; cancelling it during the delay
  ///   means the work never starts.
  public func delayed<C: Clock>(by duration: C.Duration, on clock: C) -> Future {
    Future(cancellableOperation: {
      () async throws(CancellationError) -> Value in
      // A future cannot fail, so a failed wait counts as over (see the extension's discussion).
      _ = try await sleep(for: duration, on: clock)
      return try await self.run()
    })
  }

  /// Runs this future, giving up after `duration` on `clock`.
  ///
  /// The work and the timer race: the first to finish wins and the other is cancelled. The
  /// timeout ends by its deadline even when the work ignores cancellation: it returns `nil` at
  /// the deadline and leaves the work behind, cancelled, to end on its own; its value is then
  /// discarded. Cancelling the awaiting task likewise throws `CancellationError` at once.
  ///
  /// ```swift
  /// let user = try await Future { await api.user() }
  ///   .timeout(after: .seconds(5), on: context.clock)
  ///   .run()  // nil after 5 s, even if `api.user()` never looks at cancellation
  /// ```
  ///
  /// When the clock fails (its `sleep` throws and the task is not cancelled), the time counts as
  /// run out: the future returns `nil` at once and the work is cancelled.
  ///
  /// - Parameters:
  ///   - duration: How long the work may take.
  ///   - clock: The clock that measures the limit.
  /// - Returns: A future of the value, or of `nil` when the time ran out first.
  public func timeout<C: Clock>(after duration: C.Duration, on clock: C) -> Future<Value?> {
    Future<Value?>(cancellableOperation: {
      () async throws(CancellationError) -> Value? in
      let outcome = try await withDeadline(after: duration, on: clock) {
        () async throws(CancellationError) in try await self.run()
      }
      return switch outcome {
      case .finished(let value): value
      case .timedOut, .clockFailed: nil
      }
    })
  }
}

/// How a race between some work and a deadline ended.
package enum DeadlineOutcome<Value: Sendable>: Sendable {
  /// The work ended first, with this value.
  case finished(Value)
  /// The deadline passed first; the work was cancelled.
  case timedOut
  /// The clock failed before the work ended; the work was cancelled.
  case clockFailed(ClockError)
}

/// Runs `operation` against a deadline `duration` from now on `clock`, and returns as soon as
/// one of them ends — never later, even when the work ignores cancellation.
///
/// The work and the timer run in unstructured tasks, because a task group cannot return before
/// all of its children have: work that never looks at cancellation would hold the deadline
/// hostage. The loser is cancelled and left behind to end on its own; its result is ignored.
/// Cancelling the awaiting task cancels both and throws at once.
///
/// - Parameters:
///   - duration: How long the work may take.
///   - clock: The clock that measures the limit.
///   - operation: The work.
/// - Returns: The work's value, or how the deadline ended the race.
/// - Throws: `CancellationError` when the awaiting task was cancelled first, or when the work
///   itself reported cancellation.
package func withDeadline<Value: Sendable, C: Clock>(
  after duration: C.Duration,
  on clock: C,
  _ operation: @escaping @Sendable () async throws(CancellationError) -> Value
) async throws(CancellationError) -> DeadlineOutcome<Value> {
  let racers = Lock<[Task<Void, Never>]>([])
  // A test harness must see the racers as the job's work: the one that ends the race hands its
  // share to this task, the other is cancelled and abandoned (cancelled first, so a clock that
  // wakes a cancelled sleeper counts it before it is let go).
  let units = WorkUnit.spawnChildren(2)
  let winner = Lock<Bool>(false)
  let waiting = WorkUnit.currentOwned
  waiting?.suspend()
  defer {
    for racer in racers.withLock({ $0 }) { racer.cancel() }
    if winner.withLock({ $0 }) {
      units.abandon(1)
    } else {
      waiting?.resume()
      units.abandon(2)
    }
  }
  let outcome: Result<DeadlineOutcome<Value>, CancellationError> = try await awaitCallback {
    complete in
    let finish: @Sendable (Result<DeadlineOutcome<Value>, CancellationError>) -> Void = {
      result in
      winner.withLock { $0 = true }
      complete(result)
    }
    let work = startTask {
      await units.run {
        do throws(CancellationError) {
          finish(.success(.finished(try await operation())))
        } catch {
          finish(.failure(error))
        }
      }
    }
    let timer = startTask {
      await units.run {
        do throws(CancellationError) {
          if let failure = try await sleep(for: duration, on: clock) {
            finish(.success(.clockFailed(failure)))
          } else {
            finish(.success(.timedOut))
          }
        } catch {
          // Cancelled: the race is already over.
        }
      }
    }
    racers.withLock { $0 = [work, timer] }
    return {
      work.cancel()
      timer.cancel()
    }
  }
  return try outcome.get()
}

/// Sleeps on a clock and tells cancellation apart from a clock failure.
///
/// A throw while the current task is cancelled is cancellation. Any other throw — including a
/// `CancellationError` the clock throws on its own — is a clock failure, returned rather than
/// thrown so that no caller can mistake it for cancellation.
///
/// - Parameters:
///   - duration: How long to sleep.
///   - clock: The clock to sleep on.
/// - Returns: `nil` once the time has passed, or the ``ClockError`` when the clock failed.
/// - Throws: `CancellationError` when the task was cancelled.
package func sleep<C: Clock>(
  for duration: C.Duration,
  on clock: C
) async throws(CancellationError) -> ClockError? {
  do {
    try await clock.sleep(for: duration)
    return nil
  } catch {
    if Task.isCancelled { throw CancellationError() }
    return ClockError(underlying: error)
  }
}

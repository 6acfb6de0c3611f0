import FunctionalCore

/// The time-based changes a feedback policy makes to an effect.
///
/// Each is the effect's own work with something around it — a leading sleep, a retry loop, a
/// deadline — so the request semantics are untouched: a changed request cancels the whole
/// effect, wait included.
extension Effect {
  /// The work as a long-running operation whose return value is its last event, if any.
  @usableFromInline
  var operation:
    @Sendable (Context, Send<Event>) async throws(CancellationError) -> Result<Event?, Failure>
  {
    switch self {
    case .done(let result):
      return { _, _ in result.map(Optional.some) }
    case .single(let operation):
      return { context, _ throws(CancellationError) in
        try await operation(context).map(Optional.some)
      }
    case .stream(let operation):
      return operation
    case .detached(let work):
      return work.operation
    }
  }

  /// The effect after a leading sleep; a clock that fails counts the wait as over.
  @usableFromInline
  func delayed(
    by delay: @escaping @Sendable (Context) -> Duration,
    on clock: @escaping @Sendable (Context) -> any Clock<Duration>
  ) -> Effect {
    let operation = self.operation
    return .stream { context, send throws(CancellationError) in
      _ = try await sleep(for: delay(context), on: clock(context))
      return try await operation(context, send)
    }
  }

  /// The effect, run again after a failure, at most `retries` more times.
  @usableFromInline
  func retried(
    _ retries: Int,
    backoff: Backoff,
    on clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    random: (@Sendable (Context) -> Double)?
  ) -> Effect {
    let operation = self.operation
    return .stream { context, send throws(CancellationError) in
      var retry = 0
      while true {
        let result = try await operation(context, send)
        guard case .failure = result, retry < retries else { return result }
        let delay = backoff.delay(beforeRetry: retry + 1, random: random?(context) ?? 0)
        retry += 1
        _ = try await sleep(for: delay, on: clock(context))
      }
    }
  }

  /// The effect, ended with `outcome` when it runs past `duration`.
  ///
  /// The work that ignores cancellation is left behind, cancelled; its result is dropped.
  @usableFromInline
  func limited(
    to duration: Duration,
    on clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    orElse outcome: Result<Event?, Failure>
  ) -> Effect {
    let operation = self.operation
    return .stream { context, send throws(CancellationError) in
      let deadline = try await withDeadline(after: duration, on: clock(context)) {
        () throws(CancellationError) in try await operation(context, send)
      }
      switch deadline {
      case .finished(let result): return result
      case .timedOut, .clockFailed: return outcome
      }
    }
  }
}

extension Effect {
  /// The same effect, with a failure turned into its last event.
  @usableFromInline
  func recovered(
    _ transform: @escaping @Sendable (Failure) -> Event
  ) -> ArchitectureKit.Effect<Event, Never, Context> {
    switch self {
    case .done(.success(let event)):
      return .done(.success(event))
    case .done(.failure(let error)):
      return .done(.success(transform(error)))
    case .detached(let work):
      return .detached(work.recovered(transform))
    case .single, .stream:
      let operation = self.operation
      return .stream { context, send throws(CancellationError) in
        switch try await operation(context, send) {
        case .success(let event): .success(event)
        case .failure(let error): .success(transform(error))
        }
      }
    }
  }
}

/// Sleeps on a clock held as an existential.
@usableFromInline
func sleep(
  for duration: Duration,
  on clock: any Clock<Duration>
) async throws(CancellationError) -> ClockError? {
  try await FunctionalCore.sleep(for: duration, on: clock)
}

import FunctionalCore

/// Request policies: when and how often a feedback's effects run, on a clock the context gives.
///
/// A policy wraps each effect the feedback starts; the request semantics stay as they are. A
/// debounced effect is the effect after a leading sleep, so a request that changes during the
/// wait cancels it and starts a new one; a retried effect is one effect, seen by observers and
/// tests as the same request on every attempt. Time comes from the context, so a test that puts
/// a ``ArchitectureKitTestSupport/ManualClock`` there controls it.
///
/// ```swift
/// Feedback<State, Event, SearchError, Context>
///   .react(request: \.query, effect: .run { query, context throws(SearchError) in
///     .found(try await context.api.search(query))
///   })
///   .debounced(for: .milliseconds(300), clock: \.clock)
///   .retrying(2, backoff: .fixed(.seconds(1)), clock: \.clock)
/// ```
///
/// Policies compose from the inside out: above, the retry wraps the debounced search, so every
/// attempt, each retry included, waits the 300 ms again after its backoff. Put
/// ``debounced(for:clock:)`` last to debounce only the first attempt. A clock whose sleep fails
/// counts the wait as over.
extension Feedback {
  /// Starts each effect only after its request has stayed the same for `delay`.
  ///
  /// A request that changes (or vanishes) during the wait cancels the wait, by the usual
  /// request semantics, and the new request waits afresh: only the last of a quick succession
  /// runs, `delay` after it appeared.
  ///
  /// - Parameters:
  ///   - delay: How long a request must stay before its effect runs.
  ///   - clock: The clock in the context to wait on.
  /// - Returns: The debounced feedback.
  public func debounced(
    for delay: Duration,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>
  ) -> Feedback {
    transformingEffects { $0.delayed(by: { _ in delay }, on: clock) }
  }

  /// Starts effects no more often than once per `interval`.
  ///
  /// With `latest` (the default), an effect whose request appears less than `interval` after
  /// the last start waits until the interval has passed, then runs; a newer request during the
  /// wait replaces it, so the latest one runs at the end of the window. Without `latest`, such
  /// an effect is dropped: it ends at once, sending nothing, and its request stays in place
  /// until it changes. The time of the last start is kept per system.
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two starts.
  ///   - latest: Whether a request inside the window runs at its end (`true`) or is dropped.
  ///   - clock: The clock in the context.
  /// - Returns: The throttled feedback.
  public func throttled(
    for interval: Duration,
    latest: Bool = true,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>
  ) -> Feedback {
    Feedback(reconcilesEveryStep: reconcilesEveryStep) { index in
      let window = ThrottleWindow(interval: interval, keepsLatest: latest)
      return transformingEffects { effect in
        let operation = effect.operation
        return .stream { context, send throws(CancellationError) in
          let clock = clock(context)
          guard let wait = window.admit(on: clock) else { return .success(nil) }
          if wait > .zero { _ = try await sleep(for: wait, on: clock) }
          window.recordStart(on: clock)
          return try await operation(context, send)
        }
      }.makeReconciler(index)
    }
  }

  /// Runs an effect that failed again, at most `retries` more times, waiting as `backoff` says
  /// before each retry.
  ///
  /// The retries are the same effect for its request: observers and tests see one start, and
  /// the failure is reported only when the last attempt fails, as
  /// ``SystemActivity/effectFailed(_:_:)``; no event is made of it. A request that changes
  /// cancels the attempt or the wait in progress.
  ///
  /// - Parameters:
  ///   - retries: How many times to retry after the first failure.
  ///   - backoff: The wait before each retry.
  ///   - clock: The clock in the context.
  ///   - random: A number from 0 up to 1 for a jittered backoff, from the context.
  /// - Returns: The retrying feedback.
  public func retrying(
    _ retries: Int,
    backoff: Backoff,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    random: (@Sendable (Context) -> Double)? = nil
  ) -> Feedback {
    transformingEffects { $0.retried(retries, backoff: backoff, on: clock, random: random) }
  }

  /// Fails an effect that runs longer than `duration`.
  ///
  /// At the deadline the effect fails with `failure`, reported as any failure, even if its work
  /// ignores cancellation: that work is cancelled and left behind, and its result is dropped.
  ///
  /// - Parameters:
  ///   - duration: How long an effect may run.
  ///   - clock: The clock in the context.
  ///   - failure: The failure of an effect that ran out of time.
  /// - Returns: The feedback with a deadline on each effect.
  public func timeout(
    _ duration: Duration,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    failure: ErrorType
  ) -> Feedback {
    transformingEffects { $0.limited(to: duration, on: clock, orElse: .failure(failure)) }
  }

  /// Ends an effect that runs longer than `duration` with `event`.
  ///
  /// At the deadline the effect ends with `event`, even if its work ignores cancellation: that
  /// work is cancelled and left behind, and its result is dropped.
  ///
  /// - Parameters:
  ///   - duration: How long an effect may run.
  ///   - clock: The clock in the context.
  ///   - event: The last event of an effect that ran out of time.
  /// - Returns: The feedback with a deadline on each effect.
  public func timeout(
    _ duration: Duration,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    event: Event
  ) -> Feedback {
    transformingEffects { $0.limited(to: duration, on: clock, orElse: .success(event)) }
  }

  /// Turns each failure of the feedback's effects into an event, so nothing is left unhandled
  /// and the feedback fits in a system whose failure type is `Never`.
  ///
  /// Put it last, after the policies whose failures it should catch: a retried load that fails
  /// its last attempt then ends with an event the reducer shows, instead of a reported failure
  /// that leaves the state waiting.
  ///
  /// ```swift
  /// Feedback<Page, Page.Event, APIError, Context>
  ///   .react(request: \.loading, effect: .run { id, context throws(APIError) in
  ///     .loaded(try await context.api.page(id))
  ///   })
  ///   .retrying(
  ///     3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)), clock: \.clock)
  ///   .recover { error in .failed(error) }
  /// ```
  ///
  /// - Parameter transform: The event a failure becomes.
  /// - Returns: The feedback, which no longer fails.
  public func recover(
    _ transform: @escaping @Sendable (ErrorType) -> Event
  ) -> Feedback<State, Event, Never, Context> {
    Feedback<State, Event, Never, Context> { index in
      // Only the closure: the joining of neighbours is for the loops themselves, not wrapped ones.
      let inner = makeReconciler(index).reconcile
      let recovering = Bookkeeping<EffectHost<Event, ErrorType, Context>?>(nil)
      return Reconciler { state, host in
        let innerHost =
          recovering.value
          ?? EffectHost(
            start: { effect, request in host.start(effect.recovered(transform), request) },
            cancel: host.cancel, isStopped: host.isStopped, event: host.event,
            retireWhenDone: host.retireWhenDone, isLive: host.isLive)
        recovering.value = innerHost
        inner(&state, innerHost)
      }
    }
  }

  /// The same feedback with every effect it starts changed by `transform` first.
  @usableFromInline
  func transformingEffects(_ transform: @escaping (Work) -> Work) -> Feedback {
    Feedback(reconcilesEveryStep: reconcilesEveryStep) { index in
      // Only the closure: the joining of neighbours is for the loops themselves, not wrapped ones.
      let inner = makeReconciler(index).reconcile
      let transformed = Bookkeeping<EffectHost<Event, ErrorType, Context>?>(nil)
      return Reconciler { state, host in
        // A detached effect stays detached: the policy wraps its work.
        let policyHost = transformed.value ?? host.transformingEffects { $0.mapWork(transform) }
        transformed.value = policyHost
        inner(&state, policyHost)
      }
    }
  }
}

/// The last start of a throttled feedback, per system.
final class ThrottleWindow: Sendable {
  private let interval: Duration
  private let keepsLatest: Bool
  /// The instant of the last start, on the clock the effects use.
  private let lastStart = Lock<(any Sendable)?>(nil)

  init(interval: Duration, keepsLatest: Bool) {
    self.interval = interval
    self.keepsLatest = keepsLatest
  }

  /// How long a new effect waits before it starts; `nil` when it is dropped.
  func admit(on clock: any Clock<Duration>) -> Duration? {
    func admit<C: Clock<Duration>>(_ clock: C) -> Duration? {
      guard let last = lastStart.withLock({ $0 }) as? C.Instant else { return .zero }
      let wait = clock.now.duration(to: last.advanced(by: interval))
      if wait <= .zero { return .zero }
      return keepsLatest ? wait : nil
    }
    return admit(clock)
  }

  /// Remembers that an effect starts now.
  func recordStart(on clock: any Clock<Duration>) {
    func record<C: Clock<Duration>>(_ clock: C) {
      let now = clock.now
      lastStart.withLock { $0 = now }
    }
    record(clock)
  }
}

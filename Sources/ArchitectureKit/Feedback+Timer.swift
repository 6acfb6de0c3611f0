import FunctionalCore

extension FeedbackEffect {
  /// A repeating timer: sends a tick every `interval` while its request is held, on a clock the
  /// context gives, without drift.
  ///
  /// The ticks fall on fixed deadlines counted from the moment the timer starts: the *n*-th is
  /// due at `start + n × interval`, however late the ones before it were handled, so the timer
  /// never drifts. When the timer wakes late, past several deadlines (a device that slept, a
  /// main actor busy for a second, a tick still waiting for a test to receive it), every due
  /// tick is sent, one event each, in order; with `coalescing`, one tick is sent for all of
  /// them, carrying how many were due. A long `advance` of a
  /// ``ArchitectureKitTestSupport/ManualClock`` is not late: the clock stops at each deadline
  /// on its way and lets the timer wake there, so every tick is played one by one, coalescing
  /// or not (see <doc:TimeAndRetries>). A request that changes restarts the timer; one that
  /// vanishes stops it.
  ///
  /// ```swift
  /// Feedback<Stopwatch, Stopwatch.Event, Never, Context>.react(
  ///   request: { $0.isRunning ? true : nil },
  ///   effect: .timer(every: .milliseconds(10), clock: \.clock) { _, ticks in .elapsed(ticks) }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - interval: The time between two ticks.
  ///   - clock: The clock in the context.
  ///   - coalescing: Whether a jump past several deadlines sends one tick instead of each.
  ///   - tick: The event of a tick: the request, and how many ticks it stands for (1 unless
  ///     coalescing).
  /// - Returns: The effect.
  public static func timer(
    every interval: Duration,
    clock: @escaping @Sendable (Context) -> any Clock<Duration>,
    coalescing: Bool = false,
    tick: @escaping @Sendable (Request, Int) -> Event
  ) -> Self {
    Self { request in
      .stream { context, send throws(CancellationError) in
        try await repeatTicks(every: interval, on: clock(context), coalescing: coalescing) {
          await send(tick(request, $0))
        }
        return .success(nil)
      }
    }
  }
}

/// Calls `body` on every deadline `start + n × interval`, until cancelled or the clock fails.
func repeatTicks(
  every interval: Duration,
  on clock: any Clock<Duration>,
  coalescing: Bool,
  _ body: (Int) async -> Void
) async throws(CancellationError) {
  func run<C: Clock<Duration>>(_ clock: C) async throws(CancellationError) {
    let start = clock.now
    var next = 1
    while true {
      do {
        try await clock.sleep(until: start.advanced(by: interval * next), tolerance: nil)
      } catch {
        if Task.isCancelled { throw CancellationError() }
        // A clock that fails ends the timer: it has no time left to keep.
        return
      }
      if coalescing {
        let due = max(Int(start.duration(to: clock.now) / interval), next)
        await body(due - next + 1)
        next = due + 1
      } else {
        await body(1)
        next += 1
      }
      if Task.isCancelled { throw CancellationError() }
    }
  }
  try await run(clock)
}

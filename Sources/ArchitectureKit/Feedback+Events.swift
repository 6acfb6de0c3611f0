/// Work started by events rather than by requests in the state.
extension Feedback {
  /// Starts an effect for each event that `trigger` turns into a request: work that is not a
  /// request in the state, such as analytics, "refresh again", a save or a screen's
  /// long-living observation.
  ///
  /// The trigger sees the event and the state it left (after the reducer ran). The effect is an
  /// effect like any other: observers and tests see it start (its request is the one `trigger`
  /// returned), finish, fail or be cancelled, and a ``System/stop()`` cancels it. It leaves the
  /// system when it ends, since no state keeps it. `policy` decides what a new one does to those
  /// still running; `until` cancels those running when a later step says so, so no state field
  /// has to exist only to keep the work alive.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(
  ///   on: { event, state in event == .searchTapped ? state.query : nil },
  ///   policy: .cancelPrevious,
  ///   until: { event, _ in event == .cancelTapped },
  ///   effect: .run { query, context in .results(await context.search(query)) })
  /// ```
  ///
  /// - Parameters:
  ///   - trigger: The request an event asks for, given the state after it, or `nil` for the
  ///     events that start nothing.
  ///   - policy: What a new effect does to those of this feedback still running.
  ///   - cancel: Whether a step cancels every running effect of this feedback, given its event
  ///     and the state after it. It is asked on every step while effects run, before the
  ///     trigger; the event is `nil` in a step that has none of this feature's (its creation, a
  ///     parent changing a child's state). `nil` (the default) cancels nothing.
  ///   - effect: What runs for a request.
  /// - Returns: The feedback.
  public static func react<Request: Equatable & Sendable>(
    on trigger: @escaping (Event, State) -> Request?,
    policy: TriggerPolicy = .concurrent(limit: .max),
    until cancel: ((Event?, State) -> Bool)? = nil,
    effect: Effect<Request>
  ) -> Feedback {
    let work = effect.work
    return Feedback(reconcilesEveryStep: cancel != nil) { index in
      var running: [EffectID] = []
      return Reconciler { state, host in
        let event = host.event()
        if let cancel, !running.isEmpty {
          running.removeAll { !host.isLive($0) }
          if !running.isEmpty, cancel(event, state) {
            let cancelled = running
            running.removeAll()
            for id in cancelled {
              host.cancel(id)
              if host.isStopped() { return }
            }
          }
        }
        guard let event, let request = trigger(event, state) else { return }
        running.removeAll { !host.isLive($0) }
        let limit =
          switch policy {
          case .cancelPrevious: 1
          case .concurrent(let limit): max(limit, 1)
          }
        while running.count >= limit {
          host.cancel(running.removeFirst())
          if host.isStopped() { return }
        }
        let id = host.start(work(request), EffectRequest(feedbackIndex: index, value: request))
        host.retireWhenDone(id, nil)
        running.append(id)
      }
    }
  }
}

/// What an event-triggered effect does to the effects of its feedback still running.
public enum TriggerPolicy: Sendable, Equatable {
  /// The new effect cancels the one still running: the latest event wins.
  case cancelPrevious
  /// Effects run side by side, at most `limit` at once; at the limit, the oldest is cancelled.
  case concurrent(limit: Int)
}

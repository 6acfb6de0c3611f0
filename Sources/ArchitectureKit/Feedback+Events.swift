/// Work started by events rather than by requests in the state.
extension Feedback {
  /// Starts an effect for each event that `trigger` turns into a request: work that is not a
  /// request in the state, such as analytics, "refresh again" or a save.
  ///
  /// The effect is an effect like any other: observers and tests see it start (its request is
  /// the one `trigger` returned), finish, fail or be cancelled, and a ``System/stop()`` cancels
  /// it. It leaves the system when it ends, since no state keeps it. `policy` decides what a
  /// new one does to those still running.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(
  ///   on: { event in if case .purchased(let item) = event { item } else { nil } },
  ///   perform: { item, context in
  ///     await context.analytics.track("purchase", item)
  ///     return nil
  ///   })
  /// ```
  ///
  /// - Parameters:
  ///   - trigger: The request an event asks for, or `nil` for the events that start nothing.
  ///   - policy: What a new effect does to those of this feedback still running.
  ///   - perform: The effect: the request and the context in, an event out, or `nil` to end
  ///     without one.
  /// - Returns: The feedback.
  public static func react<Request: Equatable & Sendable>(
    on trigger: @escaping (Event) -> Request?,
    policy: TriggerPolicy = .concurrent(limit: .max),
    perform: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event?
  ) -> Feedback {
    let effect = makeOptionalEffect(perform)
    return Feedback { index in
      var running: [EffectID] = []
      return Reconciler { _, host in
        guard let event = host.event(), let request = trigger(event) else { return }
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
        let id = host.start(effect(request), EffectRequest(feedbackIndex: index, value: request))
        host.retireWhenDone(id, nil)
        running.append(id)
      }
    }
  }

  /// Runs an `async` function for the request the state holds; it returns an event, or `nil`
  /// to end without one.
  ///
  /// For work whose result does not always matter — a save that reports only failures, work
  /// that was cancelled — so it need not invent an event.
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - perform: The effect: the request and the context in, an event or `nil` out.
  /// - Returns: The feedback.
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    perform: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event?
  ) -> Feedback {
    single(request, makeOptionalEffect(perform))
  }

  /// Turns an `async` function returning an optional event into an effect builder.
  static func makeOptionalEffect<Request: Sendable>(
    _ perform: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event?
  ) -> (Request) -> Effect {
    { request in
      .stream { context, _ in
        do throws(ErrorType) {
          return .success(try await perform(request, context))
        } catch {
          return .failure(error)
        }
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

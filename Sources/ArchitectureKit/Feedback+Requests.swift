/// Feedback over many requests at once: a set, or requests keyed by identifier.
extension Feedback {
  /// Runs one effect per element of the set the state holds, with the seed's
  /// ``FunctionalCore/AsyncResult`` effects.
  ///
  /// The same as ``react(requests:effect:)-((State)->Set<Request>,_)`` with an
  /// ``FeedbackEffect/asyncResult(_:)`` effect.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(
  ///   requests: { Set($0.rows.filter(\.needsImage).map(\.imageURL)) },
  ///   effects: { url in loadImage(url).map { Event.imageLoaded(url, $0) } }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - requests: The requests in a state.
  ///   - effects: Builds the effect for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> Set<Request>,
    effects: @escaping (Request) -> AsyncResult<Context, Event, ErrorType>
  ) -> Feedback {
    set(requests) { Work(effects($0)) }
  }

  /// Runs one effect per element of the set the state holds.
  ///
  /// New elements start, vanished elements are cancelled, elements still present are left
  /// alone. Use it for independent work items: downloads, per-row loads, uploads.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(
  ///   requests: { Set($0.rows.filter(\.needsImage).map(\.imageURL)) },
  ///   effect: .run { url, context throws(APIError) in
  ///     .imageLoaded(url, try await context.images.load(url))
  ///   }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - requests: The requests in a state.
  ///   - effect: What runs for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> Set<Request>,
    effect: Effect<Request>
  ) -> Feedback {
    set(requests, effect.work)
  }

  /// Runs one effect per element of the ``RequestSet`` the state holds, at the cost of the
  /// elements that changed.
  ///
  /// The semantics of the `Set` form: new elements start, vanished elements are cancelled,
  /// elements still present are left alone. The `Set` form compares the whole set whenever it
  /// changed; this one reads the set's journal of insertions and removals, so with 1,000
  /// effects in flight, a result that removes its element costs one element.
  ///
  /// ```swift
  /// struct State {
  ///   var pending: RequestSet<ItemID> = []
  /// }
  ///
  /// Feedback<State, Event, Never, Context>.react(
  ///   requests: \.pending,
  ///   effect: .run { item, context in .loaded(item, await context.store.load(item)) }
  /// )
  /// ```
  ///
  /// That holds when the reducer mutates the set stored in the state in place
  /// (`state.pending.remove(item)`). A set built afresh, or an older copy put back in the
  /// state, has a history the feedback has not seen: that step compares the whole set.
  ///
  /// - Parameters:
  ///   - requests: The requests in a state; keep them in the state, as a key path.
  ///   - effect: What runs for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> RequestSet<Request>,
    effect: Effect<Request>
  ) -> Feedback {
    Feedback { index in
      Reconciler.requestSet(feedbackIndex: index, requests: requests, effect: effect.work)
    }
  }

  /// Runs one effect per key of the dictionary the state holds.
  ///
  /// A key that appears starts its effect; a key whose request changes is restarted; a key that
  /// vanishes is cancelled; a key whose request is unchanged is left alone. Keep the requests in
  /// a ``KeyedRequests`` and use ``react(keyed:effect:)`` when there are many: this form
  /// compares the whole dictionary on every step.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(
  ///   keyedRequests: { $0.searches },  // [FieldID: Query]
  ///   effect: .asyncResult { query in search(query).map { Event.results(query, $0) } }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - keyedRequests: The request for each key in a state.
  ///   - effect: What runs for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyedRequests: @escaping (State) -> [ID: Request],
    effect: Effect<Request>
  ) -> Feedback {
    Feedback { index in
      Reconciler.keyed(feedbackIndex: index, requests: keyedRequests, effect: effect.work)
    }
  }

  @inlinable
  static func set<Request: Hashable & Sendable>(
    _ requests: @escaping (State) -> Set<Request>,
    _ effect: @escaping (Request) -> Work
  ) -> Feedback {
    Feedback { index in
      Reconciler.set(feedbackIndex: index, requests: requests, effect: effect)
    }
  }
}

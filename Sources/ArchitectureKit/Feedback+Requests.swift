/// Feedback over many requests at once: a set, or requests keyed by identifier.
extension Feedback {
  /// Runs one effect per element of the set the state holds.
  ///
  /// New elements start, vanished elements are cancelled, elements still present are left
  /// alone. Use it for independent work items: downloads, per-row loads, uploads.
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
    set(requests) { Effect(effects($0)) }
  }

  /// Runs one `async` function per element of the set the state holds; each returns one event.
  ///
  /// - Parameters:
  ///   - requests: The requests in a state.
  ///   - run: The effect for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> Set<Request>,
    run: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event
  ) -> Feedback {
    set(requests, makeEffect(run))
  }

  /// Runs one long-running `async` function per element of the set the state holds.
  ///
  /// - Parameters:
  ///   - requests: The requests in a state.
  ///   - stream: The effect for one request; it may send many events.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> Set<Request>,
    stream: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Void
  ) -> Feedback {
    set(requests, makeStream(stream))
  }

  /// Runs one job per element of the set the state holds; each may send progress and returns
  /// its last event (see ``react(request:job:)``).
  ///
  /// - Parameters:
  ///   - requests: The requests in a state.
  ///   - job: The effect for one request; it returns its last event.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Hashable & Sendable>(
    requests: @escaping (State) -> Set<Request>,
    job: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Event
  ) -> Feedback {
    set(requests, makeJob(job))
  }

  /// Runs one effect per key of the dictionary the state holds.
  ///
  /// A key that appears starts its effect; a key whose request changes is restarted; a key that
  /// vanishes is cancelled; a key whose request is unchanged is left alone.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(
  ///   keyedRequests: { $0.searches },  // [FieldID: Query]
  ///   effects: { query in search(query).map { Event.results(query, $0) } }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - keyedRequests: The request for each key in a state.
  ///   - effects: Builds the effect for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyedRequests: @escaping (State) -> [ID: Request],
    effects: @escaping (Request) -> AsyncResult<Context, Event, ErrorType>
  ) -> Feedback {
    keyed(keyedRequests) { Effect(effects($0)) }
  }

  /// Runs one `async` function per key of the dictionary the state holds.
  ///
  /// - Parameters:
  ///   - keyedRequests: The request for each key in a state.
  ///   - run: The effect for one request; it returns one event.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyedRequests: @escaping (State) -> [ID: Request],
    run: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event
  ) -> Feedback {
    keyed(keyedRequests, makeEffect(run))
  }

  /// Runs one long-running `async` function per key of the dictionary the state holds.
  ///
  /// - Parameters:
  ///   - keyedRequests: The request for each key in a state.
  ///   - stream: The effect for one request; it may send many events.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyedRequests: @escaping (State) -> [ID: Request],
    stream: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Void
  ) -> Feedback {
    keyed(keyedRequests, makeStream(stream))
  }

  /// Runs one job per key of the dictionary the state holds; each may send progress and
  /// returns its last event (see ``react(request:job:)``).
  ///
  /// - Parameters:
  ///   - keyedRequests: The request for each key in a state.
  ///   - job: The effect for one request; it returns its last event.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyedRequests: @escaping (State) -> [ID: Request],
    job: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Event
  ) -> Feedback {
    keyed(keyedRequests, makeJob(job))
  }

  @inlinable
  static func set<Request: Hashable & Sendable>(
    _ requests: @escaping (State) -> Set<Request>,
    _ effect: @escaping (Request) -> Effect
  ) -> Feedback {
    Feedback { index in
      Reconciler.set(feedbackIndex: index, requests: requests, effect: effect)
    }
  }

  @inlinable
  static func keyed<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    _ requests: @escaping (State) -> [ID: Request],
    _ effect: @escaping (Request) -> Effect
  ) -> Feedback {
    Feedback { index in
      Reconciler.keyed(feedbackIndex: index, requests: requests, effect: effect)
    }
  }
}

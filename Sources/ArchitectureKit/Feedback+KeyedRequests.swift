/// Feedback over requests keyed by identifier in a ``KeyedRequests``, whose steps cost the keys
/// that changed.
extension Feedback {
  /// Runs one effect per key of the ``KeyedRequests`` the state holds, at the cost of the keys
  /// that changed.
  ///
  /// A key that appears starts its effect; a key whose request changes is restarted; a key that
  /// vanishes is cancelled; a key whose request is unchanged is left alone: the semantics of
  /// the dictionary form, ``react(keyedRequests:effect:)``.
  ///
  /// ```swift
  /// struct State {
  ///   var downloads: KeyedRequests<FileID, URL> = [:]
  /// }
  ///
  /// Feedback<State, Event, DownloadError, Context>.react(
  ///   keyed: \.downloads,
  ///   effect: .asyncResult { url in download(url).map { Event.downloaded(url, $0) } }
  /// )
  /// ```
  ///
  /// Where the dictionary form compares the whole dictionary on every step, this one reads the
  /// collection's journal of changed keys: with 10,000 keys, a step that changes one costs one.
  /// That holds when the reducer mutates the value stored in the state in place
  /// (`state.downloads[file] = url`). A value built afresh each step (`keyed: {
  /// KeyedRequests($0.files) }`), or an older copy put back in the state, has a history the
  /// feedback has not seen: that step falls back to comparing the whole collection.
  ///
  /// - Parameters:
  ///   - requests: The requests in a state; keep them in the state, as a key path.
  ///   - effect: What runs for one request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<ID: Hashable & Sendable, Request: Equatable & Sendable>(
    keyed requests: @escaping (State) -> KeyedRequests<ID, Request>,
    effect: Effect<Request>
  ) -> Feedback {
    Feedback { index in
      Reconciler.journaled(feedbackIndex: index, requests: requests, effect: effect.work)
    }
  }
}

extension Reconciler {
  /// Requests keyed by identifier in a ``KeyedRequests``: one effect per key, restarted when
  /// its request changes, like ``keyed(feedbackIndex:requests:effect:)``, at the cost of the
  /// keys that changed since the last step.
  ///
  /// It keeps the mark of the requests it last reconciled, never the requests themselves: a
  /// copy would share the state's storage, and the reducer's next change would copy the whole
  /// collection. When the journal reaches back to the mark, only the keys in it are compared;
  /// otherwise (a value built afresh, an older copy put back, a compacted journal) the whole
  /// collection is, exactly as the dictionary form does.
  ///
  /// A ``RequestSet`` is keyed requests whose keys are their requests: `namesKeys` is `false`
  /// for it, so its requests are described as a `Set`'s elements are.
  @inlinable
  static func journaled<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> KeyedRequests<Key, Request>,
    namesKeys: Bool = true,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    // The mark of the requests last reconciled (`nil` before the first step), and the effect
    // running for each key.
    let seen = Bookkeeping<KeyedRequests<Key, Request>.Mark?>(nil)
    let active = KeyedEffects<Key, Request>(feedbackIndex: feedbackIndex, namesKeys: namesKeys)
    return Reconciler { state, host in
      let wanted = requests(state)
      let mark = wanted.mark
      if mark == seen.value { return }
      let since = seen.value
      seen.value = mark
      // A step whose one change removed its key (a fan-out's result dropping its request)
      // costs one lookup, of the effect to cancel: no list of changes, no wanted request.
      if let since, let key = wanted.keyRemovedAlone(since: since) {
        if let index = active.running.index(forKey: key) { active.cancel(at: index, host) }
        return
      }
      let changed = since.flatMap { wanted.changedKeys(since: $0) }
      let wantedRequests = wanted.dictionary
      guard let changed else {
        // The same walk as the dictionary form's, once.
        reconcileAll(wantedRequests, active: active, host: host, effect: effect)
        return
      }
      // Every key not in `changed` has the request it had at the mark, which is the one
      // running. Cancel first, then start, as the dictionary form does. One changed key is
      // settled on its own, with no list of cancellations and no second lookup to start it.
      if changed.count == 1, let key = changed.first {
        let request = wantedRequests[key]
        if let index = active.running.index(forKey: key) {
          if request == active.running.values[index].request { return }
          active.cancel(at: index, host)
          if host.isStopped() { return }
        }
        if let request { active.start(request, for: key, effect: effect, host) }
        return
      }
      // The walk that starts runs only when a changed key has a request to start.
      guard cancelChanged(changed, wantedRequests, active, host) == true else { return }
      for key in changed where active.running[key] == nil {
        guard let request = wantedRequests[key] else { continue }
        active.start(request, for: key, effect: effect, host)
        if host.isStopped() { return }
      }
    }
  }

  /// Cancels the effects of the changed keys whose request changed or vanished, in the order
  /// they started, as the other forms do (not in the order the keys changed).
  ///
  /// - Returns: Whether a changed key has a request to start, or `nil` when a listener stopped
  ///   the system during a cancellation.
  @inlinable @inline(never)
  static func cancelChanged<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    _ changed: ArraySlice<Key>,
    _ wanted: [Key: Request],
    _ active: KeyedEffects<Key, Request>,
    _ host: Host
  ) -> Bool? {
    var starts = false
    var cancels: [Key] = []
    for key in changed {
      let request = wanted[key]
      if let running = active.running[key] {
        // A request that changed back runs already: nothing to cancel or start.
        if running.request == request { continue }
        cancels.append(key)
      }
      if request != nil { starts = true }
    }
    return active.cancelInStartOrder(cancels, host) ? starts : nil
  }
}

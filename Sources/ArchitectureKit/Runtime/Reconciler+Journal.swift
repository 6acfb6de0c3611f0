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
  @inlinable
  static func journaled<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> KeyedRequests<Key, Request>,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    let journal = JournalState<Key, Request>()
    return Reconciler { state, host in
      let wanted = requests(state)
      let mark = wanted.mark
      if mark == journal.mark { return }
      let changed = journal.mark.flatMap { wanted.changedKeys(since: $0) }
      journal.mark = mark
      let wantedRequests = wanted.dictionary
      guard let changed else {
        // The same walk as the dictionary form's, once.
        for (key, running) in journal.active where wantedRequests[key] != running.request {
          journal.active[key] = nil
          host.cancel(running.id)
          if host.isStopped() { return }
        }
        for (key, request) in wantedRequests where journal.active[key] == nil {
          let description = EffectRequest(feedbackIndex: feedbackIndex, key: key, value: request)
          journal.active[key] = (request, host.start(effect(request), description))
          if host.isStopped() { return }
        }
        return
      }
      // Every key not in `changed` has the request it had at the mark, which is the one
      // running. Cancel first, then start, as the dictionary form does; a key listed twice is
      // settled the first time and left alone the second.
      for key in changed {
        guard let index = journal.active.index(forKey: key) else { continue }
        let running = journal.active.values[index]
        guard wantedRequests[key] != running.request else { continue }
        journal.active.remove(at: index)
        host.cancel(running.id)
        if host.isStopped() { return }
      }
      for key in changed where journal.active[key] == nil {
        guard let request = wantedRequests[key] else { continue }
        let description = EffectRequest(feedbackIndex: feedbackIndex, key: key, value: request)
        journal.active[key] = (request, host.start(effect(request), description))
        if host.isStopped() { return }
      }
    }
  }
}

/// The bookkeeping of a journaled keyed reconciler: where it last read the journal, and the
/// effect running for each key.
///
/// A class with unchecked stored properties rather than captured `var`s, which would cost a
/// dynamic exclusivity check on each access: only its reconciler touches it, one step at a
/// time.
@usableFromInline
final class JournalState<Key: Hashable & Sendable, Request: Equatable & Sendable> {
  /// The mark of the requests last reconciled; `nil` before the first step.
  @exclusivity(unchecked) @usableFromInline var mark: KeyedRequests<Key, Request>.Mark?
  /// The request and effect of each key that has one running.
  @exclusivity(unchecked) @usableFromInline var active: [Key: (request: Request, id: EffectID)] =
    [:]

  @usableFromInline
  init() {}
}

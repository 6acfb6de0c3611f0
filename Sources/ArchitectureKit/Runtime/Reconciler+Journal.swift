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
    // The mark of the requests last reconciled (`nil` before the first step), and the effect
    // running for each key.
    let seen = Bookkeeping<JournalStamp?>(nil)
    let active = KeyedEffects<Key, Request>(feedbackIndex: feedbackIndex, namesKeys: true)
    return Reconciler { state, host in
      let wanted = requests(state)
      guard let since = seen.advance(to: wanted.mark) else { return }
      // A step whose one change removed its key (a fan-out's result dropping its request)
      // costs one lookup, of the effect to cancel: no list of changes, no wanted request.
      if let since, let key = wanted.keyRemovedAlone(since: since) {
        if let slot = active.running.slot(of: key) { active.cancel(at: slot, host) }
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
        if let slot = active.running.slot(of: key) {
          if request == active.running[slot: slot].value.request { return }
          active.cancel(at: slot, host)
          if host.isStopped() { return }
        }
        if let request { active.start(request, for: key, effect: effect, host) }
        return
      }
      // The walk that starts runs only when a changed key has a request to start.
      guard cancelChanged(changed, wantedRequests, active, host) == true else { return }
      for key in changed where !active.running.contains(key) {
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
      if let slot = active.running.slot(of: key) {
        // A request that changed back runs already: nothing to cancel or start.
        if active.running[slot: slot].value.request == request { continue }
        cancels.append(key)
      }
      if request != nil { starts = true }
    }
    return active.cancelInStartOrder(cancels, host) ? starts : nil
  }

  /// The elements of a ``RequestSet``: one effect per element, started when it is inserted and
  /// cancelled when it is removed, at the cost of the elements that changed since the last step.
  ///
  /// As ``journaled(feedbackIndex:requests:effect:)`` does, it keeps the mark of the set last
  /// reconciled, never the set. The journal gives each element with the hash the set stored, so
  /// the table of running effects looks it up, removes it and inserts it without hashing it
  /// again: a fan-out's result hashes its element once, in the reducer's `remove`. The
  /// requests are described as a `Set`'s elements are, without a key.
  @inlinable
  static func requestSet<Request: Hashable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> RequestSet<Request>,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    let seen = Bookkeeping<JournalStamp?>(nil)
    let active = KeyedEffects<Request, Request>(feedbackIndex: feedbackIndex, namesKeys: false)
    return Reconciler { state, host in
      let wanted = requests(state)
      guard let since = seen.advance(to: wanted.mark) else { return }
      // A fan-out's result dropping its element: one lookup, with the stored hash.
      if let since, let removed = wanted.removedAlone(since: since) {
        if let slot = active.running.slot(of: removed.request, hash: removed.hash) {
          active.cancel(at: slot, host)
        }
        return
      }
      let slots = wanted.storage.slots
      guard let changed = since.flatMap({ wanted.changes(since: $0) }) else {
        reconcileSet(slots, active: active, host: host, effect: effect)
        return
      }
      // Cancelled first, in start order, then started in the order they were inserted.
      var cancels: [Request] = []
      for change in changed
      where slots.slot(of: change.request, hash: change.hash) == nil
        && active.running.slot(of: change.request, hash: change.hash) != nil
      {
        cancels.append(change.request)
      }
      if !cancels.isEmpty, !active.cancelInStartOrder(cancels, host) { return }
      for change in changed
      where slots.slot(of: change.request, hash: change.hash) != nil
        && active.running.slot(of: change.request, hash: change.hash) == nil
      {
        active.start(change.request, for: change.request, hash: change.hash, effect: effect, host)
        if host.isStopped() { return }
      }
    }
  }

  /// Brings one effect per element in line with a whole set: cancels the effects of the
  /// elements it no longer holds, in start order, then starts those of the new ones, each with
  /// the hash the set stored.
  @inlinable @inline(never)
  static func reconcileSet<Request: Hashable & Sendable>(
    _ wanted: HashSlots<Request, Void>,
    active: KeyedEffects<Request, Request>,
    host: Host,
    effect: (Request) -> Effect
  ) {
    let running = active.running
    let vanished = running.keys {
      wanted.slot(of: running[slot: $0].key, hash: running.hash(at: $0)) == nil
    }
    if !vanished.isEmpty, !active.cancelInStartOrder(vanished, host) { return }
    let nothingRunning = active.isEmpty
    for slot in wanted.occupiedSlots {
      let request = wanted[slot: slot].key
      let hash = wanted.hash(at: slot)
      if nothingRunning || active.running.slot(of: request, hash: hash) == nil {
        active.start(request, for: request, hash: hash, effect: effect, host)
        if host.isStopped() { return }
      }
    }
  }
}

extension Bookkeeping where Value == JournalStamp? {
  /// Moves a journaled feedback's mark to the collection's `mark`.
  ///
  /// - Returns: `nil` when the mark did not move (nothing changed since the last step);
  ///   otherwise the mark it moved from, itself `nil` before the first step.
  @inlinable
  func advance(to mark: JournalStamp) -> JournalStamp?? {
    if mark == value { return nil }
    defer { value = mark }
    return .some(value)
  }
}

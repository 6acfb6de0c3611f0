/// Keeps one feedback's running effects in line with the state.
///
/// Each form is a closure over its own bookkeeping (the requests it started), made fresh for
/// each system, so a `Feedback` value can be shared. Closures rather than subclasses: a generic
/// subclass's overridden method always runs unspecialized, which cost ten times more per step
/// in the benchmarks.
@usableFromInline
final class Reconciler<State, Event: Sendable, Failure: Error, Context: Sendable> {
  @usableFromInline typealias Host = EffectHost<Event, Failure, Context>
  @usableFromInline typealias Effect = ArchitectureKit.Effect<Event, Failure, Context>

  /// Brings the effects in line with a state.
  @usableFromInline let reconcile: (State, Host) -> Void

  @usableFromInline
  init(_ reconcile: @escaping (State, Host) -> Void) {
    self.reconcile = reconcile
  }

  /// One optional request: `nil` runs nothing, an equal request keeps its effect.
  @inlinable
  static func single<Request: Equatable & Sendable>(
    feedbackIndex: Int,
    request: @escaping (State) -> Request?,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    var active: (request: Request, id: EffectID)?
    return Reconciler { state, host in
      let wanted = request(state)
      if let running = active {
        if let wanted, wanted == running.request { return }
        active = nil
        host.cancel(running.id)
      }
      guard let wanted, !host.isStopped() else { return }
      let description = EffectRequest(feedbackIndex: feedbackIndex, value: wanted)
      active = (wanted, host.start(effect(wanted), description))
    }
  }

  /// A set of requests: one effect per element; new elements start, vanished ones are
  /// cancelled.
  @inlinable
  static func set<Request: Hashable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> Set<Request>,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    var wantedBefore: Set<Request> = []
    var active: [Request: EffectID] = [:]
    return Reconciler { state, host in
      let wanted = requests(state)
      // Sets sharing storage compare in constant time: the common step that leaves them alone.
      if wanted == wantedBefore { return }
      wantedBefore = wanted
      for (request, id) in active where !wanted.contains(request) {
        active[request] = nil
        host.cancel(id)
        // A listener may stop the system from inside the call: then nothing more may start.
        if host.isStopped() { return }
      }
      for request in wanted where active[request] == nil {
        let description = EffectRequest(feedbackIndex: feedbackIndex, value: request)
        active[request] = host.start(effect(request), description)
        if host.isStopped() { return }
      }
    }
  }

  /// Requests keyed by identifier: one effect per key, restarted when its request changes.
  @inlinable
  static func keyed<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> [Key: Request],
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    var wantedBefore: [Key: Request] = [:]
    var active: [Key: (request: Request, id: EffectID)] = [:]
    return Reconciler { state, host in
      let wanted = requests(state)
      if wanted == wantedBefore { return }
      wantedBefore = wanted
      for (key, running) in active where wanted[key] != running.request {
        active[key] = nil
        host.cancel(running.id)
        if host.isStopped() { return }
      }
      for (key, request) in wanted where active[key] == nil {
        let description = EffectRequest(feedbackIndex: feedbackIndex, key: key, value: request)
        active[key] = (request, host.start(effect(request), description))
        if host.isStopped() { return }
      }
    }
  }

  /// The seed's condition form: starts on the false-to-true edge, cancels on true-to-false.
  @inlinable
  static func condition(
    feedbackIndex: Int,
    condition: @escaping (State) -> Bool,
    effect: @escaping (State) -> Effect
  ) -> Reconciler {
    var active: EffectID?
    return Reconciler { state, host in
      switch (active, condition(state)) {
      case (nil, true):
        let description = EffectRequest(feedbackIndex: feedbackIndex, value: true)
        active = host.start(effect(state), description)
      case (let id?, false):
        active = nil
        host.cancel(id)
      default:
        break
      }
    }
  }
}

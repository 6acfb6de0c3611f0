/// Keeps one feedback's running effects in line with the state.
///
/// Subclasses hold the requests they started and, on every state, start, keep or cancel
/// effects through the core. A fresh reconciler is made for each system, so a `Feedback` value
/// can be shared.
class Reconciler<State, Event: Sendable, Failure: Error, Context: Sendable> {
  typealias Core = SystemCore<State, Event, Failure, Context>

  let feedbackIndex: Int

  init(feedbackIndex: Int) {
    self.feedbackIndex = feedbackIndex
  }

  /// Brings the effects in line with `state`.
  func reconcile(_ state: State, core: Core, handle: (Core.Output) -> Void) {
    preconditionFailure("Reconciler subclasses override reconcile(_:core:handle:).")
  }
}

/// One optional request: `nil` runs nothing, an equal request keeps its effect.
final class SingleRequestReconciler<
  State, Request: Equatable & Sendable, Event: Sendable, Failure: Error, Context: Sendable
>: Reconciler<State, Event, Failure, Context> {
  private let request: (State) -> Request?
  private let effect: (Request) -> Effect<Event, Failure, Context>
  private var active: (request: Request, id: EffectID)?

  init(
    feedbackIndex: Int,
    request: @escaping (State) -> Request?,
    effect: @escaping (Request) -> Effect<Event, Failure, Context>
  ) {
    self.request = request
    self.effect = effect
    super.init(feedbackIndex: feedbackIndex)
  }

  override func reconcile(_ state: State, core: Core, handle: (Core.Output) -> Void) {
    let wanted = request(state)
    if let active {
      if let wanted, wanted == active.request { return }
      self.active = nil
      core.cancelEffect(active.id, handle: handle)
    }
    guard let wanted else { return }
    let description = EffectRequest(feedbackIndex: feedbackIndex, value: wanted)
    active = (wanted, core.startEffect(effect(wanted), for: description, handle: handle))
  }
}

/// Requests keyed by identifier: one effect per key, restarted when its request changes.
final class KeyedRequestReconciler<
  State, Key: Hashable & Sendable, Request: Equatable & Sendable, Event: Sendable,
  Failure: Error, Context: Sendable
>: Reconciler<State, Event, Failure, Context> {
  private let requests: (State) -> [Key: Request]
  private let effect: (Request) -> Effect<Event, Failure, Context>
  private var wantedBefore: [Key: Request] = [:]
  private var active: [Key: (request: Request, id: EffectID)] = [:]

  init(
    feedbackIndex: Int,
    requests: @escaping (State) -> [Key: Request],
    effect: @escaping (Request) -> Effect<Event, Failure, Context>
  ) {
    self.requests = requests
    self.effect = effect
    super.init(feedbackIndex: feedbackIndex)
  }

  override func reconcile(_ state: State, core: Core, handle: (Core.Output) -> Void) {
    let wanted = requests(state)
    // Equal dictionaries sharing storage compare in constant time: the common case of a step
    // that does not touch the requests.
    if wanted == wantedBefore { return }
    wantedBefore = wanted
    for (key, running) in active where wanted[key] != running.request {
      active[key] = nil
      core.cancelEffect(running.id, handle: handle)
    }
    for (key, request) in wanted where active[key] == nil {
      let description = EffectRequest(
        feedbackIndex: feedbackIndex,
        key: key,
        value: request
      )
      active[key] = (request, core.startEffect(effect(request), for: description, handle: handle))
    }
  }
}

/// The seed's condition form: starts on the false-to-true edge, cancels on true-to-false.
final class ConditionReconciler<State, Event: Sendable, Failure: Error, Context: Sendable>:
  Reconciler<State, Event, Failure, Context>
{
  private let condition: (State) -> Bool
  private let effect: (State) -> Effect<Event, Failure, Context>
  private var active: EffectID?

  init(
    feedbackIndex: Int,
    condition: @escaping (State) -> Bool,
    effect: @escaping (State) -> Effect<Event, Failure, Context>
  ) {
    self.condition = condition
    self.effect = effect
    super.init(feedbackIndex: feedbackIndex)
  }

  override func reconcile(_ state: State, core: Core, handle: (Core.Output) -> Void) {
    let isOn = condition(state)
    switch (active, isOn) {
    case (nil, true):
      let description = EffectRequest(feedbackIndex: feedbackIndex, value: true)
      active = core.startEffect(effect(state), for: description, handle: handle)
    case (let id?, false):
      active = nil
      core.cancelEffect(id, handle: handle)
    default:
      break
    }
  }
}

/// A set of requests: one effect per element; new elements start, vanished ones are cancelled.
final class SetRequestReconciler<
  State, Request: Hashable & Sendable, Event: Sendable, Failure: Error, Context: Sendable
>: Reconciler<State, Event, Failure, Context> {
  private let requests: (State) -> Set<Request>
  private let effect: (Request) -> Effect<Event, Failure, Context>
  private var wantedBefore: Set<Request> = []
  private var active: [Request: EffectID] = [:]

  init(
    feedbackIndex: Int,
    requests: @escaping (State) -> Set<Request>,
    effect: @escaping (Request) -> Effect<Event, Failure, Context>
  ) {
    self.requests = requests
    self.effect = effect
    super.init(feedbackIndex: feedbackIndex)
  }

  override func reconcile(_ state: State, core: Core, handle: (Core.Output) -> Void) {
    let wanted = requests(state)
    if wanted == wantedBefore { return }
    wantedBefore = wanted
    for (request, id) in active where !wanted.contains(request) {
      active[request] = nil
      core.cancelEffect(id, handle: handle)
    }
    for request in wanted where active[request] == nil {
      let description = EffectRequest(feedbackIndex: feedbackIndex, value: request)
      active[request] = core.startEffect(effect(request), for: description, handle: handle)
    }
  }
}

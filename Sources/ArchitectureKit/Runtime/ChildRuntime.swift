/// The running part of one child feature inside a parent: its reconcilers, and the effects it
/// started, so that they live and die with the child.
///
/// The parent's feedback makes one per child (per element of a `forEach`, while an `ifLet`
/// state is present, once for a `scope`). Its host lifts the child's effects into the parent's
/// types and names their requests with the child's scope; when the child leaves the state,
/// ``retire()`` cancels exactly the effects it started.
@usableFromInline
final class ChildRuntime<
  ChildState, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable
> {
  @usableFromInline typealias ChildEffect = Effect<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline typealias ParentEffect = Effect<Event, Failure, Context>

  @usableFromInline let reconcilers:
    [Reconciler<ChildState, ChildEvent, ChildFailure, ChildContext>]
  @usableFromInline let parent: EffectHost<Event, Failure, Context>
  @usableFromInline var host: EffectHost<ChildEvent, ChildFailure, ChildContext>?
  /// The effects this child started that its reconcilers have not retired.
  @usableFromInline var effects: Set<EffectID> = []
  /// The reconciliation in which the parent last saw the child in its state.
  @usableFromInline var lastSeen: UInt64 = 0

  @usableFromInline
  init(
    feedback: [Feedback<ChildState, ChildEvent, ChildFailure, ChildContext>],
    parent: EffectHost<Event, Failure, Context>,
    scope: String,
    extract: @escaping (Event) -> ChildEvent?,
    lift: @escaping (ChildEffect) -> ParentEffect
  ) {
    self.reconcilers = feedback.enumerated().map { index, feedback in
      feedback.makeReconciler(index)
    }
    self.parent = parent
    host = EffectHost(
      start: { [unowned self] effect, request in
        let id = parent.start(lift(effect), request.scoped(scope))
        effects.insert(id)
        return id
      },
      cancel: { [unowned self] id in
        effects.remove(id)
        parent.cancel(id)
      },
      isStopped: parent.isStopped,
      event: { parent.event().flatMap(extract) },
      retireWhenDone: parent.retireWhenDone,
      isLive: parent.isLive
    )
  }

  /// Brings the child's effects in line with its state.
  @inlinable
  func reconcile(_ state: ChildState) {
    guard let host else { return }
    for reconciler in reconcilers {
      reconciler.reconcile(state, host)
      if host.isStopped() { return }
    }
  }

  /// Cancels every effect the child started: it left the state.
  @usableFromInline
  func retire() {
    let started = effects
    effects.removeAll()
    for id in started.sorted(by: { $0.rawValue < $1.rawValue }) {
      parent.cancel(id)
      if parent.isStopped() { return }
    }
  }
}

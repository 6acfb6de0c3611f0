/// Where a reconciler starts and cancels effects: the system's core, or a scope of it.
///
/// A reconciler only needs three things from its system, so a child feature's reconcilers run
/// unchanged inside a parent: the parent hands them a host that lifts their effects into the
/// parent's types, names their requests with the child's scope, and remembers which effects
/// they started, so a child that leaves the state has exactly its effects cancelled. Hosts are
/// made once per system (or per composition, whose children share one), never per step or per
/// child.
@usableFromInline
final class EffectHost<Event: Sendable, Failure: Error, Context: Sendable> {
  @usableFromInline typealias Effect = ArchitectureKit.Effect<Event, Failure, Context>

  /// Starts an effect for a request and returns its identifier.
  @usableFromInline let start: (Effect, EffectRequest) -> EffectID
  /// Retires an effect whose request changed or vanished.
  @usableFromInline let cancel: (EffectID) -> Void
  /// Whether the system stopped; a reconciler then starts nothing more.
  @usableFromInline let isStopped: () -> Bool
  /// The event of the step being reconciled, as this host's feature sees it; `nil` at start.
  @usableFromInline let event: () -> Event?
  /// Makes a started effect leave the system when it ends, instead of staying until its
  /// request vanishes: the effects an event started have no request in the state.
  ///
  /// The closure, if any, runs when the effect leaves at its end (not when it is cancelled):
  /// a child host forgets the effect there, so that it keeps only live effects.
  @usableFromInline let retireWhenDone: (EffectID, (() -> Void)?) -> Void
  /// Whether an effect is still in the system (running, or ended and not yet retired).
  @usableFromInline let isLive: (EffectID) -> Bool

  @usableFromInline
  init(
    start: @escaping (Effect, EffectRequest) -> EffectID,
    cancel: @escaping (EffectID) -> Void,
    isStopped: @escaping () -> Bool,
    event: @escaping () -> Event?,
    retireWhenDone: @escaping (EffectID, (() -> Void)?) -> Void,
    isLive: @escaping (EffectID) -> Bool
  ) {
    self.start = start
    self.cancel = cancel
    self.isStopped = isStopped
    self.event = event
    self.retireWhenDone = retireWhenDone
    self.isLive = isLive
  }

  /// The same host, with every started effect changed by `transform` first: the host of a
  /// feedback that has a policy (a debounce, a retry, a timeout).
  @usableFromInline
  func transformingEffects(_ transform: @escaping (Effect) -> Effect) -> EffectHost {
    EffectHost(
      start: { [start] effect, request in start(transform(effect), request) },
      cancel: cancel, isStopped: isStopped, event: event, retireWhenDone: retireWhenDone,
      isLive: isLive)
  }
}

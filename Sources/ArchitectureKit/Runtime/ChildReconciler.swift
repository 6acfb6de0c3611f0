import FunctionalCore

/// The reconciliation of one child feature inside a parent: its reconcilers, and the effects it
/// started, so that they live and die with the child.
///
/// The parent's feedback makes one per child (per element of a `forEach`, while an `ifLet`
/// state is present, once for a `scope`). The child's effects are lifted into the parent's
/// types and their requests named with the child's scope; when the child leaves the state,
/// ``retire()`` cancels exactly the effects it started.
///
/// The children of one composition share one host, their ``ChildHosting``'s, which passes each
/// call to the child being reconciled: a child is one object (see PerformanceLedger: a child in
/// one object).
///
/// Exclusivity: ``lastSeen``, ``effects`` and ``builtScope`` skip the run-time check (see
/// PerformanceLedger: exclusivity opt-outs). No two accesses can overlap: a child is used on
/// its system's isolation (in its own reconciliation, in its parent's when it is retired, and
/// when one of its effects ends), and each access is a plain insertion, removal, read or write
/// that calls nothing while the property is accessed.
@usableFromInline
final class ChildReconciler<
  ChildState, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable, Payload
> {
  @usableFromInline typealias ChildEffect = Effect<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline typealias ParentEffect = Effect<Event, Failure, Context>
  @usableFromInline typealias Hosting = ChildHosting<
    ChildState, ChildEvent, ChildFailure, ChildContext, Event, Failure, Context, Payload
  >

  @usableFromInline typealias ChildLoop = Reconciler<
    ChildState, ChildEvent, ChildFailure, ChildContext
  >

  /// The child's reconcilers, walked on each step, when it has several; `nil` when it has one
  /// (no empty arrays to retain and release).
  @usableFromInline let reconcilers: UnretainedArray<ChildLoop.Box>?
  /// The closure of the child's reconciler when it has exactly one, the common case: kept
  /// without the two arrays an ``UnretainedArray`` allocates and the box a list keeps each
  /// reconciler in, so making the child allocates none of them; the closure's context is the
  /// loop's bookkeeping (see PerformanceLedger: a child's one loop without arrays).
  @usableFromInline let only: ((inout ChildState, ChildLoop.Host) -> Void)?
  /// What the composition's children share, kept alive as long as they live.
  @usableFromInline let hosting: Hosting
  /// The hosting's host, which passes its calls to the child being reconciled; kept here too,
  /// so that the walk lends it without a retain (read through ``hosting``, it cost an event to a
  /// child about 50 instructions, `composed-100`).
  @usableFromInline let host: EffectHost<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline let parent: EffectHost<Event, Failure, Context>
  /// The child's name in its parent (`rows`, `path`, `destination`); with the identifier of its
  /// element in a collection (``ChildHosting/element``), the child's scope is `rows[7]`, built
  /// at its first effect.
  @usableFromInline let scope: String
  @exclusivity(unchecked) @usableFromInline var builtScope: String?
  /// What the composition tells this child by (its element's identifier, the state it was
  /// presented with), handed to the hosting's `extract` and `lift`, made once per composition.
  @usableFromInline let payload: Payload
  /// The effects the child started that have not ended or been cancelled.
  @exclusivity(unchecked) @usableFromInline var effects: Set<EffectID> = []
  @exclusivity(unchecked) @usableFromInline var lastSeen: UInt64 = 0

  @inlinable
  init(
    feedback: [Feedback<ChildState, ChildEvent, ChildFailure, ChildContext>],
    nodes: CompositionNodes? = nil,
    hosting: Hosting,
    parent: EffectHost<Event, Failure, Context>,
    scope: String,
    payload: Payload
  ) {
    if feedback.count == 1 {
      only = Reconciler.make(feedback[0], at: 0, nodes: nodes).reconcile
      reconcilers = nil
    } else {
      only = nil
      reconcilers = Reconciler.make(feedback, nodes: nodes)
    }
    self.hosting = hosting
    self.host = hosting.host
    self.parent = parent
    self.scope = scope
    self.payload = payload
    #if DEBUG
      // The census of a leak test (LivenessTests); a release build makes no task-local lookup.
      ChildEffectCensus.current?.count { [weak self] in self?.effects.count ?? 0 }
    #endif
  }

  /// Brings the child's effects in line with its state.
  @inlinable @inline(__always)
  func reconcile(_ state: ChildState) {
    // A local to lend to the reconcilers (see ``Reconciler/reconcile``).
    var state = state
    // The shared host passes its calls to this child while its reconcilers run. The one
    // current before is put back after: none, unless a child of this composition were
    // reconciled inside another's (nested compositions have hostings of their own).
    let outer = hosting.current
    hosting.current = Unretained(self)
    if only != nil {
      only?(&state, host)
    } else {
      // swift-format-ignore: NeverForceUnwrap
      // Set whenever `only` is not.
      Reconciler.reconcileEach(reconcilers!, &state, Unretained(host))
    }
    hosting.current = outer
  }

  /// Cancels every effect the child started: it left the state.
  @usableFromInline
  func retire() {
    // Most children leave with nothing running: no set to copy and sort then.
    guard !effects.isEmpty else { return }
    let started = effects
    effects.removeAll()
    for id in started.sorted(by: { $0.rawValue < $1.rawValue }) {
      parent.cancel(id)
      if parent.isStopped() { return }
    }
  }

  @inlinable
  func start(_ effect: ChildEffect, _ request: EffectRequest) -> EffectID {
    let id = parent.start(hosting.lift(effect, payload), request.scoped(fullScope))
    effects.insert(id)
    return id
  }

  /// The child's scope, built once, when its first effect starts: most children never start
  /// one, and their names are never read.
  @inlinable
  var fullScope: String {
    if let builtScope { return builtScope }
    let built = hosting.element.map { "\(scope)[\($0(payload))]" } ?? scope
    builtScope = built
    return built
  }

  @inlinable
  func cancel(_ id: EffectID) {
    effects.remove(id)
    parent.cancel(id)
  }

  @inlinable
  func event() -> ChildEvent? {
    guard let event = parent.event() else { return nil }
    return hosting.extract(event, payload)
  }

  @inlinable
  func retireWhenDone(_ id: EffectID, _ forget: (() -> Void)?) {
    // Forgotten when it ends: a child that lives on keeps only its live effects.
    parent.retireWhenDone(id) { [self] in
      effects.remove(id)
      forget?()
    }
  }
}

/// The one host the children of a composition share, and the two functions that tell them
/// apart by their payload: a child's events are extracted from the parent's, and its effects
/// lifted into the parent's types.
///
/// While a child reconciles, ``current`` is that child, and the host's calls go to it: a
/// reconciler uses its host only inside its own reconciliation (the root host checks it), so
/// every call a child's reconcilers make reaches the right child. One host per composition
/// rather than one per child: making a child allocates neither a host nor the contexts of its
/// six closures (see PerformanceLedger: a child in one object).
///
/// The host's closures reach the hosting ``Unretained``: the hosting owns the host, and each
/// child, which owns its reconcilers (the only holders of the host or of its closures), keeps
/// the hosting alive.
///
/// Exclusivity: ``current`` and ``madeHost`` skip the run-time check (see PerformanceLedger:
/// exclusivity opt-outs). No two accesses can overlap: the hosting is used on its system's
/// isolation, and each access is a plain read or write that calls nothing.
@usableFromInline
final class ChildHosting<
  ChildState, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable, Payload
> {
  @usableFromInline typealias Child = ChildReconciler<
    ChildState, ChildEvent, ChildFailure, ChildContext, Event, Failure, Context, Payload
  >
  @usableFromInline typealias ChildEffect = Effect<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline typealias ParentEffect = Effect<Event, Failure, Context>

  @usableFromInline let extract: (Event, Payload) -> ChildEvent?
  @usableFromInline let lift: (ChildEffect, Payload) -> ParentEffect
  /// Reads the identifier of a child's element in a collection from its payload.
  ///
  /// For the child's scope (`rows[7]`); `nil` for a child that is no element. Kept here, once
  /// per composition, rather than in each child.
  @usableFromInline let element: ((Payload) -> Any)?
  /// The child whose reconcilers are running; `nil` between reconciliations.
  @exclusivity(unchecked) @usableFromInline var current: Unretained<Child>?
  @exclusivity(unchecked) @usableFromInline var madeHost:
    EffectHost<ChildEvent, ChildFailure, ChildContext>?

  @inlinable
  init(
    extract: @escaping (Event, Payload) -> ChildEvent?,
    lift: @escaping (ChildEffect, Payload) -> ParentEffect,
    element: ((Payload) -> Any)? = nil
  ) {
    self.extract = extract
    self.lift = lift
    self.element = element
  }

  /// The host the children's reconcilers use.
  @inlinable
  var host: EffectHost<ChildEvent, ChildFailure, ChildContext> {
    madeHost ?? makeHost()
  }

  @inlinable
  func makeHost() -> EffectHost<ChildEvent, ChildFailure, ChildContext> {
    let hosting = Unretained(self)
    let host = EffectHost<ChildEvent, ChildFailure, ChildContext>(
      start: { effect, request in hosting { $0.child { $0.start(effect, request) } } },
      cancel: { id in hosting { $0.child { $0.cancel(id) } } },
      isStopped: { hosting { $0.child { $0.parent.isStopped() } } },
      event: { hosting { $0.child { $0.event() } } },
      retireWhenDone: { id, forget in
        hosting { $0.child { $0.retireWhenDone(id, forget) } }
      },
      isLive: { id in hosting { $0.child { $0.parent.isLive(id) } } }
    )
    madeHost = host
    return host
  }

  /// The child being reconciled, which every call of the host is for.
  @inlinable
  var child: Unretained<Child> {
    guard let current else {
      preconditionFailure("A child's host was used outside the child's reconciliation.")
    }
    return current
  }
}

extension ChildHosting where Payload == Void {
  /// The hosting of a composition whose child's context depends on the parent's context alone
  /// (`scope`, `ifLet`): its children need no payload.
  @inlinable
  convenience init(
    extract: @escaping (Event) -> ChildEvent?,
    embed: @escaping @Sendable (ChildEvent) -> Event,
    project: @escaping @Sendable (Context) -> ChildContext,
    mapError: @escaping @Sendable (ChildFailure) -> Failure
  ) {
    self.init(
      extract: { event, _ in extract(event) },
      lift: { effect, _ in effect.lifted(embed: embed, project: project, mapError: mapError) })
  }
}

extension ChildHosting where Payload == ChildState, ChildState: Sendable {
  /// The hosting of a composition whose child's context is made from the state the child was
  /// presented with (`presents`, an enum's case): each child's payload is that state.
  @inlinable
  convenience init(
    extract: @escaping (Event) -> ChildEvent?,
    embed: @escaping @Sendable (ChildEvent) -> Event,
    project: @escaping @Sendable (Context, ChildState) -> ChildContext,
    mapError: @escaping @Sendable (ChildFailure) -> Failure
  ) {
    self.init(
      extract: { event, _ in extract(event) },
      lift: { effect, presented in
        effect.lifted(embed: embed, project: { project($0, presented) }, mapError: mapError)
      })
  }
}

/// The child reconcilers of a `forEach`, one per element identifier, and their bookkeeping.
///
/// A step usually leaves the elements in the order of the step before, so each element's
/// child is first looked for at the element's own index in that order: no hashing. The table
/// by identifier is consulted only for an element that moved or is new; the order is rebuilt
/// only then.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the table is used on its system's isolation, inside
/// one reconciliation at a time; ``reconcile(_:_:)`` walks a copy of ``ordered``, and a child's
/// reconciliation, the only call out during the walk, cannot reach this table (a child reaches
/// only itself and its composition's parent host).
@usableFromInline
final class ChildReconcilers<
  Element: Identifiable, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable
> where Element.ID: Sendable {
  @usableFromInline typealias Child = ChildReconciler<
    Element, ChildEvent, ChildFailure, ChildContext, Event, Failure, Context, Element.ID
  >
  @usableFromInline typealias Host = EffectHost<Event, Failure, Context>

  /// Makes the child of an element that has none.
  @usableFromInline let make: (Element.ID, Host) -> Child
  /// What tells which element the step changed, in a system's own `forEach`; `nil` elsewhere,
  /// where every step walks every element.
  @usableFromInline let watch: ElementsWatch<Element>?
  /// Every child, with the rank of its creation, by identifier.
  @exclusivity(unchecked) @usableFromInline var byID: [Element.ID: (order: UInt64, child: Child)]
  /// The children in the order of the elements at the last step.
  @exclusivity(unchecked) @usableFromInline var ordered: [(id: Element.ID, child: Child)]
  /// The number of the step; a child seen in it carries it in `lastSeen`.
  @exclusivity(unchecked) @usableFromInline var round: UInt64 = 0
  /// The number of children made so far.
  @exclusivity(unchecked) @usableFromInline var made: UInt64 = 0

  @inlinable
  init(watch: ElementsWatch<Element>?, make: @escaping (Element.ID, Host) -> Child) {
    self.make = make
    self.watch = watch
    byID = [:]
    ordered = []
  }

  /// Brings each element's child in line with it, making the children of new elements and
  /// retiring those of vanished ones (in the order they were made).
  ///
  /// With a watch that tells that the step changed one element, or none, only that element's
  /// child is brought in line.
  @inlinable
  func reconcile(_ elements: [Element], _ host: Host) {
    if let watch, let changed = watch.onlyChange(in: elements), ordered.count == elements.count {
      if changed < 0 { return }
      // The element's identifier is checked: its own reducer may have changed it.
      let entry = ordered[changed]
      if entry.id == elements[changed].id {
        entry.child.reconcile(elements[changed])
        watch.reconciled(elements)
        return
      }
    }
    reconcileEach(elements, host)
    // A walk that a stop ended saw only some elements.
    if let watch, !host.isStopped() { watch.reconciled(elements) }
  }

  /// Brings every element's child in line with it, making the children of new elements and
  /// retiring those of vanished ones (in the order they were made).
  @inlinable
  func reconcileEach(_ elements: [Element], _ host: Host) {
    round &+= 1
    var seen = 0
    // A local copy, which lends its children without a retain each (see PerformanceLedger:
    // unretained walks).
    let ordered = ordered
    var isInOrder = elements.count == ordered.count
    for index in elements.indices {
      let id = elements[index].id
      let child: Child
      if isInOrder, ordered[index].id == id {
        child = ordered[index].child
      } else {
        isInOrder = false
        child = self.child(for: id, host)
      }
      if child.lastSeen != round {
        child.lastSeen = round
        seen += 1
      }
      child.reconcile(elements[index])
      if host.isStopped() { return }
    }
    if !isInOrder {
      self.ordered = elements.compactMap { element in
        byID[element.id].map { (element.id, $0.child) }
      }
      if let watch {
        watch.positions = Dictionary(
          elements.indices.map { (elements[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
      }
    }
    guard byID.count > seen else { return }
    let removed = byID.filter { $0.value.child.lastSeen != round }
    for (id, entry) in removed.sorted(by: { $0.value.order < $1.value.order }) {
      byID[id] = nil
      entry.child.retire()
      if host.isStopped() { return }
    }
  }

  /// The child of `id`, made if there is none.
  @inlinable
  func child(for id: Element.ID, _ host: Host) -> Child {
    if let existing = byID[id]?.child { return existing }
    let child = make(id, host)
    made &+= 1
    byID[id] = (made, child)
    return child
  }
}

/// Counts the effects the child reconcilers made while it is the task's census keep track of:
/// what tests read to check that a child forgets every effect that ended.
///
/// Children register with it in debug builds only: a release build makes no task-local lookup
/// per child.
///
/// - Invariant: ``trackedEffects`` is read on the isolation of the systems whose children it
///   counts, the only isolation their bookkeeping is used from; the lock guards only the list.
@usableFromInline
package final class ChildEffectCensus: @unchecked Sendable {
  /// The census children made in this task register with; `nil` outside tests.
  @TaskLocal @usableFromInline package static var current: ChildEffectCensus?

  private let counts = Lock<[() -> Int]>([])

  /// Creates an empty census.
  package init() {}

  /// Registers a child's count.
  @usableFromInline
  func count(_ tracked: @escaping () -> Int) {
    counts.withLock { $0.append(tracked) }
  }

  /// How many effects the registered children keep track of, in all.
  package var trackedEffects: Int {
    counts.withLock { $0 }.reduce(0) { $0 + $1() }
  }

  /// How many children registered.
  package var children: Int {
    counts.withLock(\.count)
  }
}

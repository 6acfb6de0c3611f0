import FunctionalCore

/// The reconciliation of one child feature inside a parent: its reconcilers, and the effects it
/// started, so that they live and die with the child.
///
/// The parent's feedback makes one per child (per element of a `forEach`, while an `ifLet`
/// state is present, once for a `scope`). Its host lifts the child's effects into the parent's
/// types and names their requests with the child's scope; when the child leaves the state,
/// ``retire()`` cancels exactly the effects it started.
///
/// Exclusivity: ``lastSeen`` skips the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses to it can overlap: a child is used on its system's isolation,
/// inside one reconciliation at a time, and each access is a plain read or write that calls
/// nothing.
@usableFromInline
final class ChildReconciler<
  ChildState, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable, Payload
> {
  @usableFromInline typealias ChildEffect = Effect<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline typealias ParentEffect = Effect<Event, Failure, Context>

  @usableFromInline typealias ChildLoop = Reconciler<
    ChildState, ChildEvent, ChildFailure, ChildContext
  >

  /// The child's reconcilers, walked on each step, when it has several; empty when it has one.
  @usableFromInline let reconcilers: UnretainedArray<ChildLoop>
  /// The child's reconciler when it has exactly one, the common case: kept without the two
  /// arrays an ``UnretainedArray`` allocates, so making the child allocates neither.
  @usableFromInline let only: ChildLoop?
  /// The same reconciler, lent to each step without a retain; set with ``only``, which keeps
  /// it alive for as long as the child.
  @usableFromInline let lentOnly: Unretained<ChildLoop>?
  @usableFromInline let link:
    ChildLink<ChildEvent, ChildFailure, ChildContext, Event, Failure, Context, Payload>
  @usableFromInline let host: EffectHost<ChildEvent, ChildFailure, ChildContext>
  @exclusivity(unchecked) @usableFromInline var lastSeen: UInt64 = 0

  @inlinable
  init(
    feedback: [Feedback<ChildState, ChildEvent, ChildFailure, ChildContext>],
    nodes: CompositionNodes? = nil,
    parent: EffectHost<Event, Failure, Context>,
    scope: String,
    element: Any? = nil,
    payload: Payload,
    extract: @escaping (Event, Payload) -> ChildEvent?,
    lift: @escaping (ChildEffect, Payload) -> ParentEffect
  ) {
    if feedback.count == 1 {
      let loop = Reconciler.make(feedback[0], at: 0, nodes: nodes)
      only = loop
      lentOnly = Unretained(loop)
      reconcilers = UnretainedArray()
    } else {
      only = nil
      lentOnly = nil
      reconcilers = Reconciler.make(feedback, nodes: nodes)
    }
    // The host's closures capture the one link, which is then their context: no box each.
    let link = ChildLink(
      parent: parent, scope: scope, element: element, payload: payload, extract: extract,
      lift: lift)
    self.link = link
    #if DEBUG
      // The census of a leak test (LivenessTests); a release build makes no task-local lookup.
      ChildEffectCensus.current?.count { link.effects.count }
    #endif
    host = EffectHost(
      start: { effect, request in link.start(effect, request) },
      cancel: { id in link.cancel(id) },
      isStopped: parent.isStopped,
      event: { link.event() },
      retireWhenDone: { id, forget in link.retireWhenDone(id, forget) },
      isLive: parent.isLive
    )
  }

  /// Brings the child's effects in line with its state.
  @inlinable @inline(__always)
  func reconcile(_ state: ChildState) {
    // A local to lend to the reconcilers (see ``Reconciler/reconcile``).
    var state = state
    if let lentOnly {
      Unretained(host) { host in lentOnly { $0.reconcile(&state, host) } }
    } else {
      Reconciler.reconcileEach(reconcilers, &state, Unretained(host))
    }
  }

  /// Cancels every effect the child started: it left the state.
  @usableFromInline
  func retire() {
    // Most children leave with nothing running: no set to copy and sort then.
    guard !link.effects.isEmpty else { return }
    let started = link.effects
    link.effects.removeAll()
    for id in started.sorted(by: { $0.rawValue < $1.rawValue }) {
      link.parent.cancel(id)
      if link.parent.isStopped() { return }
    }
  }
}

/// What a child's host does, in one object its closures share: the child's effects are lifted
/// into the parent's types and named with the child's scope, and the effects the child started
/// are kept, so that ``ChildReconciler/retire()`` cancels exactly those.
///
/// One object rather than a closure context each: making a child allocates it once (see
/// PerformanceLedger: a child's host in one object).
///
/// Exclusivity: ``effects`` and ``builtScope`` skip the run-time check (see PerformanceLedger:
/// exclusivity opt-outs). No two accesses can overlap: the link is used on its system's
/// isolation, and each access is a plain insertion, removal, read or write that calls nothing
/// while the property is accessed.
@usableFromInline
final class ChildLink<
  ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable, Payload
> {
  @usableFromInline typealias ChildEffect = Effect<ChildEvent, ChildFailure, ChildContext>
  @usableFromInline typealias ParentEffect = Effect<Event, Failure, Context>

  @usableFromInline let parent: EffectHost<Event, Failure, Context>
  /// The child's name in its parent (`rows`, `path`, `destination`), and the identifier of its
  /// element in a collection: the child's scope is `rows[7]`, built at its first effect.
  @usableFromInline let scope: String
  @usableFromInline let element: Any?
  @exclusivity(unchecked) @usableFromInline var builtScope: String?
  /// What the composition tells this child by (its element's identifier, the state it was
  /// presented with), handed to ``extract`` and ``lift``: the two closures are made once per
  /// composition rather than once per child (see PerformanceLedger: a child's host in one
  /// object).
  @usableFromInline let payload: Payload
  @usableFromInline let extract: (Event, Payload) -> ChildEvent?
  @usableFromInline let lift: (ChildEffect, Payload) -> ParentEffect
  /// The effects the child started that have not ended or been cancelled.
  @exclusivity(unchecked) @usableFromInline var effects: Set<EffectID> = []

  @inlinable
  init(
    parent: EffectHost<Event, Failure, Context>,
    scope: String,
    element: Any?,
    payload: Payload,
    extract: @escaping (Event, Payload) -> ChildEvent?,
    lift: @escaping (ChildEffect, Payload) -> ParentEffect
  ) {
    self.parent = parent
    self.scope = scope
    self.element = element
    self.payload = payload
    self.extract = extract
    self.lift = lift
  }

  @inlinable
  func start(_ effect: ChildEffect, _ request: EffectRequest) -> EffectID {
    let id = parent.start(lift(effect, payload), request.scoped(fullScope))
    effects.insert(id)
    return id
  }

  /// The child's scope, built once, when its first effect starts: most children never start
  /// one, and their names are never read.
  @inlinable
  var fullScope: String {
    if let builtScope { return builtScope }
    let built = element.map { "\(scope)[\($0)]" } ?? scope
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
    return extract(event, payload)
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
/// reconciliation, the only call out during the walk, cannot reach this table (a child sees only
/// its own host).
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

import FunctionalCore

/// The screens of a navigation stack.
extension Feature {
  /// Runs one child per screen of a ``Stack``: each screen's effects live exactly as long as it
  /// is on the stack.
  ///
  /// ```swift
  /// struct State: Equatable {
  ///   var path = Stack<Path.State>()
  /// }
  /// enum Event: Sendable {
  ///   case path(StackID, Path.Event)
  /// }
  ///
  /// Feature(reduce: reduce)
  ///   .forEach(Path.feature, stack: \.path, event: Event.path, context: { context, _ in context })
  /// ```
  ///
  /// The element is usually an enum of screen states whose feature is made of
  /// ``ifCase(_:case:event:extract:context:error:)`` children, one per kind of screen. Events
  /// address a screen by its ``StackID``; the screen's reducer runs first, then this feature's;
  /// an event for a screen no longer on the stack is reported as
  /// ``IgnoredEventReason/missingChild(_:)`` (`path[#3]`), never a crash. A pushed screen's
  /// effects start, a popped screen's are all cancelled and their late events dropped; a screen
  /// that dismisses itself (``dismissing(on:)``) is popped with the screens above it. Each
  /// screen's context is made once, from this feature's context and the screen's state when it
  /// was pushed. Requests and reports name a screen `path[#3]`, and its case: `path[#3].detail`.
  ///
  /// - Parameters:
  ///   - child: The feature of one screen.
  ///   - path: The stack in the state.
  ///   - embed: Wraps a screen's event, with its ID, in this feature's event.
  ///   - extract: The screen's ID and event in an event of this feature, or `nil`; by default
  ///     found by matching the case `embed` makes.
  ///   - project: A screen's context, from this feature's context and its state when pushed.
  ///   - mapError: Turns a screen's failures into this feature's.
  /// - Returns: A feature that also runs the stack's screens.
  /// - Complexity: In a system that runs this feature, an event for a screen reconciles that
  ///   screen alone when no reducer changed the stack otherwise, whatever its depth; a push, a
  ///   pop or a change by the parent reconciles every screen.
  @inlinable
  public func forEach<
    Element: Sendable, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable
  >(
    _ child: Feature<Element, ChildEvent, ChildError, ChildContext>,
    stack path: WritableKeyPath<State, Stack<Element>>,
    event embed: @escaping @Sendable (StackID, ChildEvent) -> Event,
    extract: ((Event) -> (StackID, ChildEvent)?)? = nil,
    context project: @escaping @Sendable (Context, Element) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature {
    let name = scopeName(of: path)
    let stack = StatePath(path)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childReduce = child.reduce
    let childFeedback = child.feedback
    typealias Watch = ElementsWatch<Stack<Element>.Entry>
    // The reducer around the parent's; with a system's watch, it tells the watch which screen
    // it changed.
    let makeReduce = { (parentReduce: @escaping Reduce, watch: Watch?) in
      { (state: inout State, event: Event) -> ReduceOutcome? in
        if let (id, childEvent) = extract(event) {
          let step = stack.modify(&state) { stack -> ChildStep in
            // Found from the top, where the screens users see are: no table to keep.
            guard let index = stack.index(of: id) else { return .missing }
            watch?.willChange(index, in: stack.entries)
            let outcome = childReduce(&stack.entries[index].element, childEvent)
            watch?.didChange(stack.entries)
            // A screen that dismisses itself is popped with the screens above it.
            if outcome == .dismissed { stack.entries.removeSubrange(index...) }
            return .reduced(outcome)
          }
          if let report = step.report(naming: { "\(name)[\(id)]" }) { return report }
        }
        return parentReduce(&state, event)
      }
    }
    // In a system, the reducer and the feedback share one watch of the screens (see
    // PerformanceLedger: children that did not change).
    return composed(watching: Watch(), wrapping: makeReduce, running: childFeedback) {
      watch in
      // Made once, for every screen: each child hands them its screen.
      let extractChild = { (event: Event, screen: (id: StackID, element: Element)) in
        extract(event).flatMap { $0.0 == screen.id ? $0.1 : nil }
      }
      let lift = {
        (
          effect: Effect<ChildEvent, ChildError, ChildContext>,
          screen: (id: StackID, element: Element)
        )
        in
        effect.lifted(
          embed: { embed(screen.id, $0) }, project: { project($0, screen.element) },
          mapError: mapError)
      }
      let hosting = StackChildren<
        Element, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context
      >.Child.Hosting(extract: extractChild, lift: lift, element: { $0.id })
      let children = StackChildren<
        Element, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context
      >(watch: watch) { id, element, host in
        ChildReconciler(
          feedback: childFeedback, hosting: hosting, parent: host, scope: name,
          payload: (id, element))
      }
      return Reconciler { state, host in children.reconcile(stack.get(&state), host) }
    }
  }

  /// Runs one child that cannot fail per screen of a ``Stack`` (see
  /// ``forEach(_:stack:event:extract:context:error:)``).
  ///
  /// - Parameters:
  ///   - child: The feature of one screen.
  ///   - path: The stack in the state.
  ///   - embed: Wraps a screen's event, with its ID, in this feature's event.
  ///   - extract: The screen's ID and event in an event of this feature, or `nil`.
  ///   - project: A screen's context, from this feature's context and its state when pushed.
  /// - Returns: A feature that also runs the stack's screens.
  @inlinable
  public func forEach<Element: Sendable, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<Element, ChildEvent, Never, ChildContext>,
    stack path: WritableKeyPath<State, Stack<Element>>,
    event embed: @escaping @Sendable (StackID, ChildEvent) -> Event,
    extract: ((Event) -> (StackID, ChildEvent)?)? = nil,
    context project: @escaping @Sendable (Context, Element) -> ChildContext
  ) -> Feature {
    forEach(
      child, stack: path, event: embed, extract: extract, context: project, error: absurd)
  }
}

/// The children of a stack's screens in one system, by presentation identity.
///
/// Inlinable, like the other compositions, so a system's steps run code specialized for its
/// types (see PerformanceLedger: specialization).
///
/// Exclusivity: ``identities`` and ``children`` skip the run-time check (see PerformanceLedger:
/// exclusivity opt-outs). No two accesses can overlap: the table is used on its system's
/// isolation, inside one reconciliation at a time; each access is over before anything is
/// called (``reconcile(_:_:)`` walks a copy of ``children``; a popped child is retired once
/// removed; a pushed one is made before it is appended), and what is called (a child's
/// reconciliation, its retirement, the hooks a cancellation reaches) cannot reach this table:
/// a child reaches only itself and its composition's parent host, and a hook's events wait for
/// the step to end.
@usableFromInline
final class StackChildren<
  Element, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable
> {
  @usableFromInline typealias Child = ChildReconciler<
    Element, ChildEvent, ChildFailure, ChildContext, Event, Failure, Context,
    (id: StackID, element: Element)
  >
  @usableFromInline typealias Host = EffectHost<Event, Failure, Context>

  /// Makes the child of a pushed screen.
  @usableFromInline let make: (StackID, Element, Host) -> Child
  /// What tells which screen the step changed, in a system's own stack; `nil` elsewhere, where
  /// every step walks every screen.
  @usableFromInline let watch: ElementsWatch<Stack<Element>.Entry>?
  /// The presentation identities of the screens the children belong to, bottom to top.
  @exclusivity(unchecked) @usableFromInline var identities: [PresentationIdentity] = []
  /// The children, at the same positions as their identities.
  @exclusivity(unchecked) @usableFromInline var children: [Child] = []

  @inlinable
  init(
    watch: ElementsWatch<Stack<Element>.Entry>?,
    make: @escaping (StackID, Element, Host) -> Child
  ) {
    self.make = make
    self.watch = watch
  }

  /// Reconciles each screen's child, making those of pushed screens and retiring those of
  /// popped ones, the top one first.
  ///
  /// With a watch that tells that the step changed one screen, or none, only that screen's
  /// child is brought in line.
  @inlinable
  func reconcile(_ stack: Stack<Element>, _ host: Host) {
    let entries = stack.entries
    if let watch, let changed = watch.onlyChange(in: entries), children.count == entries.count {
      if changed < 0 { return }
      children[changed].reconcile(entries[changed].element)
      watch.reconciled(entries)
      return
    }
    if !isInStep(with: entries) {
      rebuild(for: entries, host)
      if host.isStopped() { return }
    }
    let children = self.children
    for index in entries.indices {
      children[index].reconcile(entries[index].element)
      if host.isStopped() { return }
    }
    watch?.reconciled(entries)
  }

  /// Whether the children are those of `entries`, in order: the common step, where no screen
  /// was pushed or popped.
  @inlinable
  func isInStep(with entries: [Stack<Element>.Entry]) -> Bool {
    guard identities.count == entries.count else { return false }
    for index in entries.indices where identities[index] != entries[index].identity {
      return false
    }
    return true
  }

  /// Retires the children of popped screens, top first, and makes those of pushed ones.
  ///
  /// Pushes and pops change only the top of the stack: the children below the first change
  /// are kept as they are; only a stack rebuilt in another order looks children up by identity.
  @inlinable
  func rebuild(for entries: [Stack<Element>.Entry], _ host: Host) {
    var common = 0
    while common < identities.count, common < entries.count,
      identities[common] == entries[common].identity
    {
      common += 1
    }
    let isPushOrPop =
      common == identities.count || common == entries.count
      || !entries[common...].contains { entry in identities[common...].contains(entry.identity) }
    guard isPushOrPop else { return reorder(for: entries, host) }
    while identities.count > common {
      identities.removeLast()
      children.removeLast().retire()
      if host.isStopped() { return }
    }
    for entry in entries[common...] {
      identities.append(entry.identity)
      children.append(make(entry.id, entry.element, host))
    }
  }

  /// Rebuilds the children of a stack whose screens moved: kept ones by identity, the others
  /// retired (top first) or made.
  @usableFromInline
  func reorder(for entries: [Stack<Element>.Entry], _ host: Host) {
    let kept = Set(entries.map(\.identity))
    var byIdentity: [PresentationIdentity: Child] = [:]
    for (identity, child) in zip(identities, children).reversed() {
      guard kept.contains(identity) else {
        child.retire()
        if host.isStopped() { return }
        continue
      }
      byIdentity[identity] = child
    }
    identities = entries.map(\.identity)
    children = entries.map { entry in
      byIdentity.removeValue(forKey: entry.identity) ?? make(entry.id, entry.element, host)
    }
  }
}

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
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let parentReduce = reduce
    let childReduce = child.reduce
    let childDismissal = child.dismissal
    let childFeedback = child.feedback
    let reduce: (inout State, Event) -> MissingChild? = { state, event in
      if let (id, childEvent) = extract(event) {
        guard let index = state[keyPath: path].index(of: id) else {
          return MissingChild(scope: "\(name)[\(id)]")
        }
        let missing = childReduce(&state[keyPath: path].entries[index].element, childEvent)
        if childDismissal?(childEvent) == true {
          state[keyPath: path].entries.removeSubrange(index...)
        }
        if let missing { return missing.within("\(name)[\(id)]") }
      }
      return parentReduce(&state, event)
    }
    guard !childFeedback.isEmpty else {
      return Feature(reduce: reduce, feedback: feedback, dismissal: dismissal)
    }
    let screens = Feedback<State, Event, ErrorType, Context> { _ in
      let children = StackChildren<
        Element, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context
      > { id, element, host in
        ChildReconciler(
          feedback: childFeedback, parent: host, scope: "\(name)[\(id)]",
          extract: { event in extract(event).flatMap { $0.0 == id ? $0.1 : nil } },
          lift: { effect in
            effect.lifted(
              embed: { embed(id, $0) }, project: { project($0, element) }, mapError: mapError)
          })
      }
      return Reconciler { state, host in children.reconcile(state[keyPath: path], host) }
    }
    return Feature(reduce: reduce, feedback: feedback + [screens], dismissal: dismissal)
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
final class StackChildren<
  Element, ChildEvent: Sendable, ChildFailure: Error, ChildContext: Sendable,
  Event: Sendable, Failure: Error, Context: Sendable
> {
  typealias Child = ChildReconciler<
    Element, ChildEvent, ChildFailure, ChildContext, Event, Failure, Context
  >
  typealias Host = EffectHost<Event, Failure, Context>

  /// Makes the child of a pushed screen.
  let make: (StackID, Element, Host) -> Child
  /// The children, from the bottom of the stack to the top.
  private var children: [(identity: PresentationIdentity, child: Child)] = []

  init(make: @escaping (StackID, Element, Host) -> Child) {
    self.make = make
  }

  /// Reconciles each screen's child, making those of pushed screens and retiring those of
  /// popped ones, the top one first.
  func reconcile(_ stack: Stack<Element>, _ host: Host) {
    let entries = stack.entries
    if !children.elementsEqual(entries, by: { $0.identity == $1.identity }) {
      let kept = Set(entries.map(\.identity))
      let popped = children.filter { !kept.contains($0.identity) }
      var byIdentity = Dictionary(
        children.lazy.filter { kept.contains($0.identity) }.map { ($0.identity, $0.child) },
        uniquingKeysWith: { first, _ in first })
      children = []
      for (_, child) in popped.reversed() {
        child.retire()
        if host.isStopped() { return }
      }
      for entry in entries {
        let child =
          byIdentity.removeValue(forKey: entry.identity)
          ?? make(entry.id, entry.element, host)
        children.append((entry.identity, child))
      }
    }
    for index in entries.indices {
      children[index].child.reconcile(entries[index].element)
      if host.isStopped() { return }
    }
  }
}

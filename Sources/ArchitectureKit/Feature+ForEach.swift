/// Composition: one child feature per element of a collection.
extension Feature {
  /// Runs one child feature per element of an array of identified states.
  ///
  /// Each element runs the child's reducer on the events meant for its identifier, then this
  /// feature's reducer runs on the same event. Each element has its own effects, with the
  /// request semantics the child has alone: an element that appears starts its requests, two
  /// elements with equal requests run two effects, and an element removed from the array has
  /// exactly its effects cancelled (their late results are dropped). Requests are named with
  /// the element, as in `rows[7]: image`. An event for an identifier that no element has is
  /// not reduced, and is reported as ``IgnoredEventReason/missingChild(_:)``.
  ///
  /// ```swift
  /// static var feature: Feature<State, Event, Never, Context> {
  ///   Feature(reduce: reduce)
  ///     .forEach(
  ///       Row.feature, elements: \.rows, event: Event.row,
  ///       extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
  ///       context: \.row)
  /// }
  /// ```
  ///
  /// Identifiers must be unique in the array, as for SwiftUI's `ForEach`.
  ///
  /// - Parameters:
  ///   - child: The feature of one element.
  ///   - path: Where the elements live in this feature's state.
  ///   - embed: Turns an element's event into this feature's event.
  ///   - extract: The element's identifier and event in one of this feature's events; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  ///   - mapError: Turns a child failure into this feature's failure.
  /// - Returns: This feature, with one child running per element.
  /// - Complexity: In a system that runs this feature, an event for one element finds it and
  ///   reconciles it alone, in O(1) for *n* elements, when no reducer changed the array
  ///   otherwise; a step that changed the array (an element added, removed, moved, or changed
  ///   by the parent) reconciles every element, in O(*n*). Elements must be values: a change
  ///   made through a reference they hold is not a change of the array. The same holds in a
  ///   ``scope(_:state:event:extract:context:error:)`` child; inside a child that comes and goes
  ///   (a row, an `ifLet` or a presented child), or when the child has an event-triggered loop
  ///   with `until:`, every step reconciles every element. While something else holds the
  ///   array (an observer, a binding or a view of it), an event also copies it, in O(*n*).
  @inlinable
  public func forEach<
    Element: Identifiable, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable
  >(
    _ child: Feature<Element, ChildEvent, ChildError, ChildContext>,
    elements path: WritableKeyPath<State, [Element]>,
    event embed: @escaping @Sendable (Element.ID, ChildEvent) -> Event,
    extract: ((Event) -> (Element.ID, ChildEvent)?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature where Element.ID: Sendable {
    let name = scopeName(of: path)
    let elements = StatePath(path)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childReduce = child.reduce
    let childFeedback = child.feedback
    // The reducer around the parent's; with a system's watch, it finds the element at its
    // known position and tells the watch which element it changed.
    let makeReduce = { (parentReduce: @escaping Reduce, watch: ElementsWatch<Element>?) in
      { (state: inout State, event: Event) -> ReduceOutcome? in
        if let (id, childEvent) = extract(event) {
          let step = elements.modify(&state) { elements -> ChildStep in
            let found = watch?.index(of: id, in: elements) ?? elements.firstIndex { $0.id == id }
            guard let index = found else { return .missing }
            watch?.willChange(index, in: elements)
            let outcome = childReduce(&elements[index], childEvent)
            watch?.didChange(elements)
            // A child that ends its own presentation leaves the collection.
            if outcome == .dismissed { elements.remove(at: index) }
            return .reduced(outcome)
          }
          if let report = step.report(naming: { "\(name)[\(id)]" }) { return report }
        }
        return parentReduce(&state, event)
      }
    }
    // In a system, the reducer and the feedback share one watch of the elements (see
    // PerformanceLedger: children that did not change).
    return composed(
      watching: ElementsWatch<Element>(), wrapping: makeReduce, running: childFeedback
    ) { watch in
      // Made once, for every element: each child hands them its identifier.
      let extractChild = { (event: Event, id: Element.ID) in
        extract(event).flatMap { $0.0 == id ? $0.1 : nil }
      }
      let lift = { (effect: Effect<ChildEvent, ChildError, ChildContext>, id: Element.ID) in
        effect.lifted(embed: { embed(id, $0) }, project: project, mapError: mapError)
      }
      let hosting = ChildHosting<
        Element, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, Element.ID
      >(extract: extractChild, lift: lift, element: { $0 })
      let children = ChildReconcilers<
        Element, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context
      >(watch: watch) { id, host in
        ChildReconciler(
          feedback: childFeedback, hosting: hosting, parent: host, scope: name,
          payload: id)
      }
      // The closure captures the one object, which is then its context.
      return Reconciler { state, host in children.reconcile(elements.get(&state), host) }
    }
  }

  /// Runs one child feature that cannot fail per element of an array of identified states.
  ///
  /// See ``forEach(_:elements:event:extract:context:error:)``.
  ///
  /// - Parameters:
  ///   - child: The feature of one element.
  ///   - path: Where the elements live in this feature's state.
  ///   - embed: Turns an element's event into this feature's event.
  ///   - extract: The element's identifier and event in one of this feature's events; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  /// - Returns: This feature, with one child running per element.
  @inlinable
  public func forEach<Element: Identifiable, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<Element, ChildEvent, Never, ChildContext>,
    elements path: WritableKeyPath<State, [Element]>,
    event embed: @escaping @Sendable (Element.ID, ChildEvent) -> Event,
    extract: ((Event) -> (Element.ID, ChildEvent)?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext
  ) -> Feature where Element.ID: Sendable {
    forEach(
      child, elements: path, event: embed, extract: extract, context: project, error: absurd)
  }
}

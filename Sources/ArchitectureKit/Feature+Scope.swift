/// Composition: a child feature on a part of the parent's state.
extension Feature {
  /// Runs a child feature on a part of this feature's state.
  ///
  /// The child's reducer runs on the events `extract` finds in this feature's events, first,
  /// then this feature's reducer runs on the same event, so a parent reacts to what its child
  /// did (the delegate pattern). *All* the child's feedback comes along with the request
  /// semantics it has alone: its requests are derived from the child's state, its effects get
  /// the projected context, their events come back embedded and their failures mapped. The
  /// child's requests are named with its scope (the key path's name), as in `search: query`.
  ///
  /// ```swift
  /// static var feature: Feature<State, Event, Never, Context> {
  ///   Feature(reduce: reduce)
  ///     .scope(
  ///       Search.feature, state: \.search, event: Event.search,
  ///       extract: { if case .search(let event) = $0 { event } else { nil } },
  ///       context: \.search)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - child: The child feature.
  ///   - path: Where the child's state lives in this feature's state.
  ///   - embed: Turns a child event into this feature's event.
  ///   - extract: The child event in one of this feature's events, if it holds one; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  ///   - mapError: Turns a child failure into this feature's failure.
  /// - Returns: This feature, with the child running inside it.
  @inlinable
  public func scope<ChildState, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, ChildError, ChildContext>,
    state path: WritableKeyPath<State, ChildState>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature {
    let name = scopeName(of: path)
    let childState = StatePath(path)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childFeedback = child.feedback
    let makeReduce = {
      (
        parentReduce: @escaping Reduce,
        childReduce:
          @escaping Feature<
            ChildState, ChildEvent, ChildError, ChildContext
          >.Reduce
      ) -> Reduce in
      { state, event in
        // A child that ends its presentation ends the presentation of the feature it is part of.
        var isDismissed = false
        if let childEvent = extract(event),
          let outcome = childState.modify(&state, { childReduce(&$0, childEvent) })
        {
          guard outcome == .dismissed else { return outcome.within(name) }
          isDismissed = true
        }
        let outcome = parentReduce(&state, event)
        return isDismissed && outcome == nil ? .dismissed : outcome
      }
    }
    // The one child of each system, made at its first reconciliation; with the system's
    // nodes, its compositions share their bookkeeping as the system's own do.
    let makeReconciler = { (nodes: CompositionNodes?) in
      let reconciler = Bookkeeping<
        ChildReconciler<
          ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, Void
        >?
      >(nil)
      let hosting = ChildHosting<
        ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, Void
      >(extract: extract, embed: embed, project: project, mapError: mapError)
      return Reconciler<State, Event, ErrorType, Context> { state, host in
        let child =
          reconciler.value
          ?? ChildReconciler(
            feedback: childFeedback, nodes: nodes, hosting: hosting, parent: host, scope: name,
            payload: ())
        reconciler.value = child
        child.reconcile(childState.get(&state))
      }
    }
    // A scoped child is one per system: in a system, it runs as the system's own feature
    // would, with nodes of its own (the same child may be scoped twice).
    let token = CompositionToken()
    let parentReduce = reduce
    let parentSystemReduce = systemReduce
    let childReduce = child.reduce
    let childSystemReduce = child.systemReduce
    let systemReduce: ((CompositionNodes) -> Reduce)? =
      parentSystemReduce == nil && childSystemReduce == nil
      ? nil
      : { nodes in
        makeReduce(
          parentSystemReduce?(nodes) ?? parentReduce,
          childSystemReduce?(nodes.scoped(token)) ?? childReduce)
      }
    let feedback =
      childFeedback.isEmpty
      ? self.feedback
      : self.feedback + [
        Feedback(
          reconcilesEveryStep: childFeedback.contains { $0.reconcilesEveryStep },
          makeReconciler: { _ in makeReconciler(nil) },
          makeSystemReconciler: { _, nodes in makeReconciler(nodes.scoped(token)) })
      ]
    return Feature(
      reduce: makeReduce(parentReduce, childReduce), systemReduce: systemReduce,
      feedback: feedback)
  }

  /// Runs a child feature that cannot fail on a part of this feature's state.
  ///
  /// See ``scope(_:state:event:extract:context:error:)``.
  ///
  /// - Parameters:
  ///   - child: The child feature.
  ///   - path: Where the child's state lives in this feature's state.
  ///   - embed: Turns a child event into this feature's event.
  ///   - extract: The child event in one of this feature's events, if it holds one; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  /// - Returns: This feature, with the child running inside it.
  @inlinable
  public func scope<ChildState, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, Never, ChildContext>,
    state path: WritableKeyPath<State, ChildState>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext
  ) -> Feature {
    scope(
      child, state: path, event: embed, extract: extract, context: project, error: absurd)
  }
}

/// Maps a failure that cannot happen to any type: the error mapping of a child that cannot
/// fail.
@usableFromInline
func absurd<Failure>(_ never: Never) -> Failure {}

/// The name of a child's scope: the key path's components after its root, as in `search`.
///
/// A computed property prints as its getter's address, which changes from run to run; such a
/// component is named by its type instead (`computed Optional<Settings>`), so names stay
/// stable. A ``Presented`` child is named by its property (see `PresentedField`).
@usableFromInline
func scopeName(of path: AnyKeyPath) -> String {
  var text = "\(path)"
  while let start = text.firstRange(of: "<computed 0x"),
    let open = text[start.upperBound...].firstRange(of: " ("),
    let close = text[open.upperBound...].firstRange(of: ")>")
  {
    let type = unqualified(text[open.upperBound..<close.lowerBound])
    text.replaceSubrange(start.lowerBound..<close.upperBound, with: "(computed \(type))")
  }
  let root = "\\\(type(of: path).rootType)."
  if text.hasPrefix(root) { return String(text.dropFirst(root.count)) }
  // Key paths of nested types print their root's full name.
  guard let dot = text.firstIndex(of: "("), text.hasPrefix("\\") else {
    guard let dot = text.lastIndex(of: "."), text.hasPrefix("\\") else { return text }
    return String(text[text.index(after: dot)...])
  }
  // A computed component: the root's name ends at the dot before it.
  let head = text[..<dot]
  guard let rootEnd = head.lastIndex(of: ".") else { return String(text[dot...]) }
  return String(text[text.index(after: rootEnd)...])
}

/// A type's description with each qualified name cut to its last part:
/// `Optional<Shop.Page.State>` is `Optional<State>`.
func unqualified(_ type: Substring) -> String {
  var result = ""
  var name = ""
  for character in type {
    if character.isLetter || character.isNumber || character == "_" {
      name.append(character)
    } else if character == "." {
      name = ""
    } else {
      result += name
      name = ""
      result.append(character)
    }
  }
  return result + name
}

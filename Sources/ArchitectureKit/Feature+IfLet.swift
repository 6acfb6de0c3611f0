/// Composition: a child feature that runs while its optional state is present.
extension Feature {
  /// Runs a child feature while an optional part of this feature's state is present.
  ///
  /// While the state is non-`nil`, the child runs as with
  /// ``scope(_:state:event:extract:context:error:)``. When it becomes `nil`, the child's
  /// effects are cancelled; when it is present again, the child starts afresh. An event for
  /// the child while its state is `nil` is not reduced, and is reported as
  /// ``IgnoredEventReason/missingChild(_:)``.
  ///
  /// ```swift
  /// static var feature: Feature<State, Event, Never, Context> {
  ///   Feature(reduce: reduce)
  ///     .ifLet(
  ///       Detail.feature, state: \.detail, event: Event.detail,
  ///       extract: { if case .detail(let event) = $0 { event } else { nil } },
  ///       context: \.detail)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - child: The child feature.
  ///   - path: Where the child's optional state lives in this feature's state.
  ///   - embed: Turns a child event into this feature's event.
  ///   - extract: The child event in one of this feature's events, if it holds one; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  ///   - mapError: Turns a child failure into this feature's failure.
  /// - Returns: This feature, with the child running inside it while its state is present.
  @inlinable
  public func ifLet<ChildState, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, ChildError, ChildContext>,
    state path: WritableKeyPath<State, ChildState?>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature {
    let name = scopeName(of: path)
    let optionalState = StatePath(path)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childReduce = child.reduce
    let childFeedback = child.feedback
    let wrap: (@escaping Reduce) -> Reduce = { parentReduce in
      { state, event in
        if let childEvent = extract(event) {
          let step = optionalState.modify(&state) { optional -> ChildStep in
            // Moved out, so the reducer changes the child's state in place rather than a copy.
            guard var childState = optional.take() else { return .missing }
            let outcome = childReduce(&childState, childEvent)
            // A child that ends its own presentation stays `nil`.
            if outcome != .dismissed { optional = childState }
            return .reduced(outcome)
          }
          if let report = step.report(naming: { name }) { return report }
        }
        return parentReduce(&state, event)
      }
    }
    return composed(wrapping: wrap, running: childFeedback) { _ in
      let reconciler = Bookkeeping<
        ChildReconciler<
          ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, Void
        >?
      >(nil)
      // Made once, for every appearance of the child.
      let hosting = ChildHosting<
        ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, Void
      >(extract: extract, embed: embed, project: project, mapError: mapError)
      return Reconciler { state, host in
        guard let childState = optionalState.get(&state) else {
          reconciler.value?.retire()
          reconciler.value = nil
          return
        }
        let child =
          reconciler.value
          ?? ChildReconciler(
            feedback: childFeedback, hosting: hosting, parent: host, scope: name, payload: ())
        reconciler.value = child
        child.reconcile(childState)
      }
    }
  }

  /// Runs a child feature that cannot fail while an optional part of this feature's state is
  /// present.
  ///
  /// See ``ifLet(_:state:event:extract:context:error:)``.
  ///
  /// - Parameters:
  ///   - child: The child feature.
  ///   - path: Where the child's optional state lives in this feature's state.
  ///   - embed: Turns a child event into this feature's event.
  ///   - extract: The child event in one of this feature's events, if it holds one; by
  ///     default found by reflection, as the case `embed` makes.
  ///   - project: The child's context, from this feature's context.
  /// - Returns: This feature, with the child running inside it while its state is present.
  @inlinable
  public func ifLet<ChildState, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, Never, ChildContext>,
    state path: WritableKeyPath<State, ChildState?>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context) -> ChildContext
  ) -> Feature {
    ifLet(child, state: path, event: embed, extract: extract, context: project, error: absurd)
  }
}

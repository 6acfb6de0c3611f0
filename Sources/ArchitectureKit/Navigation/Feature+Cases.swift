import FunctionalCore

/// Children on the cases of an enum state: destinations, the screens of a stack.
extension Feature {
  /// Runs a child feature while this feature's state, an enum, is in one case: one line per
  /// case of a destination or a stack's screens, with no hand-written case accessors.
  ///
  /// ```swift
  /// enum Destination {
  ///   enum State: Equatable { case settings(Settings.State), detail(Detail.State) }
  ///   enum Event: Sendable { case settings(Settings.Event), detail(Detail.Event) }
  ///
  ///   static var feature: Feature<State, Event, Never, AppContext> {
  ///     Feature(reduce: { _, _ in })
  ///       .ifCase(Settings.feature, case: State.settings, event: Event.settings,
  ///               context: { app, _ in app.settings })
  ///       .ifCase(Detail.feature, case: State.detail, event: Event.detail,
  ///               context: { app, detail in app.api(for: detail.product) })
  ///   }
  /// }
  /// ```
  ///
  /// The child's reducer runs on its events while the state is in the case, and its result is
  /// put back in the same case; an event for a case the state is not in is reported as
  /// ``IgnoredEventReason/missingChild(_:)``, named by the case. The child's effects start when
  /// the state enters the case and are all cancelled when it leaves (another case, or the
  /// presentation ends); its context is made once per entry, from this feature's context and
  /// the state the case was entered with — a detail screen gets the API of the product it
  /// shows. Requests and reports name the child by its case: `settings`, and from the parent
  /// `destination.settings`.
  ///
  /// The case is read by reflection, once per step that needs it; `extract:` spares the event's
  /// reflection on hot paths (see ``scope(_:state:event:extract:context:error:)``).
  ///
  /// - Parameters:
  ///   - child: The feature of the case's payload.
  ///   - embedState: The case, as a function from its payload: `State.settings`.
  ///   - embed: Wraps a child event in this feature's event: `Event.settings`.
  ///   - extract: The child's event in an event of this feature, or `nil`; by default found by
  ///     matching the case `embed` makes.
  ///   - project: The child's context, from this feature's context and the state the case was
  ///     entered with.
  ///   - mapError: Turns the child's failures into this feature's.
  /// - Returns: A feature that also runs the child in its case.
  @inlinable
  public func ifCase<
    ChildState: Sendable, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable
  >(
    _ child: Feature<ChildState, ChildEvent, ChildError, ChildContext>,
    case embedState: @escaping @Sendable (ChildState) -> State,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context, ChildState) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature {
    let matcher = CaseMatcher(embed: embedState)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childReduce = child.reduce
    let childFeedback = child.feedback
    let wrap: (@escaping Reduce) -> Reduce = { parentReduce in
      { state, event in
        // A case that ends its presentation ends the presentation of the enum it is part of.
        var isDismissed = false
        if let childEvent = extract(event) {
          guard var childState = matcher.extract(state) else {
            return .missingChild(caseLabel(of: event) ?? "\(ChildState.self)")
          }
          let outcome = childReduce(&childState, childEvent)
          state = embedState(childState)
          if let outcome {
            guard outcome == .dismissed else { return outcome.within(caseLabel(of: state) ?? "") }
            isDismissed = true
          }
        }
        let outcome = parentReduce(&state, event)
        return isDismissed && outcome == nil ? .dismissed : outcome
      }
    }
    return composed(wrapping: wrap, running: childFeedback) { _ in
      let runtime = Bookkeeping<
        ChildReconciler<
          ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, ChildState
        >?
      >(nil)
      // Made once, for every time the case is entered: each hands it its first state.
      let hosting = ChildHosting<
        ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, ChildState
      >(extract: extract, embed: embed, project: project, mapError: mapError)
      return Reconciler { state, host in
        guard let childState = matcher.extract(state) else {
          runtime.value?.retire()
          runtime.value = nil
          return
        }
        let child =
          runtime.value
          ?? ChildReconciler(
            feedback: childFeedback, hosting: hosting, parent: host,
            scope: caseLabel(of: state) ?? "", payload: childState)
        runtime.value = child
        child.reconcile(childState)
      }
    }
  }

  /// Runs a child feature that cannot fail while this feature's state is in one case (see
  /// ``ifCase(_:case:event:extract:context:error:)``).
  ///
  /// - Parameters:
  ///   - child: The feature of the case's payload.
  ///   - embedState: The case, as a function from its payload: `State.settings`.
  ///   - embed: Wraps a child event in this feature's event: `Event.settings`.
  ///   - extract: The child's event in an event of this feature, or `nil`.
  ///   - project: The child's context, from this feature's context and the state the case was
  ///     entered with.
  /// - Returns: A feature that also runs the child in its case.
  @inlinable
  public func ifCase<ChildState: Sendable, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, Never, ChildContext>,
    case embedState: @escaping @Sendable (ChildState) -> State,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context, ChildState) -> ChildContext
  ) -> Feature {
    ifCase(
      child, case: embedState, event: embed, extract: extract, context: project, error: absurd)
  }
}

import FunctionalCore

/// Presented children: sheets, destinations, alerts, each presentation a new child.
extension Feature {
  /// Runs a child feature while a ``Presented`` state holds it, as a new child for each
  /// presentation.
  ///
  /// ```swift
  /// struct State: Equatable {
  ///   @Presented var destination: Destination.State?
  /// }
  /// enum Event: Sendable {
  ///   case destination(Destination.Event)
  ///   case settingsTapped
  /// }
  ///
  /// Feature(reduce: reduce)
  ///   .presents(Destination.feature, state: \.$destination, event: Event.destination,
  ///             context: { context, _ in context })
  /// ```
  ///
  /// The child's reducer runs on its events before this feature's (child first, then parent);
  /// an event while nothing is presented is reported as
  /// ``IgnoredEventReason/missingChild(_:)``. Each presentation is a new child: when the
  /// state is assigned (`state.destination = .settings(…)`, even an equal value), set to
  /// `nil`, or dismissed by the child (``dismissing(on:)``), every effect of the previous
  /// child is cancelled — equal requests included — and its late events are dropped; a change
  /// made in place (`state.destination?.…`, the child's reducer) keeps the child and its
  /// effects, under the request semantics. The child's context is made once per presentation,
  /// from this feature's context and the presented state. Requests and reports name the child
  /// by the property: `destination`, and with an enum destination, `destination.settings`.
  ///
  /// - Parameters:
  ///   - child: The presented feature.
  ///   - path: The key path of the ``Presented`` wrapper: `\.$destination`, or a stored
  ///     `Presented` property. The wrapper is read and written where the first state keeps it,
  ///     so a computed property of the app's must only forward to one wrapper: not choose it by
  ///     the state, nor do more in its setter (a debug build reports a path that stops reading
  ///     where it did).
  ///   - embed: Wraps a child event in this feature's event.
  ///   - extract: The child's event in an event of this feature, or `nil`; by default found by
  ///     matching the case `embed` makes.
  ///   - project: The child's context, from this feature's context and the presented state.
  ///   - mapError: Turns the child's failures into this feature's.
  /// - Returns: A feature that also runs the presented child.
  @inlinable
  public func presents<
    ChildState: Sendable, ChildEvent: Sendable, ChildError: Error, ChildContext: Sendable
  >(
    _ child: Feature<ChildState, ChildEvent, ChildError, ChildContext>,
    state path: WritableKeyPath<State, Presented<ChildState>>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context, ChildState) -> ChildContext,
    error mapError: @escaping @Sendable (ChildError) -> ErrorType
  ) -> Feature {
    let presented = PresentedField(path)
    let extract = extract ?? CaseMatcher(embed: embed).extract
    let childReduce = child.reduce
    let childFeedback = child.feedback
    let wrap: (@escaping Reduce) -> Reduce = { parentReduce in
      { state, event in
        if let childEvent = extract(event) {
          let step = presented.modify(&state) { wrapper -> ChildStep in
            // Moved out, so the reducer changes it in place; put back under the same identity.
            guard var childState = wrapper.value.take() else { return .missing }
            let outcome = childReduce(&childState, childEvent)
            if outcome == .dismissed {
              wrapper.wrappedValue = nil
            } else {
              wrapper.value = childState
            }
            return .reduced(outcome)
          }
          if let report = step.report(naming: { presented.name(in: state) }) { return report }
        }
        return parentReduce(&state, event)
      }
    }
    return composed(wrapping: wrap, running: childFeedback) { _ in
      typealias Child = ChildReconciler<
        ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, ChildState
      >
      // The child, and the same child unretained for its calls: `presentation` holds it while
      // it reconciles or retires, as nothing in a reconciliation re-enters this reconciler,
      // which alone replaces it (see PerformanceLedger: a presented child called unretained).
      let presentation = Bookkeeping<
        (identity: PresentationIdentity, child: Child, unretained: Unretained<Child>)?
      >(nil)
      // Made once, for every presentation: each hands it the state it was presented with.
      let hosting = ChildHosting<
        ChildState, ChildEvent, ChildError, ChildContext, Event, ErrorType, Context, ChildState
      >(extract: extract, embed: embed, project: project, mapError: mapError)
      return Reconciler { state, host in
        let wrapper = presented.get(&state)
        guard let childState = wrapper.value else {
          presentation.value?.unretained { $0.retire() }
          presentation.value = nil
          return
        }
        if presentation.value?.identity == wrapper.identity,
          let current = presentation.value?.unretained
        {
          current { $0.reconcile(childState) }
          return
        }
        if let previous = presentation.value {
          presentation.value = nil
          previous.child.retire()
          if host.isStopped() { return }
        }
        let child = ChildReconciler(
          feedback: childFeedback, hosting: hosting, parent: host,
          scope: presented.name(in: state), payload: childState)
        presentation.value = (wrapper.identity, child, Unretained(child))
        child.reconcile(childState)
      }
    }
  }

  /// Runs a presented child feature that cannot fail (see
  /// ``presents(_:state:event:extract:context:error:)``).
  ///
  /// - Parameters:
  ///   - child: The presented feature.
  ///   - path: The key path of the ``Presented`` wrapper: `\.$destination`, or a stored
  ///     `Presented` property (see ``presents(_:state:event:extract:context:error:)``).
  ///   - embed: Wraps a child event in this feature's event.
  ///   - extract: The child's event in an event of this feature, or `nil`.
  ///   - project: The child's context, from this feature's context and the presented state.
  /// - Returns: A feature that also runs the presented child.
  @inlinable
  public func presents<ChildState: Sendable, ChildEvent: Sendable, ChildContext: Sendable>(
    _ child: Feature<ChildState, ChildEvent, Never, ChildContext>,
    state path: WritableKeyPath<State, Presented<ChildState>>,
    event embed: @escaping @Sendable (ChildEvent) -> Event,
    extract: ((Event) -> ChildEvent?)? = nil,
    context project: @escaping @Sendable (Context, ChildState) -> ChildContext
  ) -> Feature {
    presents(
      child, state: path, event: embed, extract: extract, context: project, error: absurd)
  }

  /// Presents an alert or a confirmation dialog kept in a ``Presented`` ``DialogState``: a tap
  /// on a button sends `embed(button.action)` and dismisses the dialog.
  ///
  /// ```swift
  /// Feature(reduce: reduce).dialog(\.$confirmation, event: Event.confirmation)
  /// ```
  ///
  /// The dialog is dismissed before this feature's reducer runs on the tap, so the reducer
  /// sees it gone and may present another.
  ///
  /// - Parameters:
  ///   - path: The key path of the ``Presented`` dialog: `\.$confirmation`, or a stored
  ///     `Presented` property (see ``presents(_:state:event:extract:context:error:)``).
  ///   - embed: The event of a tap: the button's action, `nil` for a button without one.
  /// - Returns: A feature that also presents the dialog.
  @inlinable
  public func dialog<Action: Sendable>(
    _ path: WritableKeyPath<State, Presented<DialogState<Action>>>,
    event embed: @escaping @Sendable (Action?) -> Event
  ) -> Feature {
    let presented = PresentedField(path)
    let extract = CaseMatcher(embed: embed).extract
    return wrapping { parentReduce in
      { state, event in
        if extract(event) != nil {
          let shown = presented.modify(&state) { dialog in
            guard dialog.value != nil else { return false }
            dialog.wrappedValue = nil
            return true
          }
          guard shown else { return .missingChild(presented.name(in: state)) }
        }
        return parentReduce(&state, event)
      }
    }
  }
}

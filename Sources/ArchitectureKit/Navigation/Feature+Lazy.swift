import FunctionalCore

/// Features that contain themselves.
extension Feature {
  /// A feature built the first time a system needs it: how a feature contains itself — a tree
  /// of nested rows, a screen that can push another of its kind.
  ///
  /// ```swift
  /// enum Node {
  ///   struct State: Equatable, Identifiable { let id: Int; var children: [State] = [] }
  ///   indirect enum Event: Sendable { case add(Int), child(Int, Event) }
  ///
  ///   static var feature: Feature<State, Event, Never, Void> {
  ///     Feature(reduce: { node, event in
  ///       if case .add(let id) = event { node.children.append(State(id: id)) }
  ///     })
  ///     .forEach(.lazy { Node.feature }, elements: \.children, event: Event.child,
  ///              context: { $0 })
  ///   }
  /// }
  /// ```
  ///
  /// Composing `Node.feature` into itself directly would build it forever; `lazy` builds the
  /// inner one when a system first reduces an event for it or reconciles a child of it, once
  /// per `lazy` value, so a tree is built as deep as its state goes and no deeper.
  ///
  /// - Parameter make: Builds the feature.
  /// - Returns: The feature, built on first use.
  public static func lazy(_ make: @escaping () -> Feature) -> Feature {
    let built = LazyFeature(make)
    return Feature(
      reduce: { state, event in built.feature.reduce(&state, event) },
      feedback: [
        // Not known until built: a `forEach` of lazy children reconciles them all each step.
        Feedback(reconcilesEveryStep: true) { _ in
          let inner = Bookkeeping<
            ChildReconciler<State, Event, ErrorType, Context, Event, ErrorType, Context, Void>?
          >(nil)
          let hosting = ChildHosting<
            State, Event, ErrorType, Context, Event, ErrorType, Context, Void
          >(extract: { event, _ in event }, lift: { effect, _ in effect })
          return Reconciler { state, host in
            let child =
              inner.value
              ?? ChildReconciler(
                feedback: built.feature.feedback, hosting: hosting, parent: host, scope: "",
                payload: ())
            inner.value = child
            child.reconcile(state)
          }
        }
      ])
  }
}

/// A feature made on first use and kept.
final class LazyFeature<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  private let make: () -> Feature<State, Event, ErrorType, Context>
  private var made: Feature<State, Event, ErrorType, Context>?

  init(_ make: @escaping () -> Feature<State, Event, ErrorType, Context>) {
    self.make = make
  }

  /// The feature, made now if it was not yet.
  var feature: Feature<State, Event, ErrorType, Context> {
    if let made { return made }
    let feature = make()
    made = feature
    return feature
  }
}

/// A feature: a reducer and the feedback loops around it, as one value.
///
/// A feature is what a screen or a piece of one is made of, without a runtime: run it in a
/// ``System``, a ``BackgroundSystem`` or a test harness, or make it a part of a bigger feature
/// with ``scope(_:state:event:extract:context:error:)``,
/// ``forEach(_:elements:event:extract:context:error:)`` and
/// ``ifLet(_:state:event:extract:context:error:)``. The child's reducer and *all* its feedback
/// come along, with the request semantics they have alone.
///
/// ```swift
/// enum Counter {
///   enum Event: Sendable { case increment, decrement }
///   static var feature: Feature<Int, Event, Never, Void> {
///     Feature(reducer: { count, event in
///       switch event {
///       case .increment: count + 1
///       case .decrement: count - 1
///       }
///     })
///   }
/// }
///
/// let counter = System(initialState: 0, context: (), feature: Counter.feature)
/// ```
///
/// A `Feature` is a description: each system that runs it keeps its own effects, so one value
/// serves many systems. Like ``Feedback``, it is not `Sendable`: its closures run on the
/// system's isolation. That is why a feature is declared as a computed `static var`, as above:
/// Swift 6 rejects a `static let` of a type that is not `Sendable`.
public struct Feature<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  /// The reducer, in a form that says when an event is meant for a child that is not there.
  @usableFromInline let reduce: (inout State, Event) -> ReduceOutcome?

  /// The feedback loops, the feature's own and its children's.
  public let feedback: [Feedback<State, Event, ErrorType, Context>]

  @usableFromInline
  init(
    reduce: @escaping (inout State, Event) -> ReduceOutcome?,
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) {
    self.reduce = reduce
    self.feedback = feedback
  }

  /// Creates a feature from a reducer in mutating form and its feedback.
  ///
  /// - Parameters:
  ///   - reduce: Applies an event to the state in place; pure, synchronous and fast.
  ///   - feedback: The feedback loops.
  @inlinable
  public init(
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, ErrorType, Context>] = []
  ) {
    self.init(
      reduce: { state, event in
        reduce(&state, event)
        return nil
      },
      feedback: feedback
    )
  }

  /// Creates a feature from a pure reducer, as
  /// ``System/pure(initialState:context:reducer:uiBindings:userActions:feedback:)`` takes it,
  /// and its feedback.
  ///
  /// - Parameters:
  ///   - reducer: Computes the next state from the current state and an event.
  ///   - feedback: The feedback loops.
  @inlinable
  public init(
    reducer: @escaping (consuming State, Event) -> State,
    feedback: [Feedback<State, Event, ErrorType, Context>] = []
  ) {
    self.init(
      reduce: { state, event in
        state = reducer(consume state, event)
        return nil
      },
      feedback: feedback
    )
  }
}

extension Feature {
  /// How every composition ends: this feature's feedback with `reduce` in place of its own,
  /// and, when the child has feedback, one more loop that runs it.
  ///
  /// - Parameters:
  ///   - reduce: The composed reducer.
  ///   - childFeedback: The child's feedback: none needs no loop.
  ///   - makeReconciler: Makes the loop that runs the child's feedback, per system.
  /// - Returns: The composed feature.
  @inlinable
  func composed<ChildFeedback>(
    reduce: @escaping (inout State, Event) -> ReduceOutcome?,
    running childFeedback: [ChildFeedback],
    _ makeReconciler: @escaping (Int) -> Reconciler<State, Event, ErrorType, Context>
  ) -> Feature {
    guard !childFeedback.isEmpty else {
      return Feature(reduce: reduce, feedback: feedback)
    }
    return Feature(reduce: reduce, feedback: feedback + [Feedback(makeReconciler: makeReconciler)])
  }
}

@available(*, unavailable, message: "A feature's closures run on its system's isolation.")
extension Feature: Sendable {}

/// What a reducer tells the feature that composes it, beyond the new state.
///
/// A missing child is a removed element of a
/// ``Feature/forEach(_:elements:event:extract:context:error:)``, the `nil` state of an
/// ``Feature/ifLet(_:state:event:extract:context:error:)``, and the like.
@usableFromInline
enum ReduceOutcome: Equatable {
  /// The event was meant for a child the state does not hold, named by its scope (as in
  /// `rows[7]`); the reducers stopped before any change.
  case missingChild(String)
  /// The feature ended its own presentation (see ``Feature/dismissing(on:)``): the feature that
  /// presents it removes it, once its state changed.
  case dismissed

  /// The same outcome seen from the parent that holds the child at `outer`.
  @inlinable
  func within(_ outer: String) -> ReduceOutcome {
    switch self {
    case .missingChild(let scope): .missingChild(outer.isEmpty ? scope : "\(outer).\(scope)")
    case .dismissed: .dismissed
    }
  }
}

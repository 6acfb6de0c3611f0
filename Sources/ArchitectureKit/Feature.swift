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
  /// A reducer in the form compositions use: it says when an event is meant for a child that
  /// is not there.
  @usableFromInline typealias Reduce = (inout State, Event) -> ReduceOutcome?

  /// The reducer, the same for every system.
  @usableFromInline let reduce: Reduce

  /// Makes the reducer one system runs, when a composition has a faster one.
  ///
  /// A faster reducer shares per-system bookkeeping with its feedback (see ``ElementsWatch``);
  /// `nil` when ``reduce`` is all there is. Both reducers change the state alike.
  ///
  /// In a box, so that a feature stays four words, which Swift passes in registers: a fifth
  /// made every system's creation copy the feature through memory (see PerformanceLedger:
  /// creation).
  @usableFromInline let systemReducer: SystemReducer<State, Event>?

  /// See ``systemReducer``.
  @inlinable var systemReduce: ((CompositionNodes) -> Reduce)? {
    systemReducer?.make
  }

  /// The feedback loops, the feature's own and its children's.
  public let feedback: [Feedback<State, Event, ErrorType, Context>]

  @inlinable
  init(
    reduce: @escaping Reduce,
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) {
    self.reduce = reduce
    self.systemReducer = nil
    self.feedback = feedback
  }

  @inlinable
  init(
    reduce: @escaping Reduce,
    systemReduce: ((CompositionNodes) -> Reduce)?,
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) {
    self.reduce = reduce
    self.systemReducer = systemReduce.map { SystemReducer($0) }
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
  /// This feature with its reducer wrapped: `wrap` receives the reducer to call after its own
  /// work (this feature's, or the one a system runs) and returns the new one.
  ///
  /// - Parameter wrap: Makes the new reducer around the one it receives.
  /// - Returns: The feature with the wrapped reducer and the same feedback.
  @inlinable
  func wrapping(_ wrap: @escaping (@escaping Reduce) -> Reduce) -> Feature {
    Feature(
      reduce: wrap(reduce), systemReduce: systemReduce.map { make in { wrap(make($0)) } },
      feedback: feedback)
  }

  /// How every composition ends: this feature's feedback with its reducer wrapped by `wrap`,
  /// and, when the child has feedback, one more loop that runs it.
  ///
  /// - Parameters:
  ///   - wrap: Makes the composed reducer around the parent's (see ``wrapping(_:)``).
  ///   - childFeedback: The child's feedback: none needs no loop.
  ///   - makeReconciler: Makes the loop that runs the child's feedback, per system.
  /// - Returns: The composed feature.
  @inlinable
  func composed<ChildFeedback: FeedbackLoop>(
    wrapping wrap: @escaping (@escaping Reduce) -> Reduce,
    running childFeedback: [ChildFeedback],
    _ makeReconciler: @escaping (Int) -> Reconciler<State, Event, ErrorType, Context>
  ) -> Feature {
    let wrapped = wrapping(wrap)
    guard !childFeedback.isEmpty else { return wrapped }
    let everyStep = childFeedback.contains { $0.reconcilesEveryStep }
    return Feature(
      reduce: wrapped.reduce, systemReduce: wrapped.systemReduce,
      feedback: feedback + [
        Feedback(reconcilesEveryStep: everyStep, makeReconciler: makeReconciler)
      ])
  }
}

/// The maker of a feature's per-system reducer (see ``Feature/systemReducer``).
@usableFromInline
final class SystemReducer<State, Event> {
  @usableFromInline let make: (CompositionNodes) -> (inout State, Event) -> ReduceOutcome?

  @usableFromInline
  init(_ make: @escaping (CompositionNodes) -> (inout State, Event) -> ReduceOutcome?) {
    self.make = make
  }
}

extension Feature {
  /// How a composition over a collection of children ends, when its reducer and its feedback
  /// share a watch in each system (see ``ElementsWatch``).
  ///
  /// - Parameters:
  ///   - makeWatch: Makes the watch a system's reducer and feedback share, once per system.
  ///   - wrap: Makes the composed reducer around the parent's, with the system's watch, or
  ///     `nil` for the reducer shared by every system.
  ///   - childFeedback: The child's feedback: none needs no loop, nor a watch.
  ///   - makeReconciler: Makes the loop that runs the children's feedback, with the system's
  ///     watch, or `nil` outside a system's own feature.
  /// - Returns: The composed feature.
  @inlinable
  func composed<Watch: AnyObject, ChildFeedback: FeedbackLoop>(
    watching makeWatch: @autoclosure @escaping () -> Watch,
    wrapping wrap: @escaping (@escaping Reduce, Watch?) -> Reduce,
    running childFeedback: [ChildFeedback],
    _ makeReconciler: @escaping (Watch?) -> Reconciler<State, Event, ErrorType, Context>
  ) -> Feature {
    guard !childFeedback.contains(where: { $0.reconcilesEveryStep }) else {
      // Children that must be asked on every step: no watch, every child every step.
      return composed(
        wrapping: { wrap($0, nil) }, running: childFeedback, { _ in makeReconciler(nil) })
    }
    guard !childFeedback.isEmpty else { return wrapping { wrap($0, nil) } }
    let token = CompositionToken()
    // The reducer shares the watch; the first reconciler made from this feedback in the system
    // claims it, and any other (the same feedback listed twice) walks every child.
    let watch = { (nodes: CompositionNodes) in nodes.shared(token, makeWatch) }
    let claim = { (nodes: CompositionNodes) in nodes.claim(token, makeWatch) }
    let parentReduce = reduce
    let parentSystemReduce = systemReduce
    return Feature(
      reduce: wrap(parentReduce, nil),
      systemReduce: { nodes in wrap(parentSystemReduce?(nodes) ?? parentReduce, watch(nodes)) },
      feedback: feedback + [
        Feedback(
          makeReconciler: { _ in makeReconciler(nil) },
          makeSystemReconciler: { _, nodes in makeReconciler(claim(nodes)) })
      ])
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

/// What a collection's reducer did with an event for one of its children, inside the access to
/// the collection: the child's name is built after it, only when a report needs it.
@usableFromInline
enum ChildStep {
  /// The collection holds no child with the event's identifier.
  case missing
  /// The child's reducer ran, with this outcome.
  case reduced(ReduceOutcome?)

  /// What the composition returns at once, the child named `name` (built only then): a
  /// missing child, or the child's outcome other than its dismissal; `nil` when the parent's
  /// reducer runs next.
  @inlinable
  func report(naming name: () -> String) -> ReduceOutcome? {
    switch self {
    case .missing: .missingChild(name())
    case .reduced(let outcome?) where outcome != .dismissed: outcome.within(name())
    case .reduced: nil
    }
  }
}

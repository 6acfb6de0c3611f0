public import ArchitectureKit

/// The counter system: an `Int` state changed by the user actions of the counter's buttons.
public typealias CounterSystem = System<Int, CounterEvent, CounterError, CounterContext>

/// A button of the counter: it sends its event to the counter system when executed.
public typealias CounterUserAction = UserAction<Int, CounterEvent, CounterError, CounterContext>

/// The seed's counter: the state is the count, starting at 0, with no bounds.
///
/// The front end owns the buttons and the rendering; the feature owns the logic:
///
/// ```swift
/// let plus = CounterUserAction(trigger: .increment)
/// let minus = CounterUserAction(trigger: .decrement)
/// Counter.start(userActions: [plus, minus], render: { label = String($0) })
/// plus.execute()  // label == "1"
/// ```
public enum Counter: Sendable {
  /// The count before any event.
  public static let initialState = 0

  /// The counter's reducer: the next count after `event`.
  ///
  /// - Parameters:
  ///   - count: The current count.
  ///   - event: What happened.
  /// - Returns: The new count.
  public static func reduce(_ count: Int, _ event: CounterEvent) -> Int {
    switch event {
    case .increment: count + 1
    case .decrement: count - 1
    }
  }

  /// Starts a counter with the seed's `System.pure(...)`.
  ///
  /// `render` receives the initial count at once and each later count. The user actions keep
  /// the system alive, so the result may be discarded, as in the seed.
  ///
  /// - Parameters:
  ///   - userActions: The buttons that drive the counter.
  ///   - render: Shows a count.
  /// - Returns: The running system, for a caller that wants to stop it or read its state.
  @MainActor
  @discardableResult
  public static func start(
    userActions: [CounterUserAction],
    render: @escaping (Int) -> Void
  ) -> CounterSystem {
    CounterSystem.pure(
      initialState: initialState,
      context: CounterContext(),
      reducer: { count, event in reduce(count, event) },
      uiBindings: [render],
      userActions: userActions,
      feedback: []
    )
  }
}

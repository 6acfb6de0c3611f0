import ArchitectureKit

/// A specification of a pure reducer that reads as `given(state).when(events).then(state)`.
///
/// ```swift
/// let counter = ReducerSpec(reducer: Counter.reducer)
/// counter.given(0).when(.increment, .increment, .decrement).then(1)
/// ```
///
/// A mismatch is reported at the line of `then`, with a line diff of the expected and actual
/// states.
///
/// A spec holds its reducer, a closure, so it is not `Sendable`: make it where it is used.
public struct ReducerSpec<State: Equatable, Event> {
  private let reduce: (inout State, Event) -> Void

  /// Creates a specification of a pure reducer.
  ///
  /// - Parameter reducer: The reducer under test.
  public init(reducer: @escaping (consuming State, Event) -> State) {
    self.reduce = { state, event in state = reducer(consume state, event) }
  }

  /// Creates a specification of a reducer in mutating form.
  ///
  /// - Parameter reduce: The reducer under test.
  public init(reduce: @escaping (inout State, Event) -> Void) {
    self.reduce = reduce
  }

  /// Starts a scenario from `state`.
  ///
  /// - Parameter state: The state before the events.
  /// - Returns: The scenario, ready for its events.
  public func given(_ state: State) -> Given {
    Given(reduce: reduce, state: state)
  }

  /// A scenario's starting state.
  public struct Given {
    let reduce: (inout State, Event) -> Void
    let state: State

    /// Applies `events` in order.
    ///
    /// - Parameter events: The events to reduce.
    /// - Returns: The scenario, ready for its expected state.
    public func when(_ events: Event...) -> When {
      var state = state
      for event in events { reduce(&state, event) }
      return When(actual: state, events: events.count)
    }
  }

  /// A scenario after its events.
  public struct When {
    /// The state the reducer produced.
    public let actual: State
    let events: Int

    /// Checks the state the events led to.
    ///
    /// - Parameters:
    ///   - expected: The state you expect.
    ///   - fileID: The caller's file ID; failures are reported there.
    ///   - filePath: The caller's file path.
    ///   - line: The caller's line.
    ///   - column: The caller's column.
    public func then(
      _ expected: State,
      fileID: StaticString = #fileID,
      filePath: StaticString = #filePath,
      line: UInt = #line,
      column: UInt = #column
    ) {
      guard expected != actual else { return }
      reportFailure(
        "After \(events) event(s) the state is not the expected one (− expected, + actual):\n"
          + (StateDump.diff(expected: expected, actual: actual) ?? "(the dumps are identical)"),
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
  }
}

@available(*, unavailable, message: "A spec holds its reducer; make it where it is used.")
extension ReducerSpec: Sendable {}

@available(*, unavailable, message: "A spec holds its reducer; make it where it is used.")
extension ReducerSpec.Given: Sendable {}

@available(*, unavailable, message: "A spec holds its reducer; make it where it is used.")
extension ReducerSpec.When: Sendable {}

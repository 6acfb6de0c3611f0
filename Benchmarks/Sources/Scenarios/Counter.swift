public import ArchitectureKit

/// The seed's counter events (`Codable`, so the journal scenarios encode them).
public enum CounterEvent: Sendable, Codable {
  /// Adds one.
  case increment
  /// Subtracts one.
  case decrement
}

/// The counter's error type (the seed's, with its one case).
public enum CounterError: Error {
  /// The seed's only error.
  case generic
}

/// The empty dependencies of the scenarios: they run no real effect.
public struct EmptyContext: Sendable {
  /// Creates the empty context.
  public init() {}
}

/// The counter system of the counter and creation scenarios.
public typealias CounterSystem = System<Int, CounterEvent, CounterError, EmptyContext>

/// The seed's counter reducer.
///
/// - Parameters:
///   - state: The count.
///   - event: The event to apply.
/// - Returns: The next count.
@inline(__always)
func reduceCounter(_ state: Int, _ event: CounterEvent) -> Int {
  switch event {
  case .increment: state &+ 1
  case .decrement: state &- 1
  }
}

/// A fixed, irregular sequence of counter events, so no loop reduces to a closed form.
let counterEvents: [CounterEvent] = (0..<1_024).map { index in
  (index * 7 + index / 3) % 5 == 0 ? .decrement : .increment
}

/// The baseline every ratio is taken against: the counter reducer applied in a plain loop.
///
/// - Parameter count: The number of events to reduce.
/// - Returns: The final count, to be consumed.
@inline(never)
public func rawCounterLoop(_ count: Int) -> Int {
  var state = 0
  for index in 0..<count {
    state = reduceCounter(state, counterEvents[index & 1_023])
  }
  return state
}

/// A counter system with a number of UI bindings, created once per benchmark.
@MainActor
public final class CounterFixture {
  private let system: CounterSystem

  /// Creates the system with `bindings` UI bindings, each of which consumes the state.
  ///
  /// - Parameter bindings: The number of UI bindings.
  public init(bindings: Int) {
    system = CounterSystem.pure(
      initialState: 0,
      context: EmptyContext(),
      reducer: { state, event in reduceCounter(state, event) },
      // One closure literal per binding, as an app writes them and as the hand-rolled fixture
      // subscribes them. (`Array(repeating:count:)` of a closure literal made on the main actor
      // makes Swift 6.3 check the executor on every call of it: 80 instructions per binding.)
      uiBindings: (0..<bindings).map { _ in { state in consume(state) } },
      userActions: [],
      feedback: []
    )
  }

  /// Sends `count` events through `System.send(_:)`.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for index in 0..<count {
      system.send(counterEvents[index & 1_023])
    }
  }
}

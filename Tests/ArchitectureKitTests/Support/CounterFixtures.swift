/// The events of the counter that most tests drive: an `Int` state and ``counterReducer(_:_:)``.
enum CounterEvent: Sendable, Equatable {
  case increment
  case decrement
}

/// The error the tests' effects fail with.
enum CounterError: Error, Equatable {
  case generic
}

/// The context of a feature whose effects need nothing.
struct EmptyContext: Sendable {}

/// The counter's reducer: one up, one down.
func counterReducer(_ state: Int, _ event: CounterEvent) -> Int {
  switch event {
  case .increment: state + 1
  case .decrement: state - 1
  }
}

/// What can happen to the counter: the seed's two buttons.
public enum CounterEvent: Hashable, Sendable {
  /// Adds one to the count.
  case increment
  /// Takes one from the count; the count has no lower bound.
  case decrement
}

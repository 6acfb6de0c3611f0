/// The counter's dependencies: none, as in the seed.
///
/// A feature with effects keeps its API clients, clocks and random sources here; the counter
/// has no effects, so its context is empty. The product detail sample shows a full one.
public struct CounterContext: Sendable {
  /// Creates the empty context.
  public init() {}
}

/// The counter scenario on ``HandRolledStore``: the baseline of `CounterFixture`.
@MainActor
public final class HandRolledCounterFixture {
  private let store: HandRolledStore<Int, CounterEvent>

  /// Creates the store with `bindings` subscribers, each of which consumes the state.
  ///
  /// - Parameter bindings: The number of subscribers.
  public init(bindings: Int) {
    store = HandRolledStore(
      initialState: 0,
      reduce: { state, event in state = reduceCounter(state, event) }
    )
    for _ in 0..<bindings {
      store.subscribe { state in consume(state) }
    }
  }

  /// Sends `count` events.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for index in 0..<count {
      store.send(counterEvents[index & 1_023])
    }
  }
}

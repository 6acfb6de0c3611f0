/// The large-state scenario on ``HandRolledStore``: the baseline of `LargeStateFixture`.
@MainActor
public final class HandRolledLargeStateFixture {
  private let store: HandRolledStore<LargeState, LargeEvent>
  private var next = 0

  /// Creates the store with an in-place reducer and one subscriber.
  public init() {
    store = HandRolledStore(
      initialState: LargeState(),
      reduce: { state, event in
        switch event {
        case .bump(let index): state.values[index] &+= 1
        }
      }
    )
    store.subscribe { state in consume(state.values.count) }
  }

  /// Sends `count` events, each bumping the next element.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      store.send(.bump(next))
      next = next == LargeState.count - 1 ? 0 : next + 1
    }
  }
}

/// The keyed-request scenario on ``HandRolledStore``: the baseline of `KeyedRequestFixture`
/// and `KeyedDictionaryRequestFixture`.
///
/// The feedback is what a hand-written store would do without a journal of changes: compare
/// every wanted key with the effects it started, restart the changed ones and drop the vanished
/// ones, on every step.
@MainActor
public final class HandRolledKeyedRequestFixture {
  private let store: HandRolledStore<KeyedDictionaryState, KeyedEvent>
  private var next = 0

  /// Creates the store with its 10,000 requests running.
  public init() {
    // The effects the initial state asks for, started (their results change nothing).
    var running = KeyedDictionaryState().requests
    store = HandRolledStore(
      initialState: KeyedDictionaryState(),
      reduce: { state, event in
        if case .bump(let key) = event { state.requests[key, default: 0] &+= 1 }
      },
      effects: [
        { state, send in
          for (key, generation) in state.requests where running[key] != generation {
            running[key] = generation
            send(.loaded(generation))
          }
          if running.count > state.requests.count {
            running = running.filter { state.requests[$0.key] != nil }
          }
        }
      ]
    )
  }

  /// Sends `count` events, each changing the request of the next key.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      store.send(.bump(next))
      next = next == KeyedState.count - 1 ? 0 : next + 1
    }
  }
}

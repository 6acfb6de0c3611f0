/// The fan-out scenario on ``HandRolledStore``: the baseline of `FanOutFixture`.
///
/// Written by hand, the code that starts the work knows the items: it runs each one's work,
/// which completes at once as the library's `.pure` effects do, and sends its result.
@MainActor
public final class HandRolledFanOutFixture {
  private let store: HandRolledStore<FanOutState, FanOutEvent>

  /// Creates the store with nothing pending and one subscriber.
  public init() {
    store = HandRolledStore(
      initialState: FanOutState(),
      reduce: reduceFanOut
    )
    store.subscribe { state in consume(state.pending.count) }
  }

  /// Runs fan-outs until `count` results came back (whole fan-outs, rounded up).
  ///
  /// - Parameter count: The number of results.
  public func send(_ count: Int) {
    for _ in 0..<max(1, count / FanOutFixture.width) {
      store.send(.start)
      for item in 0..<FanOutFixture.width { store.send(.done(item)) }
    }
  }
}

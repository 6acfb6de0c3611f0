/// The creation scenario on ``HandRolledStore``: the baseline of `CreationFixture`.
@MainActor
public final class HandRolledCreationFixture {
  private var stores: [HandRolledStore<Int, CounterEvent>] = []

  /// Creates the fixture, with no store yet.
  public init() {}

  /// Releases the previous iteration's stores, keeping the array's storage.
  public func prepare() {
    stores.removeAll(keepingCapacity: true)
    stores.reserveCapacity(CreationFixture.count)
  }

  /// Creates `CreationFixture.count` counter stores with one subscriber each.
  public func create() {
    for _ in 0..<CreationFixture.count {
      let store = HandRolledStore<Int, CounterEvent>(
        initialState: 0,
        reduce: { state, event in state = reduceCounter(state, event) }
      )
      store.subscribe { state in consume(state) }
      stores.append(store)
    }
  }
}

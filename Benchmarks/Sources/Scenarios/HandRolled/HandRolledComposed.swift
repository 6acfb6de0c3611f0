/// The composed scenario on ``HandRolledStore``: the baseline of `ComposedFixture`.
///
/// One reducer finds the row by identifier and applies the row reducer; one effect closure
/// checks every row's request after each step, as the rows' feedback does in the library.
@MainActor
public final class HandRolledComposedFixture {
  private let store: HandRolledStore<ListState, ListEvent>
  private let count: Int
  private var next = 0

  /// Creates the store with `count` rows and one subscriber.
  ///
  /// - Parameter count: The number of rows.
  public init(count: Int = 100) {
    self.count = count
    var loading: Set<Int> = []
    store = HandRolledStore(
      initialState: ListState(count: count),
      reduce: { state, event in
        switch event {
        case .row(let id, let event):
          guard let index = state.rows.firstIndex(where: { $0.id == id }) else { return }
          reduceRow(&state.rows[index], event)
        }
      },
      effects: [
        { state, send in
          for row in state.rows where row.wantsImage && !loading.contains(row.id) {
            loading.insert(row.id)
            send(.row(row.id, .imageLoaded))
          }
        }
      ]
    )
    store.subscribe { state in consume(state.rows.count) }
  }

  /// Sends `count` events, each to the next row.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      store.send(.row(next, .increment))
      next = next == self.count - 1 ? 0 : next + 1
    }
  }

  /// Sends `count` events to the last row: the baseline of an event to the top of a stack.
  ///
  /// - Parameter count: The number of events.
  public func sendToLast(_ count: Int) {
    for _ in 0..<count {
      store.send(.row(self.count - 1, .increment))
    }
  }
}

/// The unchanged-feedback scenario on ``HandRolledStore``: the baseline of
/// `UnchangedFeedbackFixture`.
///
/// Each feedback is an effect closure that derives its request from the state and starts its
/// effect only when the request differs from the last one it started.
@MainActor
public final class HandRolledUnchangedFeedbackFixture {
  private let store: HandRolledStore<FeedbackState, FeedbackEvent>

  /// Creates the store with `count` feedback closures and one subscriber.
  ///
  /// - Parameter count: The number of feedback closures.
  public init(feedbacks count: Int) {
    let effects = (0..<count).map { _ -> (FeedbackState, (FeedbackEvent) -> Void) -> Void in
      var started: Int?
      return { state, send in
        let request = state.query
        guard request != started else { return }
        started = request
        send(.loaded(request))
      }
    }
    store = HandRolledStore(
      initialState: FeedbackState(),
      reduce: { state, event in
        if case .increment = event { state.count &+= 1 }
      },
      effects: effects
    )
    store.subscribe { state in consume(state.count) }
    // Starts the effects, as the system's initial reconciliation does.
    store.send(.loaded(0))
  }

  /// Sends `count` events that leave every request unchanged.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      store.send(.increment)
    }
  }
}

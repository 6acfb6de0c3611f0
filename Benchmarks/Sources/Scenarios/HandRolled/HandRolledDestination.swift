/// The state of the hand-rolled destination: the presented screen, a plain optional.
struct HandRolledDestinationState {
  /// The presented screen, if any.
  var destination: ScreenState?
}

/// The destination scenario on ``HandRolledStore``: the baseline of `DestinationFixture`.
///
/// The screen's reducer runs in the app's, and the screen's one piece of work (the detail load
/// that `screenFeature` runs while `wantsDetail`) is an effect that checks the presented screen
/// after each step: what an app without the library writes for a sheet.
@MainActor
public final class HandRolledDestinationFixture {
  private let store: HandRolledStore<HandRolledDestinationState, DestinationEvent>

  /// Creates the store with nothing presented and one subscriber.
  public init() {
    var loading = false
    store = HandRolledStore(
      initialState: HandRolledDestinationState(),
      reduce: { state, event in
        switch event {
        case .present: state.destination = ScreenState()
        case .destination(let event):
          guard var screen = state.destination else { return }
          reduceScreen(&screen, event)
          state.destination = screen
        case .dismiss: state.destination = nil
        }
      },
      effects: [
        { state, send in
          let wantsDetail = state.destination?.wantsDetail == true
          if wantsDetail, !loading {
            loading = true
            send(.destination(.detailLoaded))
          } else if !wantsDetail {
            loading = false
          }
        }
      ]
    )
    store.subscribe { state in consume(state.destination?.count ?? 0) }
  }

  /// Runs `count` presentations: present, one event, dismiss.
  ///
  /// - Parameter count: The number of presentations.
  public func presentSendDismiss(_ count: Int) {
    for _ in 0..<count {
      store.send(.present)
      store.send(.destination(.increment))
      store.send(.dismiss)
    }
  }
}

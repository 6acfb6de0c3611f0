/// The round-trip scenarios on the hand-rolled stores: the baselines of `RoundTripFixture`.
///
/// The immediate form runs on ``HandRolledStore``: an effect closure that sends the result event
/// at once when the request changes. The async form runs on ``HandRolledTaskStore``: a task per
/// effect, off the main actor, whose event hops back.
@MainActor
public final class HandRolledRoundTripFixture {
  private let immediate: HandRolledStore<RoundTripState, RoundTripEvent>?
  private let async: HandRolledTaskStore<RoundTripState, RoundTripEvent, Int>?
  private var finished: CheckedContinuation<Void, Never>?

  /// Creates the store for `form`.
  ///
  /// - Parameter form: How the effect is written.
  public init(form: EffectForm) {
    switch form {
    case .immediate:
      var started: Int?
      immediate = HandRolledStore(
        initialState: RoundTripState(),
        reduce: reduceRoundTrip,
        effects: [
          { state, send in
            guard state.request != started else { return }
            started = state.request
            if let request = state.request { send(.pong(request)) }
          }
        ]
      )
      async = nil
    case .async:
      immediate = nil
      async = HandRolledTaskStore(
        initialState: RoundTripState(),
        reduce: reduceRoundTrip,
        request: \.request,
        run: { request in .pong(request) }
      )
      async?.subscribe { [unowned self] state in
        if state.remaining == 0, let finished {
          self.finished = nil
          finished.resume()
        }
      }
    }
  }

  /// Runs `count` round trips whose effects complete at once.
  ///
  /// - Parameter count: The number of round trips.
  public func runInline(_ count: Int) {
    guard let immediate else { preconditionFailure("Not an immediate fixture.") }
    // In chains of the library fixture's length, so both pay the same sends.
    runInChains(count) { chain in
      immediate.send(.start(chain))
      precondition(immediate.state.remaining == 0, "An immediate effect did not complete inline.")
    }
  }

  /// Runs `count` round trips whose effects run as tasks; returns when the last result arrived.
  ///
  /// - Parameter count: The number of round trips.
  public func run(_ count: Int) async {
    guard let async else { preconditionFailure("Not an async fixture.") }
    await withCheckedContinuation { continuation in
      finished = continuation
      async.send(.start(count))
    }
  }
}

import ArchitectureKit

/// A chain of round trips: each result event asks for the next request until none remain.
struct RoundTripState {
  /// The round trips still to run.
  var remaining = 0
  /// The request the feedback runs an effect for; a new value per round trip.
  var request: Int?
}

/// The events of the round-trip benchmarks.
enum RoundTripEvent: Sendable {
  /// Starts a chain of round trips.
  case start(Int)
  /// The effect's result for request `k`, which asks for request `k - 1`.
  case pong(Int)
}

/// The system of the round-trip benchmarks.
typealias RoundTripSystem = System<RoundTripState, RoundTripEvent, CounterError, EmptyContext>

/// The longest chain of round trips one send runs: within a drain's inline budget of 1,024.
let inlineChain = 1_000

/// Runs `count` round trips as chains of at most ``inlineChain``, each with `runChain`.
func runInChains(_ count: Int, _ runChain: (Int) -> Void) {
  var left = count
  while left > 0 {
    let chain = min(left, inlineChain)
    runChain(chain)
    left -= chain
  }
}

/// The round-trip reducer: `start(n)` asks for request `n`, `pong(k)` for request `k - 1`.
///
/// - Parameters:
///   - state: The state to change.
///   - event: The event to apply.
func reduceRoundTrip(_ state: inout RoundTripState, _ event: RoundTripEvent) {
  switch event {
  case .start(let count):
    state.remaining = count
    state.request = count > 0 ? count : nil
  case .pong(let request):
    state.remaining = request - 1
    state.request = request > 1 ? request - 1 : nil
  }
}

/// How the round trip's effect is written.
public enum EffectForm: Sendable {
  /// `effects:` returning `.pure`: the core completes it inline, no task, no hop.
  case immediate
  /// `.run`, an `async` function: a task per effect. This one never suspends, so its task runs
  /// to the end as it starts, on the system's actor, and its event is queued with no hop.
  case async
}

/// A system whose every event requests an effect whose result is the next event.
///
/// One ``run(_:)`` sends one `start(n)` event and returns after `n` round trips: event →
/// request → effect → result event.
@MainActor
public final class RoundTripFixture {
  private let system: RoundTripSystem
  private var finished: CheckedContinuation<Void, Never>?

  /// Creates the system with its effect in `form`.
  ///
  /// - Parameter form: How the effect is written.
  public init(form: EffectForm) {
    let feedback: Feedback<RoundTripState, RoundTripEvent, CounterError, EmptyContext> =
      switch form {
      case .immediate:
        .react(request: \.request, effects: { request in .pure(.pong(request)) })
      case .async:
        .react(request: \.request, effect: .run { request, _ in .pong(request) })
      }
    system = RoundTripSystem(
      initialState: RoundTripState(),
      context: EmptyContext(),
      reduce: reduceRoundTrip,
      feedback: [feedback]
    )
    // Only the task form waits for its chain's end; the immediate form's chain ends inside its
    // send, as the hand-written pair's does, which has no subscriber either.
    guard case .async = form else { return }
    system.addLoopCallback { [unowned self] state in
      if state.remaining == 0, let finished {
        self.finished = nil
        finished.resume()
      }
    }
  }

  /// Runs `count` round trips whose effects complete inline; returns when they are done.
  ///
  /// The round trips form a chain, each started by the event of the one before, so they are sent
  /// in chains of ``inlineChain``: one send runs at most 1,024 effects inline, and a longer chain
  /// would go on in later turns of the main actor.
  ///
  /// - Parameter count: The number of round trips.
  public func runInline(_ count: Int) {
    runInChains(count) { chain in
      system.send(.start(chain))
      precondition(system.state.remaining == 0, "An immediate effect did not complete inline.")
    }
  }

  /// Runs `count` round trips whose effects run as tasks; returns when the last result arrived.
  ///
  /// The main actor is free while this waits, so the results of effects that suspend can hop
  /// back to it.
  ///
  /// - Parameter count: The number of round trips.
  public func run(_ count: Int) async {
    await withCheckedContinuation { continuation in
      finished = continuation
      system.send(.start(count))
    }
  }
}

/// The asynchronous round trip on a ``BackgroundSystem``: the system is an actor, so an effect
/// that suspended would hop back to it rather than to the main actor.
public final class BackgroundRoundTripFixture: Sendable {
  private let system: BackgroundSystem<RoundTripState, RoundTripEvent, CounterError, EmptyContext>

  /// Creates the system; its effect is an `async` function.
  public init() async {
    system = await BackgroundSystem(
      initialState: RoundTripState(),
      context: EmptyContext(),
      reduce: reduceRoundTrip,
      feedback: [.react(request: \.request, effect: .run { request, _ in .pong(request) })]
    )
  }

  /// Runs `count` round trips; returns when the last result was reduced.
  ///
  /// - Parameter count: The number of round trips.
  public func run(_ count: Int) async {
    await system.send(.start(count), while: { $0.remaining > 0 })
  }
}

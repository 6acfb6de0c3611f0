import ArchitectureKit

/// The state of the fan-out scenario: the items whose work is pending.
struct FanOutState {
  /// The items still waiting for their result; one effect each.
  var pending: Set<Int> = []
}

/// The events of the fan-out scenario.
enum FanOutEvent: Sendable {
  /// Asks for every item's work at once.
  case start
  /// One item's result arrived.
  case done(Int)
}

/// The fan-out scenario's reducer, shared by the library and the hand-rolled baseline.
///
/// - Parameters:
///   - state: The pending items.
///   - event: The event to apply.
func reduceFanOut(_ state: inout FanOutState, _ event: FanOutEvent) {
  switch event {
  case .start: state.pending = Set(0..<FanOutFixture.width)
  case .done(let item): state.pending.remove(item)
  }
}

/// One event fans out into 1,000 effects through `react(requests:)` over a `Set`; each effect's
/// result removes its item from the set: the cost of one result, per operation.
///
/// The effects complete at once, so a fan-out and its 1,000 results run inside one `send`.
@MainActor
public final class FanOutFixture {
  /// The number of effects one event starts.
  public nonisolated static let width = 1_000

  private let system: System<FanOutState, FanOutEvent, CounterError, EmptyContext>

  /// Creates the system with nothing pending and one UI binding.
  public init() {
    system = System(
      initialState: FanOutState(), context: EmptyContext(),
      feature: Feature(
        reduce: reduceFanOut,
        feedback: [.react(requests: \.pending, effects: { item in .pure(.done(item)) })]))
    system.addUIBinding { state in consume(state.pending.count) }
  }

  /// Runs fan-outs until `count` results came back (whole fan-outs, rounded up).
  ///
  /// - Parameter count: The number of results.
  public func send(_ count: Int) {
    for _ in 0..<max(1, count / Self.width) {
      system.send(.start)
    }
  }
}

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

/// The state of the fan-out scenario with its requests in a `RequestSet`.
struct RequestSetFanOutState {
  /// The items still waiting for their result; one effect each.
  var pending: RequestSet<Int> = []
}

/// The fan-out reducer over a `RequestSet`: the same changes as ``reduceFanOut(_:_:)``.
///
/// - Parameters:
///   - state: The pending items.
///   - event: The event to apply.
func reduceRequestSetFanOut(_ state: inout RequestSetFanOutState, _ event: FanOutEvent) {
  switch event {
  case .start: state.pending = RequestSet(0..<FanOutFixture.width)
  case .done(let item): state.pending.remove(item)
  }
}

/// Where the fan-out keeps its requests.
public enum FanOutForm: Sendable {
  /// A `Set`, compared whole by the feedback whenever it changed.
  case set
  /// A `RequestSet`, whose feedback reads the elements that changed.
  case requestSet
}

/// One event fans out into 1,000 effects through `react(requests:)` over a `Set` or a
/// `RequestSet`; each effect's result removes its item from the set: the cost of one result,
/// per operation.
///
/// The effects complete at once, so a fan-out and its 1,000 results run inside one `send`.
@MainActor
public final class FanOutFixture {
  /// The number of effects one event starts.
  public nonisolated static let width = 1_000

  private let send: (FanOutEvent) -> Void

  /// Creates the system with nothing pending and one UI binding.
  ///
  /// - Parameter form: Where the requests are kept.
  public init(form: FanOutForm) {
    switch form {
    case .set:
      let system = System<FanOutState, FanOutEvent, CounterError, EmptyContext>(
        initialState: FanOutState(), context: EmptyContext(),
        feature: Feature(
          reduce: reduceFanOut,
          feedback: [.react(requests: \.pending, effects: { item in .pure(.done(item)) })]))
      system.addUIBinding { state in consume(state.pending.count) }
      send = system.send
    case .requestSet:
      let system = System<RequestSetFanOutState, FanOutEvent, CounterError, EmptyContext>(
        initialState: RequestSetFanOutState(), context: EmptyContext(),
        feature: Feature(
          reduce: reduceRequestSetFanOut,
          feedback: [
            .react(requests: \.pending, effect: .asyncResult { item in .pure(.done(item)) })
          ]))
      system.addUIBinding { state in consume(state.pending.count) }
      send = system.send
    }
  }

  /// Runs fan-outs until `count` results came back (whole fan-outs, rounded up).
  ///
  /// - Parameter count: The number of results.
  public func send(_ count: Int) {
    for _ in 0..<max(1, count / Self.width) {
      send(.start)
    }
  }
}

import ArchitectureKit

/// Ten thousand keyed requests, one of which each event changes.
struct KeyedState {
  /// The number of keys.
  static let count = 10_000

  /// The request of each key: a generation that an event bumps.
  var requests = KeyedRequests(
    Dictionary(uniqueKeysWithValues: (0..<KeyedState.count).map { ($0, 0) }))
}

/// The same requests in a plain dictionary, which the feedback compares whole on every step.
struct KeyedDictionaryState {
  /// The request of each key: a generation that an event bumps.
  var requests = Dictionary(uniqueKeysWithValues: (0..<KeyedState.count).map { ($0, 0) })
}

/// The events of the keyed-request benchmarks.
enum KeyedEvent: Sendable {
  /// Changes the request of one key, which restarts its effect.
  case bump(Int)
  /// The result of an effect; changes nothing.
  case loaded(Int)
}

/// The system of the keyed-request benchmark.
typealias KeyedSystem = System<KeyedState, KeyedEvent, CounterError, EmptyContext>

/// The system of the keyed-request benchmark over a dictionary.
typealias KeyedDictionarySystem = System<
  KeyedDictionaryState, KeyedEvent, CounterError, EmptyContext
>

/// A system with 10,000 active keyed requests in a ``KeyedRequests``.
///
/// The effects are `.pure`, so they complete inside the core and no task muddies the figure:
/// what is left is the reducer, the journal of the changed key and one restart per event.
@MainActor
public final class KeyedRequestFixture {
  private let system: KeyedSystem
  private var next = 0

  /// Creates the system; its 10,000 requests start at once.
  public init() {
    system = KeyedSystem(
      initialState: KeyedState(),
      context: EmptyContext(),
      reduce: { state, event in
        if case .bump(let key) = event { state.requests[key, default: 0] &+= 1 }
      },
      feedback: [
        .react(keyed: \.requests, effects: { generation in .pure(.loaded(generation)) })
      ]
    )
  }

  /// Sends `count` events, each changing the request of the next key.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.bump(next))
      next = next == KeyedState.count - 1 ? 0 : next + 1
    }
  }
}

/// A system with 10,000 active keyed requests in a dictionary: the same scenario as
/// ``KeyedRequestFixture``, with the feedback comparing the whole dictionary on every step.
@MainActor
public final class KeyedDictionaryRequestFixture {
  private let system: KeyedDictionarySystem
  private var next = 0

  /// Creates the system; its 10,000 requests start at once.
  public init() {
    system = KeyedDictionarySystem(
      initialState: KeyedDictionaryState(),
      context: EmptyContext(),
      reduce: { state, event in
        if case .bump(let key) = event { state.requests[key, default: 0] &+= 1 }
      },
      feedback: [
        .react(keyedRequests: \.requests, effects: { generation in .pure(.loaded(generation)) })
      ]
    )
  }

  /// Sends `count` events, each changing the request of the next key.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.bump(next))
      next = next == KeyedState.count - 1 ? 0 : next + 1
    }
  }
}

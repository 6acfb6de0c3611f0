import ArchitectureKit

/// Ten thousand keyed requests, one of which each event changes.
struct KeyedState {
  /// The number of keys.
  static let count = 10_000

  /// The request of each key: a generation that an event bumps; filled by ``KeyedEvent/add(_:)``.
  var requests = KeyedRequests<Int, Int>()
}

/// The same requests in a plain dictionary, which the feedback compares whole on every step.
struct KeyedDictionaryState {
  /// The request of each key: a generation that an event bumps; filled by ``KeyedEvent/add(_:)``.
  var requests: [Int: Int] = [:]
}

/// The events of the keyed-request benchmarks.
enum KeyedEvent: Sendable {
  /// Changes the request of one key, which restarts its effect; adds the key if it is new.
  case bump(Int)
  /// Adds keys with the first generation, which starts their effects.
  case add(Range<Int>)
  /// The result of an effect; changes nothing.
  case loaded(Int)
}

/// The system of the keyed-request benchmark.
typealias KeyedSystem = System<KeyedState, KeyedEvent, CounterError, EmptyContext>

/// The system of the keyed-request benchmark over a dictionary.
typealias KeyedDictionarySystem = System<
  KeyedDictionaryState, KeyedEvent, CounterError, EmptyContext
>

/// The keys the fixtures add per event as they are made: one send runs at most 1,024 effects
/// inline, and each added key starts one, so the 10,000 keys come in ten sends of 1,000 and
/// every effect has ended when the fixture is made.
let keysAddedPerSend = 1_000

/// Adds the keys `0..<KeyedState.count` to a system, a send per ``keysAddedPerSend``.
@MainActor
func addKeys(_ send: (KeyedEvent) -> Void) {
  for start in stride(from: 0, to: KeyedState.count, by: keysAddedPerSend) {
    send(.add(start..<min(start + keysAddedPerSend, KeyedState.count)))
  }
}

/// A system with 10,000 active keyed requests in a ``KeyedRequests``.
///
/// The effects are `.pure`, so they complete inside the core and no task muddies the figure:
/// what is left is the reducer, the journal of the changed key and one restart per event.
@MainActor
public final class KeyedRequestFixture {
  private let system: KeyedSystem
  private var next = 0

  /// Creates the system and its 10,000 requests, whose effects end at once.
  public init() {
    system = KeyedSystem(
      initialState: KeyedState(),
      context: EmptyContext(),
      reduce: { state, event in
        switch event {
        case .bump(let key): state.requests[key, default: 0] &+= 1
        case .add(let keys): for key in keys { state.requests[key] = 0 }
        case .loaded: break
        }
      },
      feedback: [
        .react(keyed: \.requests, effect: .asyncResult { generation in .pure(.loaded(generation)) })
      ]
    )
    addKeys(system.send)
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

  /// Creates the system and its 10,000 requests, whose effects end at once.
  public init() {
    system = KeyedDictionarySystem(
      initialState: KeyedDictionaryState(),
      context: EmptyContext(),
      reduce: { state, event in
        switch event {
        case .bump(let key): state.requests[key, default: 0] &+= 1
        case .add(let keys): for key in keys { state.requests[key] = 0 }
        case .loaded: break
        }
      },
      feedback: [
        .react(
          keyedRequests: \.requests,
          effect: .asyncResult { generation in .pure(.loaded(generation)) })
      ]
    )
    addKeys(system.send)
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

import ArchitectureKit

/// A state of many `Int`s, each event changing one.
public protocol LargeValues {
  /// The elements.
  var values: [Int] { get set }
}

/// A state too large to copy on every event: 100,000 `Int`s (800 KB).
public struct LargeState: LargeValues {
  /// The number of elements.
  public static let count = 100_000

  /// The elements; each event changes one.
  public var values = [Int](repeating: 0, count: LargeState.count)
}

/// ``LargeState``, `Equatable`: what SwiftUI users write by habit, and what must cost the same.
public struct EquatableLargeState: LargeValues, Equatable {
  /// The elements; each event changes one.
  public var values = [Int](repeating: 0, count: LargeState.count)
}

/// Bumps one element of a ``LargeState``.
public enum LargeEvent: Sendable {
  /// Adds one to the element at this index.
  case bump(Int)
}

/// The system of the large-state scenarios.
typealias LargeSystem = System<LargeState, LargeEvent, CounterError, EmptyContext>

/// How the reducer is handed to the system.
public enum ReducerForm: Sendable {
  /// `System.pure(reducer:)`: `(consuming State, Event) -> State`.
  case pure
  /// `System(reduce:)`: `(inout State, Event) -> Void`.
  case mutating
  /// `System(reduce:)` on ``EquatableLargeState``.
  case mutatingEquatable
}

/// A large-state system with one UI binding, created once per benchmark.
@MainActor
public final class LargeStateFixture {
  private let system: Systems
  private var next = 0

  /// The system of one of the state types.
  private enum Systems {
    case plain(LargeSystem)
    case equatable(System<EquatableLargeState, LargeEvent, CounterError, EmptyContext>)
  }

  /// Creates the system with its reducer in `form`.
  ///
  /// The pure reducer shadows its `consuming` state with `var state = state` and returns it, so
  /// it can change the array in place.
  ///
  /// - Parameter form: The reducer form to measure.
  public init(form: ReducerForm) {
    switch form {
    case .pure:
      let system = LargeSystem.pure(
        initialState: LargeState(),
        context: EmptyContext(),
        reducer: { state, event in
          var state = state
          switch event {
          case .bump(let index): state.values[index] &+= 1
          }
          return state
        },
        uiBindings: [{ state in consume(state.values.count) }],
        userActions: [],
        feedback: []
      )
      self.system = .plain(system)
    case .mutating: system = .plain(Self.mutatingSystem(LargeState()))
    case .mutatingEquatable: system = .equatable(Self.mutatingSystem(EquatableLargeState()))
    }
  }

  /// A system of `State` with the mutating reducer and one UI binding.
  private static func mutatingSystem<State: LargeValues>(
    _ initialState: State
  ) -> System<State, LargeEvent, CounterError, EmptyContext> {
    let system = System<State, LargeEvent, CounterError, EmptyContext>(
      initialState: initialState,
      context: EmptyContext(),
      reduce: { state, event in
        switch event {
        case .bump(let index): state.values[index] &+= 1
        }
      }
    )
    system.addUIBinding { state in consume(state.values.count) }
    return system
  }

  /// Sends `count` events, each bumping the next element.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      switch system {
      case .plain(let system): system.send(.bump(next))
      case .equatable(let system): system.send(.bump(next))
      }
      next = next == LargeState.count - 1 ? 0 : next + 1
    }
  }
}

/// The large state's baseline: the mutating reducer in a plain loop, no system.
///
/// The state is kept across iterations, like a system's.
public final class RawLargeFixture {
  private var state = LargeState()
  private var next = 0

  /// Creates the fixture and its state.
  public init() {}

  /// Bumps `count` elements in a plain loop.
  ///
  /// - Parameter count: The number of events.
  @inline(never)
  public func run(_ count: Int) {
    for _ in 0..<count {
      state.values[next] &+= 1
      next = next == LargeState.count - 1 ? 0 : next + 1
    }
  }
}

import ArchitectureKit

/// A state too large to copy on every event: 100,000 `Int`s (800 KB).
public struct LargeState {
  /// The number of elements.
  public static let count = 100_000

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
}

/// A large-state system with one UI binding, created once per benchmark.
@MainActor
public final class LargeStateFixture {
  private let system: LargeSystem
  private var next = 0

  /// Creates the system with its reducer in `form`.
  ///
  /// The pure reducer shadows its `consuming` state with `var state = state` and returns it, so
  /// it can change the array in place.
  ///
  /// - Parameter form: The reducer form to measure.
  public init(form: ReducerForm) {
    let binding: (LargeState) -> Void = { state in consume(state.values.count) }
    switch form {
    case .pure:
      system = LargeSystem.pure(
        initialState: LargeState(),
        context: EmptyContext(),
        reducer: { state, event in
          var state = state
          switch event {
          case .bump(let index): state.values[index] &+= 1
          }
          return state
        },
        uiBindings: [binding],
        userActions: [],
        feedback: []
      )
    case .mutating:
      system = LargeSystem(
        initialState: LargeState(),
        context: EmptyContext(),
        reduce: { state, event in
          switch event {
          case .bump(let index): state.values[index] &+= 1
          }
        }
      )
      system.addUIBinding(binding)
    }
  }

  /// Sends `count` events, each bumping the next element.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.bump(next))
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

import ArchitectureKit

/// One screen of the navigation scenarios: a counter with a detail it may load.
struct ScreenState: Sendable {
  /// What the screen's events change.
  var count = 0
  /// Whether the screen asks for its detail; never, here, so each step only checks.
  var wantsDetail = false
}

/// The events of one screen.
enum ScreenEvent: Sendable {
  /// Adds one to the screen's count.
  case increment
  /// The screen's detail arrived.
  case detailLoaded
}

/// The app of the navigation scenarios: a stack of screens.
struct NavigationState {
  /// The screens, from the root's first push to the top.
  var path = Stack<ScreenState>()
}

/// The app's events: a screen's, addressed by its ID; a push; a pop.
enum NavigationEvent: Sendable {
  /// An event for the screen with this ID.
  case path(StackID, ScreenEvent)
  /// Pushes a screen.
  case push
  /// Pops the top screen.
  case pop
}

/// The system of the navigation scenarios.
typealias NavigationSystem = System<NavigationState, NavigationEvent, CounterError, EmptyContext>

/// A stack of screens, each with one feedback: the cost of navigation per event.
///
/// `send` sends events to the top screen (each step reduces that screen and reconciles every
/// screen's feedback); `pushAndPop` pushes a screen and pops it (a child made and retired per
/// pair).
@MainActor
public final class StackFixture {
  private let system: NavigationSystem
  private let top: StackID

  /// Creates the system with `depth` screens and one UI binding.
  ///
  /// - Parameter depth: How many screens the stack holds.
  public init(depth: Int) {
    let screen = Feature<ScreenState, ScreenEvent, Never, EmptyContext>(
      reduce: { state, event in
        switch event {
        case .increment: state.count &+= 1
        case .detailLoaded: state.wantsDetail = false
        }
      },
      feedback: [
        .react(
          request: { $0.wantsDetail ? true : nil },
          effects: { _ in .pure(.detailLoaded) }
        )
      ]
    )
    let app = Feature<NavigationState, NavigationEvent, CounterError, EmptyContext>(
      reduce: { state, event in
        switch event {
        case .path: break
        case .push: state.path.append(ScreenState())
        case .pop: state.path.removeLast()
        }
      }
    )
    .forEach(
      screen, stack: \.path, event: NavigationEvent.path,
      extract: { if case .path(let id, let event) = $0 { (id, event) } else { nil } },
      context: { context, _ in context }
    )
    var initial = NavigationState()
    for _ in 0..<depth { initial.path.append(ScreenState()) }
    top = initial.path.ids.last ?? StackID(rawValue: 0)
    system = NavigationSystem(initialState: initial, context: EmptyContext(), feature: app)
    system.addUIBinding { state in consume(state.path.count) }
  }

  /// Sends `count` events to the top screen.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.path(top, .increment))
    }
  }

  /// Pushes a screen and pops it, `count` times.
  ///
  /// - Parameter count: The number of pushes (and pops).
  public func pushAndPop(_ count: Int) {
    for _ in 0..<count {
      system.send(.push)
      system.send(.pop)
    }
  }
}

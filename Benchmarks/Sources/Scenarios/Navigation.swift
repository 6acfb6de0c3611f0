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

/// A screen's reducer, shared by the library and the hand-rolled baseline.
///
/// - Parameters:
///   - state: The screen's state.
///   - event: The event to apply.
func reduceScreen(_ state: inout ScreenState, _ event: ScreenEvent) {
  switch event {
  case .increment: state.count &+= 1
  case .detailLoaded: state.wantsDetail = false
  }
}

/// The feature of one screen, with one feedback that never asks for anything, so that each step
/// only checks.
var screenFeature: Feature<ScreenState, ScreenEvent, Never, EmptyContext> {
  Feature(
    reduce: reduceScreen,
    feedback: [
      .react(
        request: { $0.wantsDetail ? true : nil },
        effects: { _ in .pure(.detailLoaded) }
      )
    ]
  )
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
      screenFeature, stack: \.path, event: NavigationEvent.path,
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

/// The app of the destination scenario: one screen presented at a time.
struct DestinationState {
  /// The presented screen, if any.
  @Presented var destination: ScreenState?
}

/// The events of the destination scenario.
enum DestinationEvent: Sendable {
  /// Presents a screen.
  case present
  /// An event for the presented screen.
  case destination(ScreenEvent)
  /// Dismisses the screen.
  case dismiss
}

/// A presented screen with one feedback: the cost of one presentation, per operation.
///
/// Each operation presents a screen (a child made), sends it one event, and dismisses it (the
/// child retired): three steps.
@MainActor
public final class DestinationFixture {
  private let system: System<DestinationState, DestinationEvent, CounterError, EmptyContext>

  /// Creates the system with nothing presented and one UI binding.
  public init() {
    let app = Feature<DestinationState, DestinationEvent, CounterError, EmptyContext>(
      reduce: { state, event in
        switch event {
        case .present: state.destination = ScreenState()
        case .destination: break
        case .dismiss: state.destination = nil
        }
      }
    )
    .presents(
      screenFeature, state: \.$destination, event: DestinationEvent.destination,
      extract: { if case .destination(let event) = $0 { event } else { nil } },
      context: { context, _ in context }
    )
    system = System(initialState: DestinationState(), context: EmptyContext(), feature: app)
    system.addUIBinding { state in consume(state.destination?.count ?? 0) }
  }

  /// Presents a screen, sends it an event and dismisses it, `count` times.
  ///
  /// - Parameter count: The number of presentations.
  public func presentSendDismiss(_ count: Int) {
    for _ in 0..<count {
      system.send(.present)
      system.send(.destination(.increment))
      system.send(.dismiss)
    }
  }
}

import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// TCA's "Navigate and load" case study (04-Navigation-NavigateAndLoad), as this library writes
// it: navigating shows a screen at once and loads its counter a second later; navigating back
// before then cancels the load.

/// A navigation to a counter that loads after a second.
enum NavigateAndLoad {
  struct Context: Sendable {
    var clock: any Clock<Duration>
  }

  struct State: Equatable, Sendable {
    var isNavigationActive = false
    var counter: CaseStudyCounter.State?
  }

  enum Event: Equatable, Sendable {
    case counter(CaseStudyCounter.Event)
    case setNavigation(isActive: Bool)
    case loaded
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .counter: break
        case .setNavigation(let isActive):
          state.isNavigationActive = isActive
          if !isActive { state.counter = nil }
        case .loaded: state.counter = CaseStudyCounter.State()
        }
      },
      feedback: [
        // Loads while the screen is shown without its counter; leaving it cancels the wait.
        Feedback.react(
          request: { $0.isNavigationActive && $0.counter == nil ? true : nil },
          effect: .run { _, _ in .loaded }
        )
        .debounced(for: .seconds(1), clock: \.clock)
      ]
    )
    .ifLet(CaseStudyCounter.feature, state: \.counter, event: Event.counter, context: { _ in })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigateAndLoadCaseStudyTests {
  let clock = ManualClock()

  func makeSystem() -> TestSystem<
    NavigateAndLoad.State, NavigateAndLoad.Event, Never, NavigateAndLoad.Context
  > {
    TestSystem(
      initialState: NavigateAndLoad.State(), context: NavigateAndLoad.Context(clock: clock),
      feature: NavigateAndLoad.feature, clock: clock)
  }

  @Test func theCounterLoadsASecondAfterNavigating() async {
    let system = makeSystem()
    system.send(.setNavigation(isActive: true)) { $0.isNavigationActive = true }
    system.expectStarted(true)
    system.run(true)
    await clock.advance(by: .seconds(1))
    await system.receive(.loaded) { $0.counter = CaseStudyCounter.State() }
    system.send(.counter(.incrementTapped)) { $0.counter?.count = 1 }
    system.send(.setNavigation(isActive: false)) {
      $0.isNavigationActive = false
      $0.counter = nil
    }
    await system.finish()
  }

  @Test func navigatingBackBeforeTheLoadCancelsIt() async {
    let system = makeSystem()
    system.send(.setNavigation(isActive: true)) { $0.isNavigationActive = true }
    system.expectStarted(true)
    system.run(true)
    await clock.advance(by: .milliseconds(500))
    system.send(.setNavigation(isActive: false)) { $0.isNavigationActive = false }
    system.expectCancelled(true)
    await clock.advance(by: .seconds(1))
    await system.finish()
  }
}

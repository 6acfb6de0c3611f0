import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// TCA's "Load then present" case study (04-Navigation-Sheet-LoadThenPresent), as this library
// writes it: a tap shows an activity indicator, loads for a second, then presents a sheet with
// the loaded counter.

/// A sheet presented once its counter has loaded.
enum LoadThenPresent {
  struct Context: Sendable {
    var clock: any Clock<Duration>
  }

  struct State: Equatable, Sendable {
    @Presented var counter: CaseStudyCounter.State?
    var isActivityIndicatorVisible = false
  }

  enum Event: Equatable, Sendable {
    case counter(CaseStudyCounter.Event)
    /// The view dismissed the sheet (a swipe down).
    case counterDismissed
    case counterTapped
    case loaded
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .counter: break
        case .counterDismissed: state.counter = nil
        case .counterTapped: state.isActivityIndicatorVisible = true
        case .loaded:
          state.isActivityIndicatorVisible = false
          state.counter = CaseStudyCounter.State()
        }
      },
      feedback: [
        Feedback.react(
          request: { $0.isActivityIndicatorVisible ? true : nil }, effect: .run { _, _ in .loaded }
        )
        .debounced(for: .seconds(1), clock: \.clock)
      ]
    )
    .presents(
      CaseStudyCounter.feature, state: \.$counter, event: Event.counter, context: { _, _ in })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct LoadThenPresentCaseStudyTests {
  @Test func theSheetIsPresentedOnceTheCounterHasLoaded() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: LoadThenPresent.State(), context: LoadThenPresent.Context(clock: clock),
      feature: LoadThenPresent.feature, clock: clock)
    system.send(.counterTapped) { $0.isActivityIndicatorVisible = true }
    system.expectStarted(true)
    system.run(true)
    await clock.advance(by: .seconds(1))
    await system.receive(.loaded) {
      $0.isActivityIndicatorVisible = false
      $0.counter = CaseStudyCounter.State()
    }
    system.send(.counter(.incrementTapped)) { $0.counter?.count = 1 }
    system.send(.counterDismissed) { $0.counter = nil }
    await system.finish()
  }
}

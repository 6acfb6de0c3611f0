import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// TCA's "Multiple destinations" case study (04-Navigation-Multiple-Destinations), as this library
// writes it: a drill-down, a popover and a sheet driven by one enum destination, one line per
// case.

/// Three kinds of presentation of a counter, from one destination.
enum MultipleDestinations {
  enum Destination {
    enum State: Equatable, Sendable {
      case drillDown(CaseStudyCounter.State)
      case popover(CaseStudyCounter.State)
      case sheet(CaseStudyCounter.State)
    }

    enum Event: Equatable, Sendable {
      case drillDown(CaseStudyCounter.Event)
      case popover(CaseStudyCounter.Event)
      case sheet(CaseStudyCounter.Event)
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { _, _ in })
        .ifCase(
          CaseStudyCounter.feature, case: State.drillDown, event: Event.drillDown,
          context: { _, _ in }
        )
        .ifCase(
          CaseStudyCounter.feature, case: State.popover, event: Event.popover, context: { _, _ in }
        )
        .ifCase(
          CaseStudyCounter.feature, case: State.sheet, event: Event.sheet, context: { _, _ in })
    }
  }

  struct State: Equatable, Sendable {
    @Presented var destination: Destination.State?
  }

  enum Event: Equatable, Sendable {
    case destination(Destination.Event)
    /// The view dismissed the destination (a swipe, the back button).
    case destinationDismissed
    case showDrillDown, showPopover, showSheet
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature(
      reduce: { state, event in
        switch event {
        case .destination: break
        case .destinationDismissed: state.destination = nil
        case .showDrillDown: state.destination = .drillDown(.init())
        case .showPopover: state.destination = .popover(.init())
        case .showSheet: state.destination = .sheet(.init())
        }
      }
    )
    .presents(
      Destination.feature, state: \.$destination, event: Event.destination,
      context: { _, _ in })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct MultipleDestinationsCaseStudyTests {
  func makeSystem() -> TestSystem<
    MultipleDestinations.State, MultipleDestinations.Event, Never, Void
  > {
    TestSystem(
      initialState: MultipleDestinations.State(), context: (), feature: MultipleDestinations.feature
    )
  }

  @Test func eachButtonPresentsItsKindOfScreen() async {
    let system = makeSystem()
    system.send(.showDrillDown) { $0.destination = .drillDown(.init()) }
    system.send(.destination(.drillDown(.incrementTapped))) {
      $0.destination = .drillDown(.init(count: 1))
    }
    system.send(.showPopover) { $0.destination = .popover(.init()) }
    system.send(.destination(.popover(.decrementTapped))) {
      $0.destination = .popover(.init(count: -1))
    }
    system.send(.showSheet) { $0.destination = .sheet(.init()) }
    system.send(.destinationDismissed) { $0.destination = nil }
    await system.finish()
  }

  @Test func anEventForAKindThatIsNotShownIsReported() async {
    let system = makeSystem()
    system.send(.showSheet) { $0.destination = .sheet(.init()) }
    let failures = await capturingFailures {
      system.send(.destination(.popover(.incrementTapped)))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("child at destination.popover,") == true)
    await system.finish()
  }
}

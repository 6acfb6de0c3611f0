import ArchitectureKit

/// The counter the navigation case studies present: a count, and two buttons.
enum CaseStudyCounter {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Event: Equatable, Sendable {
    case decrementTapped
    case incrementTapped
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature(reduce: { state, event in
      switch event {
      case .decrementTapped: state.count -= 1
      case .incrementTapped: state.count += 1
      }
    })
  }
}

import ArchitectureKit

/// A counter with a request that no event changes.
struct FeedbackState {
  /// The count the events change.
  var count = 0
  /// The request every feedback derives; constant.
  var query = 1
}

/// The events of the unchanged-feedback benchmarks.
enum FeedbackEvent: Sendable {
  /// Changes the count, never the request.
  case increment
  /// The result of a feedback's effect; changes nothing.
  case loaded(Int)
}

/// The system of the unchanged-feedback benchmarks.
typealias FeedbackSystem = System<FeedbackState, FeedbackEvent, CounterError, EmptyContext>

/// A system with many feedback loops whose request never changes after creation.
///
/// Each loop's effect is `.pure`, so it completes inside the core at creation; the request stays
/// in place, and every later event makes each loop derive its request and compare it with the
/// one it started, which is the cost measured.
@MainActor
public final class UnchangedFeedbackFixture {
  private let system: FeedbackSystem

  /// Creates the system with `count` feedback loops and one UI binding.
  ///
  /// - Parameter count: The number of feedback loops.
  public init(feedbacks count: Int) {
    let feedback = (0..<count).map { _ in
      Feedback<FeedbackState, FeedbackEvent, CounterError, EmptyContext>.react(
        request: { state in state.query },
        effects: { query in .pure(.loaded(query)) }
      )
    }
    system = FeedbackSystem.pure(
      initialState: FeedbackState(),
      context: EmptyContext(),
      reducer: { state, event in
        var state = state
        if case .increment = event { state.count &+= 1 }
        return state
      },
      uiBindings: [{ state in consume(state.count) }],
      userActions: [],
      feedback: feedback
    )
  }

  /// Sends `count` events that leave every request unchanged.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.increment)
    }
  }
}

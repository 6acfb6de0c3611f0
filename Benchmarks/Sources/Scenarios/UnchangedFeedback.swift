import ArchitectureKit

/// The state of the unchanged-feedback benchmarks: a count the events change and a request no
/// event changes.
protocol FeedbackScenarioState: Sendable {
  /// The state before any event.
  init()
  /// The count the events change.
  var count: Int { get set }
  /// The request every feedback derives; constant.
  var query: Int { get }
}

/// A state of two integers, which a copy copies bit for bit.
struct FeedbackState: FeedbackScenarioState {
  var count = 0
  var query = 1

  init() {}
}

/// A state that also holds references, as an app's does: copying it retains them.
struct DetailedFeedbackState: FeedbackScenarioState {
  var count = 0
  var query = 1
  /// Names, as a list a screen shows.
  var names = ["first", "second"]
  /// A title, longer than a string stored inline.
  var title = "A title too long to be stored inline in the string itself"

  init() {}
}

/// The events of the unchanged-feedback benchmarks.
enum FeedbackEvent: Sendable {
  /// Changes the count, never the request.
  case increment
  /// The result of a feedback's effect; changes nothing.
  case loaded(Int)
}

/// A system with many feedback loops whose request never changes after creation.
///
/// Each loop's effect is `.pure`, so it completes inside the core at creation; the request stays
/// in place, and every later event makes each loop derive its request and compare it with the
/// one it started, which is the cost measured.
@MainActor
public final class UnchangedFeedbackFixture {
  private let sendEvents: (Int) -> Void

  /// Creates the system with `count` feedback loops and one UI binding.
  ///
  /// - Parameters:
  ///   - count: The number of feedback loops.
  ///   - detailedState: Whether the state also holds references (``DetailedFeedbackState``)
  ///     rather than two integers (``FeedbackState``).
  public init(feedbacks count: Int, detailedState: Bool = false) {
    // Each state type is named here, in this module, so the systems run specialized.
    if detailedState {
      sendEvents = FeedbackLoops<DetailedFeedbackState>(feedbacks: count).send
    } else {
      sendEvents = FeedbackLoops<FeedbackState>(feedbacks: count).send
    }
  }

  /// Sends `count` events that leave every request unchanged.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    sendEvents(count)
  }
}

/// The system of ``UnchangedFeedbackFixture``, for one state type.
@MainActor
final class FeedbackLoops<State: FeedbackScenarioState> {
  private let system: System<State, FeedbackEvent, CounterError, EmptyContext>

  /// Creates the system with `count` feedback loops and one UI binding.
  ///
  /// - Parameter count: The number of feedback loops.
  init(feedbacks count: Int) {
    let feedback = (0..<count).map { _ in
      Feedback<State, FeedbackEvent, CounterError, EmptyContext>.react(
        request: { state in state.query },
        effects: { query in .pure(.loaded(query)) }
      )
    }
    system = System.pure(
      initialState: State(),
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
  func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.increment)
    }
  }
}

import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// TCA's LongLiving case study: a screen counts the screenshots taken while it is on screen.
///
/// Its observation starts with the screen's `.task` and ends either when that task is
/// cancelled (the screen went away) or on an event — no state field keeps it alive.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct LongLivingWorkTests {
  struct State: Equatable {
    var screenshotCount = 0
  }

  enum Event: Equatable, Sendable {
    case task
    case userDidTakeScreenshot
    case stopObserving
  }

  /// The screenshots the system reports, as a stream the test feeds.
  struct Context: Sendable {
    let screenshots: AsyncStream<Void>
  }

  nonisolated static var screen: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        if event == .userDidTakeScreenshot { state.screenshotCount += 1 }
      },
      feedback: [
        .react(
          on: { event, _ in event == .task ? "screenshots" : nil },
          until: { event, _ in event == .stopObserving },
          effect: .stream { _, context, send in
            for await _ in context.screenshots { await send(.userDidTakeScreenshot) }
          })
      ])
  }

  func makeSystem() -> (TestSystem<State, Event, Never, Context>, AsyncStream<Void>.Continuation) {
    let (screenshots, takeScreenshot) = AsyncStream.makeStream(of: Void.self)
    let system = TestSystem(
      initialState: State(), context: Context(screenshots: screenshots), feature: Self.screen,
      effects: .automatic)
    return (system, takeScreenshot)
  }

  @Test func theObservationEndsWithTheScreensTask() async {
    let (system, takeScreenshot) = makeSystem()
    let task = system.attach(.task)
    takeScreenshot.yield()
    await system.receive(.userDidTakeScreenshot) { $0.screenshotCount = 1 }
    task.cancel()
    system.expectCancelled("screenshots")
    takeScreenshot.yield()
    await system.finish()
  }

  @Test func theObservationEndsOnAnEvent() async {
    let (system, takeScreenshot) = makeSystem()
    system.send(.task)
    takeScreenshot.yield()
    await system.receive(.userDidTakeScreenshot) { $0.screenshotCount = 1 }
    system.send(.stopObserving)
    system.expectCancelled("screenshots")
    takeScreenshot.yield()
    await system.finish()
  }

  @Test func anAttachedEventThatStartsNothingCancelsNothing() async {
    let (system, _) = makeSystem()
    let task = system.attach(.stopObserving)
    task.cancel()
    await system.finish()
  }
}

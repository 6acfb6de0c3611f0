import ArchitectureKitTestSupport
import FunctionalCore
import Testing

/// The harness sees the tasks FunctionalCore's concurrent combinators start as the effect's
/// work: a child asleep on the clock waits for the test, a child working makes the effect busy,
/// and a racer a timeout left behind no longer counts.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct WorkAccountingTests {
  enum Event: Equatable, Sendable {
    case go
    case answered(String)
    case timedOut
  }

  struct Clocked: Sendable {
    let clock: ManualClock
    let work: StuckWork
  }

  static func reduce(_ state: inout [Event], _ event: Event) {
    state.append(event)
  }

  @Test func aTimeoutWhoseWorkNeverAnswersFiresAtItsDeadlineAndLeavesTheWorkBehind() async {
    let clock = ManualClock()
    let work = StuckWork()
    let system = TestSystem<[Event], Event, Never, Clocked>(
      initialState: [], context: Clocked(clock: clock, work: work), reduce: Self.reduce,
      feedback: [
        .react(
          request: { $0 == [.go] ? "ask" : nil },
          effects: { _ in
            AsyncResult<Clocked, Event, Late>.unfold { context, complete in
              Task {
                await context.work.wait()
                complete(.success(.answered("late")))
              }
            }
            .timeout(after: .seconds(5), on: clock, failingWith: Late())
            .recover { _ in .timedOut }
          })
      ],
      clock: clock, timeout: .seconds(10))
    system.send(.go) { $0 = [.go] }
    system.expectStarted("ask")
    system.run("ask")
    await clock.advance(by: .seconds(5))
    await system.receive(.timedOut) { $0 = [.go, .timedOut] }
    await system.finish()
    work.release()
  }

  @Test func twoDelayedComputationsZippedAreAnsweredAfterOneAdvance() async {
    let clock = ManualClock()
    let system = TestSystem<[Event], Event, Never, Clocked>(
      initialState: [], context: Clocked(clock: clock, work: StuckWork()),
      reduce: Self.reduce,
      feedback: [
        .react(
          request: { $0 == [.go] ? "both" : nil },
          effects: { _ in
            AsyncResult<Clocked, String, Never>.pure("a").delayed(by: .seconds(1), on: clock)
              .zip(.pure("b").delayed(by: .seconds(2), on: clock))
              .map { Event.answered($0 + $1) }
          })
      ],
      clock: clock, timeout: .seconds(10))
    system.send(.go) { $0 = [.go] }
    system.expectStarted("both")
    system.run("both")
    await clock.advance(by: .seconds(3))
    await system.receive(.answered("ab")) { $0 = [.go, .answered("ab")] }
    await system.finish()
  }
}

/// The failure of an answer that came too late.
struct Late: Error, Sendable {}

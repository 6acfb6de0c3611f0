import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// Sleepers due at the same instant wake one at a time, in the order they began to sleep, each
/// running to its next suspension before the next wakes: what effects due together send is
/// received in one order, every run.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct SameInstantOrderTests {
  /// A feature of `count` feedbacks, each an effect that sleeps 300 ms on the clock and then
  /// answers its index; all start with the initial state, in feedback order.
  nonisolated static func sleepers(_ count: Int) -> Feature<[Int], Int, Never, ManualClock> {
    Feature(
      reduce: { $0.append($1) },
      feedback: (0..<count).map { index in
        .react(
          request: { _ in index },
          effect: .run { _, clock in
            try? await clock.sleep(for: .milliseconds(300))
            return index
          })
      })
  }

  @Test(arguments: [2, 10])
  func effectsDueAtTheSameInstantAreReceivedInTheOrderTheyBeganToSleep(_ count: Int) async {
    for _ in 0..<100 {
      let clock = ManualClock()
      let system = TestSystem(
        initialState: [], context: clock, feature: Self.sleepers(count), clock: clock)
      for index in 0..<count {
        system.expectStarted(index)
        system.run(index)
      }
      await clock.advance(by: .milliseconds(300))
      for index in 0..<count {
        await system.receive(index) { $0.append(index) }
      }
      await system.finish()
    }
  }

  @Test func effectsDueAtTheSameInstantReachASystemInTheOrderTheyBeganToSleep() async {
    for _ in 0..<100 {
      let clock = ManualClock()
      let system = System(initialState: [], context: clock, feature: Self.sleepers(10))
      await clock.waitForSleepers(count: 10)
      await clock.advance(by: .milliseconds(300))
      await system.send(-1, while: { $0.count < 11 })
      #expect(system.state == [-1] + Array(0..<10) || system.state == Array(0..<10) + [-1])
      #expect(system.state.filter { $0 >= 0 } == Array(0..<10))
      system.stop()
    }
  }

  enum Download: Equatable, Sendable {
    case finished, timedOut
  }

  /// A `timeout` tied with its work: the work began to sleep first (its task starts before the
  /// deadline's), so it wins.
  @Test func aTimeoutTiedWithItsWorkLetsTheWorkWin() async {
    for _ in 0..<100 {
      let clock = ManualClock()
      let system = TestSystem(
        initialState: [Download](), context: clock, reduce: { $0.append($1) },
        feedback: [
          Feedback.react(
            request: { $0.isEmpty ? "download" : nil },
            effect: .run { _, clock in
              try? await clock.sleep(for: .seconds(1))
              return Download.finished
            }
          )
          .timeout(.seconds(1), clock: { $0 }, event: .timedOut)
        ],
        clock: clock)
      system.expectStarted("download")
      system.run("download")
      await clock.advance(by: .seconds(1))
      await system.receive(.finished) { $0 = [.finished] }
      await system.finish()
    }
  }
}

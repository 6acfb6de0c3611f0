import ArchitectureKitTestSupport
import FunctionalCore
import TestDoubles
import Testing

// The harness and its clock behave the same on every run, as System does (issue 11, defects 5,
// 6, 7, 8, 9 and 13): cancelled clock waits return, receive waits for an effect still working,
// non-exhaustive mode reduces every event, advances are atomic and play deadlines in order.
// TestSystemWaitingTests holds the failsafe and cancellation of the harness's waits.

private struct NoContext: Sendable {}

private enum AskFailure: Error, Equatable {
  case timedOut
}

private enum Letter: Equatable, Sendable {
  case go
  case a
  case b
}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct HarnessDeterminismTests {
  // MARK: Defect 5 — a cancelled clock wait returns

  @Test func aCancelledWaitForSleepersReturns() async {
    let clock = ManualClock()
    let waiting = Task { await clock.waitForSleepers() }
    waiting.cancel()
    await waiting.value
    #expect(clock.sleeperCount == 0)
  }

  // MARK: Defect 6 — receive waits for an effect that is still working

  // The answers come from a detached task, which the harness cannot see (the Testing article,
  // "What the executor cannot see"): until it hands its answer over, the effect counts as
  // waiting for the test, and a `receive` then fails at once. So each test waits until the
  // answer was handed over (`handedOver`) before it receives: what it checks is that the
  // answer on its way to the effect, and the effect's work after it, hold the wait.

  /// An answer that comes from another thread once `gate` opens, raced by a timeout on `clock`;
  /// `handedOver` records it once the effect has it.
  private static func answerWithTimeout(
    clock: ManualClock, gate: Gate, handedOver: Recorder<Bool>
  ) -> Feedback<[String], String, AskFailure, NoContext> {
    .react(
      request: { $0 == ["ask"] ? "answer" : nil },
      effects: { _ in
        AsyncResult<NoContext, String, AskFailure>.unfold { _, complete in
          Task.detached {
            await gate.wait()
            complete(.success("answered"))
            handedOver.record(true)
          }
        }
        .timeout(after: .seconds(30), on: clock, failingWith: .timedOut)
      }
    )
  }

  @Test func receiveWaitsForAnEffectWhoseTimeoutSleepsOnTheClockWhileItsAnswerComes() async {
    for _ in 0..<20 {
      let clock = ManualClock()
      let gate = Gate()
      let handedOver = Recorder<Bool>()
      let system = TestSystem(
        initialState: [String](), context: NoContext(), reduce: { $0.append($1) },
        feedback: [Self.answerWithTimeout(clock: clock, gate: gate, handedOver: handedOver)],
        clock: clock
      )
      system.send("ask") { $0 = ["ask"] }
      system.expectStarted("answer")
      system.run("answer")
      // The timeout's timer sleeps on the clock; the answer is on its way from another thread.
      await clock.waitForSleepers(count: 1)
      gate.open()
      await handedOver.wait()
      await system.receive("answered") { $0.append("answered") }
      await system.finish()
      guard system.state == ["ask", "answered"] else { break }
    }
  }

  @Test func receiveDoesNotGiveUpBecauseAnotherSystemSleepsOnTheSameClock() async {
    let clock = ManualClock()
    let ticker = TestSystem(
      initialState: [String](), context: NoContext(), reduce: { $0.append($1) },
      feedback: [
        Feedback<[String], String, Never, NoContext>.react(
          request: { $0.last == "start" ? "ticker" : nil },
          effect: .stream { _, _, send in
            while (try? await clock.sleep(for: .seconds(1))) != nil {
              await send("tick")
            }
          })
      ],
      clock: clock
    )
    ticker.send("start") { $0 = ["start"] }
    ticker.expectStarted("ticker")
    ticker.run("ticker")
    await clock.waitForSleepers(count: 1)

    for _ in 0..<20 {
      let gate = Gate()
      let handedOver = Recorder<Bool>()
      let system = TestSystem(
        initialState: [String](), context: NoContext(), reduce: { $0.append($1) },
        feedback: [
          Feedback<[String], String, Never, NoContext>.react(
            request: { $0 == ["ask"] ? "answer" : nil },
            effects: { _ in
              .unfold { _, complete in
                Task.detached {
                  await gate.wait()
                  complete(.success("answered"))
                  handedOver.record(true)
                }
              }
            })
        ],
        clock: clock
      )
      system.send("ask") { $0 = ["ask"] }
      system.expectStarted("answer")
      system.run("answer")
      gate.open()
      await handedOver.wait()
      await system.receive("answered") { $0.append("answered") }
      await system.finish()
      guard system.state == ["ask", "answered"] else { break }
    }

    ticker.send("stop") { $0.append("stop") }
    ticker.expectCancelled("ticker")
    await ticker.finish()
  }

  // MARK: Defect 7 — non-exhaustive mode reduces every event

  private static let letters = Feedback<[Letter], Letter, Never, NoContext>.react(
    request: { $0.first == .go ? "letters" : nil },
    effect: .stream { _, _, send in
      await send(.a)
      await send(.b)
    }
  )

  @Test func aNonExhaustiveReceiveReducesTheEventsItSkips() async {
    let system = TestSystem(
      initialState: [Letter](), context: NoContext(), reduce: { $0.append($1) },
      feedback: [Self.letters], exhaustivity: .off
    )
    system.send(.go)
    system.run("letters")
    await system.receive(.b)
    #expect(system.state == [.go, .a, .b])
    await system.finish()
  }

  @Test func aNonExhaustiveFinishReducesTheEventsLeft() async {
    let system = TestSystem(
      initialState: [Letter](), context: NoContext(), reduce: { $0.append($1) },
      feedback: [Self.letters], exhaustivity: .off
    )
    system.send(.go)
    system.run("letters")
    await system.finish()
    #expect(system.state == [.go, .a, .b])
  }

  // MARK: Defect 8 — the harness cancels like System, every run

  @Test func aStreamWhoseLastEventClearsItsOwnRequestIsCancelledEveryRun() async {
    for _ in 0..<20 {
      let system = TestSystem(
        initialState: [String](), context: NoContext(), reduce: { $0.append($1) },
        feedback: [
          Feedback<[String], String, Never, NoContext>.react(
            request: { $0.contains("go") && !$0.contains("done") ? "stream" : nil },
            effect: .stream { _, _, send in
              await send("progress")
              await send("done")
            })
        ]
      )
      system.send("go") { $0 = ["go"] }
      system.expectStarted("stream")
      system.run("stream")
      await system.receive("progress") { $0.append("progress") }
      await system.receive("done") { $0.append("done") }
      // Still running when its own last event made its request vanish, as in `System`.
      system.expectCancelled("stream")
      await system.finish()
    }
  }

  // MARK: Defect 9 — advances are atomic

  @Test func concurrentAdvancesLoseNoTime() async {
    let clock = ManualClock()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<20_000 { await clock.advance(by: .nanoseconds(1)) }
        }
      }
    }
    #expect(clock.now == ManualClock.Instant(offset: .nanoseconds(160_000)))
  }

  // MARK: Defect 13 — one advance plays the timeline in deadline order

  /// One effect per number of seconds; each sleeps that long on `clock`, then sends its number.
  private static func sleepers(
    _ seconds: Set<Int>, clock: ManualClock
  ) -> Feedback<[Int], Int, Never, NoContext> {
    .react(
      requests: { $0.first == 0 ? seconds : [] },
      effect: .run { seconds, _ in
        try? await clock.sleep(for: .seconds(seconds))
        return seconds
      }
    )
  }

  private func expectDeadlineOrderInTestSystem(
    startingIn order: [Int], advancingBy advance: Duration
  ) async {
    for _ in 0..<20 {
      let clock = ManualClock()
      let system = TestSystem(
        initialState: [Int](), context: NoContext(), reduce: { $0.append($1) },
        feedback: [Self.sleepers(Set(order), clock: clock)], clock: clock
      )
      system.send(0) { $0 = [0] }
      for seconds in order { system.expectStarted(seconds) }
      for seconds in order { system.run(seconds) }
      await clock.waitForSleepers(count: order.count)
      await clock.advance(by: advance)
      for seconds in order.sorted() {
        await system.receive(seconds) { $0.append(seconds) }
      }
      await system.finish()
      guard system.state == [0] + order.sorted() else { break }
    }
  }

  @Test func twoDeadlinesPassedInOneAdvanceAreReceivedEarliestFirst() async {
    await expectDeadlineOrderInTestSystem(startingIn: [2, 1], advancingBy: .seconds(3))
  }

  @Test func fiveDeadlinesPassedInOneAdvanceAreReceivedInDeadlineOrder() async {
    await expectDeadlineOrderInTestSystem(startingIn: [4, 2, 5, 1, 3], advancingBy: .seconds(6))
  }

  @Test(arguments: [[2, 1], [4, 2, 5, 1, 3]])
  func deadlinesPassedInOneAdvanceAreReducedInDeadlineOrderBySystem(_ order: [Int]) async {
    for _ in 0..<20 {
      let clock = ManualClock()
      let system = System<[Int], Int, Never, NoContext>(
        initialState: [], context: NoContext(), reduce: { $0.append($1) },
        feedback: [Self.sleepers(Set(order), clock: clock)]
      )
      let steps = Recorder<Int>()
      system.addObserver { activity in
        if case .step(let event, _, _) = activity { steps.record(event) }
      }
      system.send(0)
      await clock.waitForSleepers(count: order.count)
      await clock.advance(by: .seconds(order.count + 1))
      await steps.wait(count: order.count + 1)
      #expect(steps.values == [0] + order.sorted())
      system.stop()
      guard steps.values == [0] + order.sorted() else { break }
    }
  }
}

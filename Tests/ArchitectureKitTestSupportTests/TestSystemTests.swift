import ArchitectureKitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct TestSystemTests {
  typealias Harness = TestSystem<Loader.State, Loader.Event, Loader.Failure, Loader.Context>

  func harness(clock: ManualClock = ManualClock(), exhaustivity: Exhaustivity = .on) -> Harness {
    Harness(
      initialState: Loader.State(), context: Loader.context(clock: clock),
      reduce: Loader.reduce, feedback: Loader.feedback, clock: clock, exhaustivity: exhaustivity
    )
  }

  // MARK: Happy paths

  @Test func simulatesAnEffectsResultWithoutRunningIt() async {
    let system = harness()
    system.send(.search("yeezy")) { $0.query = "yeezy" }
    system.expectStarted(Loader.Request.search("yeezy"))
    system.simulate(Loader.Request.search("yeezy"), event: .loaded("SIMULATED"))
    await system.receive(.loaded("SIMULATED")) { $0.results = ["SIMULATED"] }
    await system.finish()
  }

  @Test func runsTheRealEffectAgainstTheTestContext() async {
    let system = harness()
    system.send(.search("yeezy")) { $0.query = "yeezy" }
    system.expectStarted(Loader.Request.search("yeezy"))
    system.run(Loader.Request.search("yeezy"))
    await system.receive(.loaded("YEEZY")) { $0.results = ["YEEZY"] }
    await system.finish()
  }

  @Test func aChangedRequestIsCancelledAndItsResultCanNeverArrive() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.send(.search("b")) { $0.query = "b" }
    system.expectCancelled(Loader.Request.search("a"))
    system.expectStarted(Loader.Request.search("b"))
    system.simulate(Loader.Request.search("b"), event: .loaded("B"))
    await system.receive(.loaded("B")) { $0.results = ["B"] }
    await system.finish()
  }

  @Test func aTimerRunsOnTheManualClock() async {
    let clock = ManualClock()
    let system = harness(clock: clock)
    system.send(.startTicking) { $0.isTicking = true }
    system.expectStarted(Loader.Request.ticker)
    system.run(Loader.Request.ticker)
    for tick in 1...3 {
      await clock.waitForSleepers(count: 1)
      await clock.advance(by: .seconds(1))
      await system.receive(.tick) { $0.ticks = tick }
    }
    system.send(.stopTicking) { $0.isTicking = false }
    system.expectCancelled(Loader.Request.ticker)
    await system.finish()
  }

  @Test func aFailureMustBeExpected() async {
    let system = harness()
    system.send(.search("offline")) { $0.query = "offline" }
    system.expectStarted(Loader.Request.search("offline"))
    system.run(Loader.Request.search("offline"))
    await system.settle()
    system.expectFailure { $0 == .offline }
    await system.finish()
  }

  @Test func loopCallbacksSeeEveryStep() async {
    let system = harness()
    var seen: [[String]] = []
    system.addLoopCallback { seen.append($0.results) }
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.simulate(Loader.Request.search("a"), event: .loaded("A"))
    await system.receive(.loaded("A")) { $0.results = ["A"] }
    #expect(seen == [[], ["A"]])
    await system.finish()
  }

  @Test func aRemovedLoopCallbackSeesNoMoreSteps() async {
    let system = harness()
    var seen: [String?] = []
    let listener = system.addLoopCallback { seen.append($0.query) }
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.removeListener(listener)
    system.send(.search("b")) { $0.query = "b" }
    system.expectCancelled(Loader.Request.search("a"))
    system.expectStarted(Loader.Request.search("b"))
    system.simulate(Loader.Request.search("b"), event: .loaded("B"))
    await system.receive(.loaded("B")) { $0.results = ["B"] }
    #expect(seen == ["a"])
    await system.finish()
  }

  @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
    let system = harness(exhaustivity: .off)
    system.send(.search("a"))
    system.run(Loader.Request.search("a"))
    await system.receive(.loaded("A")) { $0.results = ["A"] }
    system.send(.startTicking) { $0.isTicking = true }
    await system.finish()
  }

  @Test func reducerSpecsReadAsGivenWhenThen() {
    let spec = ReducerSpec(reduce: Loader.reduce)
    spec.given(Loader.State()).when(.search("a"), .loaded("A"))
      .then(Loader.State(query: "a", results: ["A"]))
    let counter = ReducerSpec<Int, Int>(reducer: { $0 + $1 })
    counter.given(1).when(2, 3).then(6)
  }

  // MARK: Every failure mode is caught and explained

  @Test func aWrongExpectedStateFailsWithADiff() {
    let system = harness()
    withKnownIssue {
      system.send(.search("a")) { $0.query = "b" }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("− expected, + actual")
        && text.contains("−   query: \"b\"\n+   query: \"a\"")
    }
    system.expectStarted(Loader.Request.search("a"))
    system.send(.search(nil)) { $0.query = nil }
    system.expectCancelled(Loader.Request.search("a"))
  }

  @Test func anUnassertedReceivedEventFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.simulate(Loader.Request.search("a"), event: .loaded("A"))
    withKnownIssue {
      system.send(.search(nil)) { $0.query = nil }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("were not received")
    }
  }

  @Test func anUnassertedStartedRequestFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    await withKnownIssue {
      await system.finish()
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("started but were not expected") || text.contains("still running")
    }
  }

  @Test func anEffectLeftRunningAtFinishFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    await withKnownIssue {
      await system.finish()
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("Effects are still running")
    }
  }

  @Test func receivingAnEventThatNeverCameFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.run(Loader.Request.search("a"))
    await system.receive(.loaded("A")) { $0.results = ["A"] }
    await withKnownIssue {
      await system.receive(.loaded("B"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("no effect sent an event")
    }
    await system.finish()
  }

  @Test func receivingTheWrongEventFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.simulate(Loader.Request.search("a"), event: .loaded("A"))
    await withKnownIssue {
      await system.receive(.loaded("Z")) { $0.results = ["A"] }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("instead of")
    }
    await system.finish()
  }

  @Test func simulatingARequestThatIsNotRunningFails() {
    let system = harness()
    withKnownIssue {
      system.simulate(Loader.Request.search("nope"), event: .loaded("X"))
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("No effect waits")
    }
  }

  @Test func aWrongReducerSpecFailsWithADiff() {
    withKnownIssue {
      ReducerSpec<Int, Int>(reducer: { $0 + $1 }).given(1).when(2).then(4)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().contains("− 4")
    }
  }
}

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

  @Test func aWrongExpectedStateFailsWithADiff() async {
    let system = harness()
    let failures = await capturingFailures {
      system.send(.search("a")) { $0.query = "b" }
    }
    #expect(failures.count == 1)
    #expect(
      failures.allSatisfy {
        $0.contains("− expected, + actual") && $0.contains("−   query: \"b\"\n+   query: \"a\"")
      })
    system.expectStarted(Loader.Request.search("a"))
    system.send(.search(nil)) { $0.query = nil }
    system.expectCancelled(Loader.Request.search("a"))
  }

  @Test func anUnassertedReceivedEventFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.simulate(Loader.Request.search("a"), event: .loaded("A"))
    let failures = await capturingFailures {
      system.send(.search(nil)) { $0.query = nil }
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("were not received") && $0.contains("loaded") })
  }

  @Test func anUnassertedStartedRequestFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    let failures = await capturingFailures {
      await system.finish()
    }
    #expect(failures.count == 2)
    #expect(failures.first?.contains("started but were not expected") == true)
    #expect(failures.last?.contains("Effects are still running") == true)
  }

  @Test func anEffectLeftRunningAtFinishFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    let failures = await capturingFailures {
      await system.finish()
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("Effects are still running") })
  }

  @Test func receivingAnEventThatNeverCameFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.run(Loader.Request.search("a"))
    await system.receive(.loaded("A")) { $0.results = ["A"] }
    let failures = await capturingFailures {
      await system.receive(.loaded("B"))
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("no effect sent an event") })
    await system.finish()
  }

  @Test func receivingTheWrongEventFails() async {
    let system = harness()
    system.send(.search("a")) { $0.query = "a" }
    system.expectStarted(Loader.Request.search("a"))
    system.simulate(Loader.Request.search("a"), event: .loaded("A"))
    let failures = await capturingFailures {
      await system.receive(.loaded("Z")) { $0.results = ["A"] }
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("instead of") })
    await system.finish()
  }

  @Test func simulatingARequestThatIsNotRunningFails() async {
    let system = harness()
    let failures = await capturingFailures {
      system.simulate(Loader.Request.search("nope"), event: .loaded("X"))
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("No effect waits") })
  }

  @Test func aWrongReducerSpecFailsWithADiff() async {
    let failures = await capturingFailures {
      ReducerSpec<Int, Int>(reducer: { $0 + $1 }).given(1).when(2).then(4)
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("− 4") })
  }
}

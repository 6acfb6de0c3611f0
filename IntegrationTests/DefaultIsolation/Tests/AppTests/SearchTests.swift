import ArchitectureKitTestSupport
import Testing

@testable import App

/// Every single-request feedback form, in a feature whose namespace is `nonisolated`, tested
/// from a test target whose code is on the main actor by default.
@Suite(.timeLimit(.minutes(10)))
struct SearchTests {
  typealias Harness = TestSystem<Search.State, Search.Event, Search.Failure, Search.Context>

  func harness(_ state: Search.State = Search.State(history: [])) -> Harness {
    Harness(initialState: state, context: .test, feature: Search.feature)
  }

  @Test func theHistoryLoadsWhileTheStateHasNone() async {
    let system = harness(Search.State())
    system.expectStarted(true)
    system.run(true)
    await system.receive(.historyLoaded(["swift"])) { $0.history = ["swift"] }
    await system.finish()
  }

  @Test func aQueryStartsItsSuggestionsAndItsSearch() async {
    let system = harness()
    system.send(.queryChanged("sw")) { $0.query = "sw" }
    system.expectStarted("sw", Search.Request(query: "sw", page: 1))
    system.run("sw")
    await system.receive(.suggested(["swift", "sweet"])) { $0.suggestions = ["swift", "sweet"] }
    system.run(Search.Request(query: "sw", page: 1))
    await system.receive(.loaded(["swift p1"])) { $0.results = ["swift p1"] }
    await system.finish()
  }

  @Test func aChangedRequestRestartsTheSearch() async {
    let system = harness()
    system.send(.queryChanged("sw")) { $0.query = "sw" }
    system.expectStarted("sw", Search.Request(query: "sw", page: 1))
    system.simulate("sw", event: .suggested([]))
    await system.receive(.suggested([]))
    system.send(.nextPage) { $0.page = 2 }
    system.expectCancelled(Search.Request(query: "sw", page: 1))
    system.expectStarted(Search.Request(query: "sw", page: 2))
    system.run(Search.Request(query: "sw", page: 2))
    await system.receive(.loaded(["swift p2"])) { $0.results = ["swift p2"] }
    await system.finish()
  }

  @Test func aFailedSearchIsReported() async {
    let system = harness()
    system.send(.queryChanged("fail")) { $0.query = "fail" }
    system.expectStarted("fail", Search.Request(query: "fail", page: 1))
    system.simulate("fail", event: .suggested([]))
    await system.receive(.suggested([]))
    system.run(Search.Request(query: "fail", page: 1))
    await system.settle()
    system.expectFailure { $0 == Search.Failure() }
    await system.finish()
  }

  @Test func aWatchedTopicStreamsItsUpdates() async {
    let system = harness()
    system.send(.watch("swift")) { $0.liveTopic = "swift" }
    system.expectStarted("swift")
    system.run("swift")
    await system.receive(.liveUpdate("swift 1")) { $0.liveUpdates = ["swift 1"] }
    await system.receive(.liveUpdate("swift 2")) { $0.liveUpdates.append("swift 2") }
    await system.finish()
  }

  @Test func anExportIsAJobThatEndsWithItsLastEvent() async {
    let system = harness(Search.State(results: ["a", "b"], history: []))
    system.send(.exportTapped) { $0.isExporting = true }
    system.expectStarted(["a", "b"])
    system.run(["a", "b"])
    await system.receive(.exportProgress("a")) { $0.exported = ["a"] }
    await system.receive(.exportProgress("b")) { $0.exported.append("b") }
    // The job's last event clears its request; the job has finished, so nothing is cancelled.
    await system.receive(.exportFinished) { $0.isExporting = false }
    await system.finish()
  }
}

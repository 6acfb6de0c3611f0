import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

@testable import App

/// Two features composed with `scope`, run by `TestSystem` and by `System`.
@Suite(.timeLimit(.minutes(10)))
struct BrowserTests {
  typealias Harness = TestSystem<Browser.State, Browser.Event, Browser.Failure, Browser.Context>

  static let initialState = Browser.State(search: Search.State(history: []))

  @Test func aChildsEffectsRunWithItsRequestsAndTheirEventsComeBackEmbedded() async {
    let system = Harness(
      initialState: Self.initialState, context: .test, feature: Browser.feature)
    system.send(.search(.queryChanged("sw"))) { $0.search.query = "sw" }
    system.expectStarted("sw", Search.Request(query: "sw", page: 1))
    #expect(
      system.runningRequests.map(\.description) == [
        "search: sw", "search: \(Search.Request(query: "sw", page: 1))",
      ])
    system.simulate("sw", event: .search(.suggested([])))
    await system.receive(.search(.suggested([])))
    system.run(Search.Request(query: "sw", page: 1))
    await system.receive(.search(.loaded(["swift p1"]))) { $0.search.results = ["swift p1"] }

    let transfer = Transfers.Transfer(id: 1, kind: .job)
    system.send(.transfers(.enqueue(transfer))) { $0.transfers.queue = [transfer] }
    system.expectStarted(transfer)
    system.run(transfer)
    await system.receive(.transfers(.progress(1, "a"))) { $0.transfers.log = ["1: a"] }
    await system.receive(.transfers(.progress(1, "b"))) { $0.transfers.log.append("1: b") }
    await system.receive(.transfers(.finished(1))) {
      $0.transfers.log.append("1: done")
      $0.transfers.queue = []
    }
    await system.finish()
  }

  @Test func aChildsFailureIsMappedToTheParents() async {
    let system = Harness(
      initialState: Self.initialState, context: .test, feature: Browser.feature)
    system.send(.search(.queryChanged("fail"))) { $0.search.query = "fail" }
    system.expectStarted("fail", Search.Request(query: "fail", page: 1))
    system.simulate("fail", event: .search(.suggested([])))
    await system.receive(.search(.suggested([])))
    system.run(Search.Request(query: "fail", page: 1))
    await system.settle()
    system.expectFailure { $0 == .search }
    await system.finish()
  }

  @Test func everyFormRunsItsRealEffectInASystem() async {
    let system = System(initialState: Browser.State(), context: .test, feature: Browser.feature)
    defer { system.stop() }
    func send(_ event: Browser.Event?, until isDone: (Browser.State) -> Bool) async {
      if let event { system.send(event) }
      for await state in system.states where isDone(state) { return }
    }

    // react(_:when:) runs at creation: the initial state has no history.
    await send(nil, until: { $0.search.history != nil })
    #expect(system.state.search.history == ["swift"])

    await send(
      .search(.queryChanged("sw")),
      until: { !$0.search.suggestions.isEmpty && !$0.search.results.isEmpty })
    #expect(system.state.search.suggestions == ["swift", "sweet"])
    #expect(system.state.search.results == ["swift p1"])

    await send(.search(.watch("swift")), until: { $0.search.liveUpdates.count == 2 })
    #expect(system.state.search.liveUpdates == ["swift 1", "swift 2"])

    await send(.search(.exportTapped), until: { !$0.search.isExporting })
    #expect(system.state.search.exported == ["swift p1"])

    // One transfer of each kind through the set forms, then one through the keyed forms.
    var logged = 0
    for (id, kind) in zip(1..., Transfers.Transfer.Kind.allCases) {
      logged += kind == .stream ? 2 : kind == .job ? 3 : 1
      let expected = logged
      let transfer = Transfers.Transfer(id: id, kind: kind)
      await send(.transfers(.enqueue(transfer)), until: { $0.transfers.log.count == expected })
    }
    for (id, kind) in zip(11..., Transfers.Transfer.Kind.allCases) {
      logged += kind == .stream ? 2 : kind == .job ? 3 : 1
      let expected = logged
      let transfer = Transfers.Transfer(id: id, kind: kind)
      await send(.transfers(.mirror(transfer)), until: { $0.transfers.log.count == expected })
    }
    #expect(
      system.state.transfers.log == [
        "1: done", "2: done", "3: a", "3: b", "4: a", "4: b", "4: done",
        "11: done", "12: done", "13: a", "13: b", "14: a", "14: b", "14: done",
      ])
  }

  /// `send(_:while:)`, what SwiftUI's `.refreshable` calls, must evaluate its predicate on the
  /// main actor. (It once checked the predicate inside closures that Swift 6.3 runs on the
  /// global executor, swiftlang/swift#83812, where this predicate trapped.)
  @Test
  func sendWhileEvaluatesItsPredicateOnTheMainActor() async {
    let system = System(initialState: Browser.State(), context: .test, feature: Browser.feature)
    defer { system.stop() }
    await system.send(
      .search(.queryChanged("sw")),
      while: { state in
        MainActor.preconditionIsolated()
        return state.search.results.isEmpty
      })
    #expect(system.state.search.results == ["swift p1"])
  }
}

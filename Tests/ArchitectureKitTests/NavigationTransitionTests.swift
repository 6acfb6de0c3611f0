import ArchitectureKit
import Testing

// DESIGN §8, "Navigation": every transition of a destination and a stack, on `System`,
// `BackgroundSystem` and `TestSystem` alike — which effects start, which are cancelled, and
// that the late answer of an ended screen is dropped as the event of a cancelled effect, never
// reduced. Each screen's effect stops at a checkpoint (TransitionFixtures.swift); a test ends
// the screen while its effect waits there, then lets the effect answer.

/// Each transition of a destination and a stack, on every runtime.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationTransitionTests {
  typealias Harness = NavigationHarness<Transit.State, Transit.Event>

  /// A harness on `runtime` that sent `events`, with what they started already reported.
  func makeHarness(_ runtime: NavigationRuntime, after events: [Transit.Event] = []) async
    -> Harness
  {
    let app = await Harness(runtime, initialState: Transit.State(), feature: { Transit.feature })
    for event in events { await app.send(event) }
    _ = app.changes()
    return app
  }

  // MARK: Destination

  @Test(arguments: NavigationRuntime.allCases)
  func presentingStartsTheScreensEffect(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime)
    await app.send(.present(Transit.editor("a")))
    #expect(app.changes().started == ["destination.editor: a"])
    await app.answer("destination.editor a", with: .destination(.editor(.loaded("a", run: 1))))
    #expect(await app.state.destination == Transit.editor("a", loads: [1]))
    #expect(app.changes().cancelled.isEmpty)
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func switchingCaseCancelsTheOldScreenAndDropsItsLateAnswer(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: [.present(Transit.editor("a"))])
    await app.send(.present(Transit.viewer("a")))
    #expect(app.changes() == (["destination.viewer: a"], ["destination.editor: a"]))
    await app.answerLate(
      "destination.editor a", with: .destination(.editor(.loaded("a", run: 1))))
    await app.answer("destination.viewer a", with: .destination(.viewer(.loaded("a", run: 1))))
    #expect(await app.state.destination == Transit.viewer("a", loads: [1]))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func presentingTheSameScreenAgainIsANewScreen(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: [.present(Transit.editor("a"))])
    await app.send(.present(Transit.editor("a")))
    // The equal request is restarted: the old screen's effect ends with it.
    #expect(app.changes() == (["destination.editor: a"], ["destination.editor: a"]))
    await app.answerLate(
      "destination.editor a", run: 1, with: .destination(.editor(.loaded("a", run: 1))))
    await app.answer(
      "destination.editor a", run: 2, with: .destination(.editor(.loaded("a", run: 2))))
    #expect(await app.state.destination == Transit.editor("a", loads: [2]))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func aChangeInPlaceKeepsTheScreenAndItsEffect(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: [.present(Transit.editor("a"))])
    await app.send(.editDestination)
    await app.send(.destination(.editor(.edit)))
    #expect(app.changes() == ([], []))
    await app.answer("destination.editor a", with: .destination(.editor(.loaded("a", run: 1))))
    #expect(await app.state.destination == Transit.editor("a", loads: [1], edits: 2))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func theParentDismissingCancelsTheScreenAndDropsItsLateAnswer(
    runtime: NavigationRuntime
  ) async {
    let app = await makeHarness(runtime, after: [.present(Transit.editor("a"))])
    await app.send(.dismiss)
    #expect(app.changes() == ([], ["destination.editor: a"]))
    await app.answerLate(
      "destination.editor a", with: .destination(.editor(.loaded("a", run: 1))))
    #expect(await app.state.destination == nil)
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func theScreenDismissingItselfCancelsItAndDropsItsLateAnswer(
    runtime: NavigationRuntime
  ) async {
    let app = await makeHarness(runtime, after: [.present(Transit.viewer("a"))])
    await app.send(.destination(.viewer(.closeTapped)))
    #expect(await app.state.destination == nil)
    #expect(app.changes() == ([], ["destination.viewer: a"]))
    await app.answerLate(
      "destination.viewer a", with: .destination(.viewer(.loaded("a", run: 1))))
    await app.stop()
  }

  // MARK: Stack

  @Test(arguments: NavigationRuntime.allCases)
  func pushingStartsEachScreensEffect(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime)
    await app.send(.push(Transit.editor("a")))
    await app.send(.push(Transit.viewer("b")))
    #expect(app.changes() == (["path[#1].editor: a", "path[#2].viewer: b"], []))
    await app.answer("path.viewer b", with: .path(2, .viewer(.loaded("b", run: 1))))
    await app.answer("path.editor a", with: .path(1, .editor(.loaded("a", run: 1))))
    #expect(
      await app.state.path.elementsEqual([
        Transit.editor("a", loads: [1]), Transit.viewer("b", loads: [1]),
      ]))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func poppingCancelsTheTopScreenOnly(runtime: NavigationRuntime) async {
    let app = await makeHarness(
      runtime, after: [.push(Transit.editor("a")), .push(Transit.editor("b"))])
    await app.send(.pop)
    #expect(app.changes() == ([], ["path[#2].editor: b"]))
    await app.answerLate("path.editor b", with: .path(2, .editor(.loaded("b", run: 1))))
    await app.answer("path.editor a", with: .path(1, .editor(.loaded("a", run: 1))))
    #expect(await app.state.path.elementsEqual([Transit.editor("a", loads: [1])]))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func poppingToAScreenCancelsTheScreensAboveItTopFirst(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: ["a", "b", "c"].map { .push(Transit.editor($0)) })
    await app.send(.popTo(1))
    #expect(app.changes() == ([], ["path[#3].editor: c", "path[#2].editor: b"]))
    await app.answerLate("path.editor b", with: .path(2, .editor(.loaded("b", run: 1))))
    await app.answerLate("path.editor c", with: .path(3, .editor(.loaded("c", run: 1))))
    await app.answer("path.editor a", with: .path(1, .editor(.loaded("a", run: 1))))
    #expect(await app.state.path.ids == [1])
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func poppingToTheRootCancelsEveryScreen(runtime: NavigationRuntime) async {
    let app = await makeHarness(
      runtime, after: [.push(Transit.editor("a")), .push(Transit.viewer("b"))])
    await app.send(.popToRoot)
    #expect(app.changes() == ([], ["path[#2].viewer: b", "path[#1].editor: a"]))
    await app.answerLate("path.editor a", with: .path(1, .editor(.loaded("a", run: 1))))
    await app.answerLate("path.viewer b", with: .path(2, .viewer(.loaded("b", run: 1))))
    #expect(await app.state.path.isEmpty)
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func aScreenThatDismissesItselfIsPoppedWithTheScreensAboveIt(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: ["a", "b", "c"].map { .push(Transit.editor($0)) })
    await app.send(.path(2, .editor(.closeTapped)))
    #expect(await app.state.path.ids == [1])
    #expect(app.changes() == ([], ["path[#3].editor: c", "path[#2].editor: b"]))
    await app.answerLate("path.editor c", with: .path(3, .editor(.loaded("c", run: 1))))
    await app.answerLate("path.editor b", with: .path(2, .editor(.loaded("b", run: 1))))
    await app.stop()
  }

  /// A stack built afresh reuses the IDs `#1`, `#2`…: the late answer of the old `#1` addresses
  /// a screen that is on the stack, and is dropped all the same.
  @Test(arguments: NavigationRuntime.allCases)
  func aReusedStackIDIsANewScreenThatNeverSeesTheOldOnesAnswer(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: [.push(Transit.editor("a"))])
    await app.send(.replacePath([Transit.editor("a")]))
    #expect(app.changes() == (["path[#1].editor: a"], ["path[#1].editor: a"]))
    await app.answerLate(
      "path.editor a", run: 1, with: .path(1, .editor(.loaded("a", run: 1))))
    await app.answer("path.editor a", run: 2, with: .path(1, .editor(.loaded("a", run: 2))))
    #expect(await app.state.path.elementsEqual([Transit.editor("a", loads: [2])]))
    await app.stop()
  }

  /// Replacing a screen through its ID changes it in place: the same kind of screen keeps its
  /// effect, another kind is a new screen under the same ID.
  @Test(arguments: NavigationRuntime.allCases)
  func replacingAScreenThroughItsIDChangesItInPlace(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime, after: [.push(Transit.editor("a"))])
    await app.send(.replaceScreen(1, Transit.editor("a", edits: 5)))
    await app.send(.path(1, .editor(.edit)))
    #expect(app.changes() == ([], []))
    await app.send(.replaceScreen(1, Transit.viewer("a")))
    #expect(app.changes() == (["path[#1].viewer: a"], ["path[#1].editor: a"]))
    await app.answerLate("path.editor a", with: .path(1, .editor(.loaded("a", run: 1))))
    await app.answer("path.viewer a", with: .path(1, .viewer(.loaded("a", run: 1))))
    #expect(await app.state.path.elementsEqual([Transit.viewer("a", loads: [1])]))
    await app.stop()
  }
}

import ArchitectureKit
import Testing

// DESIGN §8, "Recursion": a feature that contains itself (`Feature.lazy`), three levels deep,
// on every runtime: each level runs its own effects, named through the levels above it, and a
// level that goes — popped by its parent or closing itself — takes exactly its effects and
// those of the levels below it along, their late answers dropped.

/// A folder tree three levels deep, built with `Feature.lazy`.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationRecursionTests {
  typealias Harness = NavigationHarness<Tree.State, Tree.Event>

  static let a = "children[#1]"
  static let b = "children[#1].children[#1]"

  func makeHarness(_ runtime: NavigationRuntime) async -> Harness {
    await Harness(runtime, initialState: Tree.State(name: "root"), feature: { Tree.feature })
  }

  /// Opens `a` in the root, `b` in `a` and `c` in `b`.
  func openThreeLevels(_ app: Harness) async {
    await app.send(.open("a"))
    await app.send(.child(1, .open("b")))
    await app.send(.child(1, .child(1, .open("c"))))
  }

  @Test(arguments: NavigationRuntime.allCases)
  func eachLevelRunsItsOwnEffectsNamedThroughTheLevelsAbove(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime)
    await openThreeLevels(app)
    #expect(
      app.changes() == (["\(Self.a): a", "\(Self.b): b", "\(Self.b).children[#1]: c"], []))
    await app.answer("c", with: .child(1, .child(1, .child(1, .listed("c", run: 1)))))
    await app.answer("root", with: .listed("root", run: 1))
    await app.answer("b", with: .child(1, .child(1, .listed("b", run: 1))))
    await app.answer("a", with: .child(1, .listed("a", run: 1)))
    let root = await app.state
    #expect(root.listings == [1])
    #expect(root.children.first?.children.first?.children.first?.listings == [1])
    #expect(app.changes() == ([], []))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func closingALevelCancelsItAndTheLevelsBelowIt(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime)
    await openThreeLevels(app)
    await app.answer("a", with: .child(1, .listed("a", run: 1)))
    _ = app.changes()

    // The deepest level goes: only its effect is cancelled.
    await app.send(.child(1, .child(1, .closeLast)))
    #expect(app.changes() == ([], ["\(Self.b).children[#1]: c"]))
    await app.answerLate("c", with: .child(1, .child(1, .child(1, .listed("c", run: 1)))))

    // Opened again, it is a new folder, under a new ID.
    await app.send(.child(1, .child(1, .open("c"))))
    #expect(app.changes() == (["\(Self.b).children[#2]: c"], []))

    // The root closes `a`: `a`'s effect has ended; `b`'s and the new `c`'s are cancelled.
    await app.send(.closeLast)
    #expect(app.changes() == ([], ["\(Self.b): b", "\(Self.b).children[#2]: c"]))
    await app.answerLate("b", with: .child(1, .child(1, .listed("b", run: 1))))
    await app.answerLate(
      "c", run: 2, with: .child(1, .child(1, .child(2, .listed("c", run: 2)))))
    #expect(await app.state.children.isEmpty)
    await app.answer("root", with: .listed("root", run: 1))
    await app.stop()
  }

  @Test(arguments: NavigationRuntime.allCases)
  func aLevelThatClosesItselfTakesTheLevelsBelowIt(runtime: NavigationRuntime) async {
    let app = await makeHarness(runtime)
    await openThreeLevels(app)
    _ = app.changes()
    await app.send(.child(1, .child(1, .closeTapped)))
    #expect(await app.state.children.first?.children.isEmpty == true)
    #expect(app.changes() == ([], ["\(Self.b): b", "\(Self.b).children[#1]: c"]))
    await app.answerLate("c", with: .child(1, .child(1, .child(1, .listed("c", run: 1)))))
    await app.answerLate("b", with: .child(1, .child(1, .listed("b", run: 1))))
    await app.answer("a", with: .child(1, .listed("a", run: 1)))
    await app.stop()
  }
}

import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// Printed changes: one call, and each step prints its event, its changes and its effects.
@MainActor
struct PrintChangesTests {
  @Test func printsEachStepWithItsChangesAndEffects() {
    var lines: [String] = []
    let shelf = System<Shelf.State, Shelf.Event, Shelf.Failure, Void>(
      initialState: Shelf.State(), context: (), feature: Shelf.feature)
    shelf.printChanges { lines.append($0) }

    shelf.send(.addRow(3))
    shelf.send(.startTicking)
    shelf.send(.stopTicking)
    shelf.send(.save("too big"))

    #expect(
      lines == [
        "step 1: .addRow(3)",
        "  rows: [] → [State(id: 3, details: nil)]",
        "  started #1 rows[3]: details 3",
        "step 2: .row(id: 3, .loaded(\"details 3: fine\")) from #1 rows[3]: details 3",
        "  rows[3].details: nil → \"details 3: fine\"",
        "step 3: .startTicking",
        "  isTicking: false → true",
        "  started #2 ticker",
        "step 4: .tick from #2 ticker",
        "  ticks: 0 → 1",
        "step 5: .tick from #2 ticker",
        "  ticks: 1 → 2",
        "step 6: .stopTicking",
        "  isTicking: true → false",
        "  cancelled #2 ticker",
        "step 7: .save(\"too big\")",
        "  saving: nil → \"too big\"",
        "  started #3 too big",
        "  failed #3 too big: the disk is full",
      ])
  }

  @Test func printsAStepThatChangedNothing() {
    var lines: [String] = []
    let shelf = System<Shelf.State, Shelf.Event, Shelf.Failure, Void>(
      initialState: Shelf.State(), context: (), feature: Shelf.feature)
    shelf.printChanges { lines.append($0) }

    shelf.send(.stopTicking)
    shelf.stop()

    #expect(lines == ["step 1: .stopTicking", "  (no change)", "stopped"])
  }

  @Test nonisolated func printsFromABackgroundSystem() async {
    let lines = Lines()
    let counter = await BackgroundSystem<Int, Int, Never, Void>(
      initialState: 0, context: (), feature: Feature(reduce: { $0 += $1 }))
    await counter.printChanges { lines.append($0) }

    await counter.send(2)

    #expect(lines.values == ["step 1: 2", "  0 → 2"])
  }

  @Test func printsFromATestSystem() async {
    var lines: [String] = []
    let shelf = TestSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, exhaustivity: .off)
    shelf.printChanges { lines.append($0) }

    shelf.send(.save("draft"))
    shelf.simulate("draft", event: .didSave("draft"))
    await shelf.receive(.didSave("draft"))
    await shelf.finish()

    #expect(
      lines == [
        "step 1: .save(\"draft\")",
        "  saving: nil → \"draft\"",
        "  started #1 draft",
        "step 2: .didSave(\"draft\") from #1 draft",
        "  saving: \"draft\" → nil",
        "  saved: [] → [\"draft\"]",
        "stopped",
      ])
  }

  /// Lines printed on a system's actor.
  final class Lines: @unchecked Sendable {
    // Written on the system's actor, read after the test awaited it.
    private(set) var values: [String] = []

    func append(_ line: String) {
      values.append(line)
    }
  }
}

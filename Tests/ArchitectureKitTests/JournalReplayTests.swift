import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// A journal recorded by a system, replayed in a test: the same states, or the first step that
/// differs.
@MainActor
struct JournalReplayTests {
  typealias ShelfSystem = System<Shelf.State, Shelf.Event, Shelf.Failure, Void>
  typealias ShelfJournal = Journal<Shelf.State, Shelf.Event>

  /// The shelf's session, recorded; and every state it went through, step by step.
  func recordSession(into journal: ShelfJournal) -> [Shelf.State] {
    let shelf = ShelfSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)
    var states: [Shelf.State] = []
    shelf.addLoopCallback { states.append($0) }
    for event in Shelf.session { shelf.send(event) }
    shelf.stop()
    return states
  }

  func replay(_ journal: ShelfJournal) throws -> Replay {
    try Replay(journal: journal.lines.joined(separator: "\n"))
  }

  @Test func replaysEveryStateOfARecordedSession() throws {
    let journal = ShelfJournal(states: .everyStep)
    let states = recordSession(into: journal)

    let replay = try replay(journal)
    for (index, state) in states.enumerated() {
      #expect(try replay.run(feature: Shelf.feature, context: (), throughStep: index + 1) == state)
    }
    #expect(try replay.run(feature: Shelf.feature, context: ()) == states.last)
    #expect(replay.steps == 1...15)
  }

  @Test func replaysByTheChangesWhenTheJournalKeptNoStates() throws {
    let journal = ShelfJournal()
    let states = recordSession(into: journal)

    let final = try replay(journal).run(
      feature: Shelf.feature, initialState: Shelf.State(), context: ())

    #expect(final == states.last)
  }

  @Test func failsAtTheFirstStepThatDiffersWithTheStatesDiff() throws {
    let journal = ShelfJournal(states: .everyStep)
    _ = recordSession(into: journal)
    // A reducer that counts two ticks for one: the first tick is step 9.
    let changed = Shelf.feature { state, event in
      Shelf.reduce(&state, event)
      if event == .tick { state.ticks += 1 }
    }

    let error = #expect(throws: ReplayError.self) {
      try replay(journal).run(feature: changed, context: ())
    }

    guard case .diverged(let step, let event, let difference) = error else {
      Issue.record("expected a divergence, got \(String(describing: error))")
      return
    }
    #expect(step == 9)
    #expect(event == ".tick from #4 ticker")
    #expect(difference.contains("−   ticks: 1"))
    #expect(difference.contains("+   ticks: 2"))
    #expect(error?.description.hasPrefix("The replay diverged from the journal at step 9") == true)
  }

  @Test func failsAtTheFirstStepThatDiffersByItsChangesWhenNoStatesWereKept() throws {
    let journal = ShelfJournal()
    _ = recordSession(into: journal)
    let changed = Shelf.feature { state, event in
      Shelf.reduce(&state, event)
      if case .addRow(2) = event { state.rows.removeAll() }
    }

    #expect(
      throws: ReplayError.diverged(
        step: 5, event: ".addRow(2)",
        difference: "the state changed otherwise than recorded.\n"
          + "Recorded:\n  rows: [State(id: 1, details: \"details 1: fine\")] → "
          + "[State(id: 1, details: \"details 1: fine\"), State(id: 2, details: nil)]\n"
          + "Replayed:\n  rows: [State(id: 1, details: \"details 1: fine\")] → []")
    ) {
      try replay(journal).run(
        feature: changed, initialState: Shelf.State(), context: ())
    }
  }

  @Test func failsWhenTheReplayStartsAnotherEffect() throws {
    let journal = ShelfJournal(states: .everyStep)
    _ = recordSession(into: journal)
    let shouting = Shelf.feature(reducing: Shelf.reduce, ticker: "TICKER")

    #expect(
      throws: ReplayError.diverged(
        step: 8, event: ".startTicking",
        difference: "the journal started ticker; the replay started TICKER.")
    ) {
      try replay(journal).run(feature: shouting, context: ())
    }
  }

  /// The replay takes one feedback's starts of a step in any order, not those of two.
  ///
  /// A set of requests starts its new elements in the order of its hash table, which differs
  /// between the process that recorded a journal and the one that replays it (hashing is seeded
  /// per process). Starts of different feedbacks keep their order, which is the feedbacks'.
  @Test func takesTheStartsOfOneSetOfRequestsInAnyOrderButNotThoseOfTwoFeedbacks() throws {
    let journal = Journal<Batch.State, Batch.Event>(states: .everyStep)
    let batch = System(
      initialState: Batch.State(), context: (), feature: Batch.feature, journal: journal)
    batch.send(.start)
    batch.stop()
    let lines = journal.lines
    let starts = lines.indices.filter { lines[$0].contains(#""kind":"started""#) }
    let ofTheSet = starts.filter { !lines[$0].contains("audit") }
    try #require(ofTheSet.count == 3 && starts.count == 4)

    // The set's three starts in the reverse order: the replay takes them.
    var reversed = lines
    for (index, source) in zip(ofTheSet, ofTheSet.reversed()) { reversed[index] = lines[source] }
    #expect(reversed != lines)
    let replayed = try Replay(journal: reversed.joined(separator: "\n"))
      .run(feature: Batch.feature, context: ())
    #expect(replayed == Batch.State(pending: [1, 2, 3], isAuditing: true))

    // The audit's start (the second feedback) before the set's: the replay diverges.
    var swapped = lines
    let audit = try #require(starts.first { lines[$0].contains("audit") })
    swapped.remove(at: audit)
    swapped.insert(lines[audit], at: starts[0])
    let error = #expect(throws: ReplayError.self) {
      try Replay(journal: swapped.joined(separator: "\n")).run(feature: Batch.feature, context: ())
    }
    guard case .diverged(let step, _, let difference)? = error else { return }
    #expect(step == 1)
    #expect(difference.hasPrefix("the journal started audit; the replay started "))
  }

  @Test func replaysAJournalDumpedFromMemoryFromItsSnapshot() throws {
    let journal = ShelfJournal(capacity: 4, states: .everyStep)
    let states = recordSession(into: journal)

    let replay = try replay(journal)

    #expect(replay.steps == 12...15)
    #expect(try replay.run(feature: Shelf.feature, context: ()) == states.last)
  }

  @Test func refusesAJournalDumpedFromMemoryWithoutItsStates() throws {
    let journal = ShelfJournal(capacity: 4)
    _ = recordSession(into: journal)

    #expect {
      try replay(journal).run(feature: Shelf.feature, context: ())
    } throws: { error in
      guard case .noInitialState(let reason) = error as? ReplayError else { return false }
      return reason.hasPrefix("it starts at step 12 without the state before it")
    }
  }

  @Test func refusesAJournalOfEventsThatAreNotCodable() throws {
    let counter = System<Int, String.Index, Never, Void>(
      initialState: 0, context: (), feature: Feature(reduce: { count, _ in count += 1 }))
    let journal = Journal<Int, String.Index>()
    counter.record(into: journal)
    counter.send("a".startIndex)

    let replay = try Replay(journal: journal.lines.joined(separator: "\n"))

    #expect(
      throws: ReplayError.eventsNotEncoded(system: "System<Int, Index, Never, ()>")
    ) {
      try replay.run(
        feature: Feature<Int, String.Index, Never, Void>(reduce: { count, _ in count += 1 }),
        initialState: 0, context: ())
    }
  }

  @Test func refusesAFeatureWhoseEventsAreNotDecodable() throws {
    let journal = ShelfJournal()
    _ = recordSession(into: journal)

    #expect(throws: ReplayError.notDecodable(type: "Index")) {
      try replay(journal).run(
        feature: Feature<Int, String.Index, Never, Void>(reduce: { _, _ in }), initialState: 0,
        context: ())
    }
  }

  @Test func skipsATruncatedLastLineWithAWarning() throws {
    let journal = ShelfJournal(states: .everyStep)
    let states = recordSession(into: journal)
    // A process killed while it wrote step 15's line.
    var lines = journal.lines.filter { !$0.contains("\"stopped\"") }
    lines[lines.count - 1] = String(lines[lines.count - 1].prefix(40))

    let replay = try Replay(journal: lines.joined(separator: "\n"))

    #expect(replay.warnings.count == 1)
    #expect(replay.steps == 1...14)
    #expect(try replay.run(feature: Shelf.feature, context: ()) == states[13])
  }

  @Test func reportsALineThatIsNotJSON() {
    #expect(throws: ReplayError.malformed(line: 2, reason: "unexpected text at character 1")) {
      try Replay(journal: "{\"format\":\"architecturekit-journal\",\"version\":1}\nnot json\n{}")
    }
    #expect(throws: ReplayError.self) {
      try Replay(journal: "{\"format\":\"architecturekit-journal\",\"version\":2}")
    }
    #expect(throws: ReplayError.self) { try Replay(journalAt: "/nonexistent/journal.jsonl") }
  }

  @Test func refusesAStepTheJournalDoesNotHave() throws {
    let journal = ShelfJournal(states: .everyStep)
    _ = recordSession(into: journal)

    #expect(throws: ReplayError.noSuchStep(16, steps: 1...15)) {
      try replay(journal).run(feature: Shelf.feature, context: (), throughStep: 16)
    }
  }
}

/// A batch whose one event asks for three items at once, as a set of requests, and an audit
/// from a second feedback.
enum Batch {
  struct State: Equatable, Codable, Sendable {
    var pending: Set<Int> = []
    var isAuditing = false
  }

  enum Event: Equatable, Codable, Sendable {
    case start
    case done(Int)
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature(
      reduce: { state, event in
        switch event {
        case .start:
          state.pending = [1, 2, 3]
          state.isAuditing = true
        case .done(let item): state.pending.remove(item)
        }
      },
      feedback: [
        .react(requests: \.pending, effect: .stream { _, _, _ in await Gate().wait() }),
        .react(
          request: { $0.isAuditing ? "audit" : nil },
          effect: .stream { _, _, _ in await Gate().wait() }),
      ])
  }
}

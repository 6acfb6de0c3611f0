import ArchitectureKit
import Foundation
import FunctionalCore
import TestDoubles
import Testing

/// The journal: what it records of each step and effect, in memory and in a file.
@MainActor
struct JournalTests {
  typealias ShelfSystem = System<Shelf.State, Shelf.Event, Shelf.Failure, Void>
  typealias ShelfJournal = Journal<Shelf.State, Shelf.Event>

  /// Runs the shelf's session with `journal` attached at creation, then stops it.
  func record(into journal: ShelfJournal) {
    let shelf = ShelfSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)
    for event in Shelf.session { shelf.send(event) }
    shelf.stop()
  }

  /// The records of the session's first event: a search, answered by its effect.
  static let search = [
    "step 1 .search(.queryChanged(\"yee\")) from the app",
    "started #1 search: yee",
    "finished #1 search: yee",
    "step 2 .search(.found([\"yee 350\", \"yee 700\"])) from #1 search: yee",
  ]

  @Test func recordsEachStepWithItsOriginAndEveryEffectsLifetimeInAComposedFeature() throws {
    let journal = ShelfJournal()
    record(into: journal)

    let records = try JournalLines(journal.lines)
    #expect(
      records.summary == Self.search + [
        "step 3 .addRow(1) from the app",
        "started #2 rows[1]: details 1",
        "finished #2 rows[1]: details 1",
        "step 4 .row(id: 1, .loaded(\"details 1: fine\")) from #2 rows[1]: details 1",
        "step 5 .addRow(2) from the app",
        "started #3 rows[2]: details 2",
        "finished #3 rows[2]: details 2",
        "step 6 .row(id: 2, .loaded(\"details 2: fine\")) from #3 rows[2]: details 2",
        "step 7 .removeRow(1) from the app",
        "step 8 .startTicking from the app",
        "started #4 ticker",
        "step 9 .tick from #4 ticker",
        "step 10 .tick from #4 ticker",
        "step 11 .stopTicking from the app",
        "cancelled #4 ticker",
        "step 12 .save(\"draft\") from the app",
        "started #5 draft",
        "finished #5 draft",
        "step 13 .didSave(\"draft\") from #5 draft",
        "step 14 .save(\"too big\") from the app",
        "started #6 too big",
        "failed #6 too big: the disk is full",
        "ignored .row(id: 1, .loaded(\"late\")) from the app: missingChild rows[1]",
        "step 15 .search(.queryChanged(\"\")) from the app",
        "stopped",
      ])
    #expect(
      records.header["system"] as? String == "System<State, Event, Failure, ()>")
    #expect(records.header["events"] as? String == "codable")
    #expect(records.header["states"] as? String == "none")
    #expect(records.header["capacity"] as? Int == 1_000)
  }

  /// Runs `events` through a system with three journals that keep every second state.
  ///
  /// The first, attached at creation, records its steps inline, in code specialized for the
  /// system's types; the second, attached next, and the third, whose redaction changes events
  /// and states (to themselves), take the general path every recorder is told through, as the
  /// change printer attached last does. Returns each journal's records, times left out.
  func recordThrice<State: Sendable, Event: Sendable, Failure: Error>(
    _ initialState: State, _ feature: Feature<State, Event, Failure, Void>, _ events: [Event]
  ) throws -> (records: [[String]], printedSteps: Int) {
    let unchanged = JournalRedaction<State, Event>(events: { $0 }, states: { $0 })
    let journals = [
      Journal<State, Event>(states: .every(2)), Journal<State, Event>(states: .every(2)),
      Journal<State, Event>(states: .every(2), redaction: unchanged),
    ]
    var printed: [String] = []
    let system = System(
      initialState: initialState, context: (), feature: feature, journal: journals[0])
    system.record(into: journals[1])
    system.record(into: journals[2])
    system.printChanges { printed.append($0) }
    for event in events { system.send(event) }
    system.stop()
    // The records as written, but for their times (the header is the first line).
    let records = journals.map { journal in
      journal.lines.dropFirst().map { $0.replacing(/,?"time":[0-9.e-]+/, with: "") }
    }
    return (records, printed.filter { $0.hasPrefix("step ") }.count)
  }

  /// A state with collections, whose changes are listed at each step.
  @Test func everyJournalRecordsTheSameStepsWhicheverPathItTakes() throws {
    let (records, printedSteps) = try recordThrice(Shelf.State(), Shelf.feature, Shelf.session)
    #expect(records[0].count == 30)
    #expect(records[0] == records[1])
    #expect(records[0] == records[2])
    #expect(printedSteps == 15)
    // The snapshot of the state before the first step, then every second step's state.
    let steps = try JournalLines(["{}"] + records[0]).records
    let kept = steps.filter { $0["state"] != nil }.compactMap { $0["step"] as? Int }
    #expect(kept == [0, 2, 4, 6, 8, 10, 12, 14])
  }

  /// A state of plain values, kept beside each step and compared when the step is read.
  @Test func everyJournalRecordsTheSameChangesOfPlainValuesWhicheverPathItTakes() throws {
    let (records, printedSteps) = try recordThrice(
      Dial(), Feature<Dial, Int, Never, Void>(reduce: Self.turn), Array(1...9))
    // The snapshot, nine steps, and the stop.
    #expect(records[0].count == 11)
    #expect(records[0] == records[1])
    #expect(records[0] == records[2])
    #expect(printedSteps == 9)
    let steps = try JournalLines(["{}"] + records[0])
    #expect(steps.changes(ofStep: 1) == ["muted: false → true"])
    #expect(steps.changes(ofStep: 8) == ["position.x: 3 → 8"])
    #expect(steps.step(4)?["state"] != nil)
    #expect(steps.step(5)?["state"] == nil)
  }

  @Test func recordsTheChangedPathsOfEachStepNamedAsTheChildren() throws {
    let journal = ShelfJournal()
    record(into: journal)

    let records = try JournalLines(journal.lines)
    #expect(records.changes(ofStep: 1) == ["search.query: \"\" → \"yee\""])
    #expect(
      records.changes(ofStep: 4) == ["rows[1].details: nil → \"details 1: fine\""])
    #expect(
      records.changes(ofStep: 7) == [
        "rows: [State(id: 1, details: \"details 1: fine\"), "
          + "State(id: 2, details: \"details 2: fine\")] → "
          + "[State(id: 2, details: \"details 2: fine\")]"
      ])
    #expect(records.changes(ofStep: 13) == ["saving: \"draft\" → nil", "saved: [] → [\"draft\"]"])
  }

  /// A state of plain values, whose changes the journal lists when it writes a step.
  struct Dial: Sendable {
    enum Mode: Sendable { case off, low, high }
    struct Point: Sendable { var x = 0, y = 0 }
    var level = 0
    var muted = false
    var mode = Mode.off
    var position = Point()
  }

  /// Each event changes one part of the dial, or none.
  static func turn(_ dial: inout Dial, _ step: Int) {
    switch step % 5 {
    case 0: dial.level += step
    case 1: dial.muted.toggle()
    case 2: dial.mode = dial.mode == .low ? .high : .low
    case 3: dial.position.x = step
    default: break
    }
  }

  @Test func aStateOfPlainValuesListsTheChangesInMemoryAsItsFileDidAtEachStep() throws {
    let directory = try TemporaryFolder()
    let path = directory.path("dial.jsonl")
    let journal = try Journal<Dial, Int>(writingTo: path, capacity: 4)
    let dial = System<Dial, Int, Never, Void>(
      initialState: Dial(), context: (), feature: Feature(reduce: Self.turn), journal: journal)
    for step in 1...10 { dial.send(step) }

    let memory = try JournalLines(journal.lines)
    let file = try JournalLines(contentsOf: path)
    #expect(memory.records.compactMap { $0["step"] as? Int } == [7, 8, 9, 10])
    for step in 7...10 {
      #expect(memory.changes(ofStep: step) == file.changes(ofStep: step))
    }
    #expect(memory.changes(ofStep: 7) == ["mode: .low → .high"])
    #expect(memory.changes(ofStep: 8) == ["position.x: 3 → 8"])
    #expect(memory.changes(ofStep: 9).isEmpty)
    #expect(memory.changes(ofStep: 10) == ["level: 5 → 15"])
    #expect(file.changes(ofStep: 1) == ["muted: false → true"])
  }

  /// A class whose value can change after a step: a state holding one is not plain values.
  final class Note: @unchecked Sendable, CustomStringConvertible {
    var text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
  }

  @Test func aStateWithAReferenceListsItsChangesAsTheyWereAtTheStep() throws {
    let journal = Journal<Note?, Note?>(capacity: 10)
    let system = System<Note?, Note?, Never, Void>(
      initialState: nil, context: (), feature: Feature(reduce: { $0 = $1 }), journal: journal)
    let note = Note("draft")
    system.send(note)
    note.text = "edited after the step"

    let records = try JournalLines(journal.lines)
    #expect(records.changes(ofStep: 1) == [": nil → draft"])
  }

  @Test func timesEveryRecordOnAMonotonicClockFromTheStart() throws {
    let journal = ShelfJournal()
    record(into: journal)

    let times = try JournalLines(journal.lines).records.map { $0["time"] as? Double ?? -1 }
    #expect(times.allSatisfy { $0 >= 0 })
    #expect(times == times.sorted())
  }

  @Test func encodesEventsAndStatesThatAreCodable() throws {
    let journal = ShelfJournal(states: .everyStep)
    record(into: journal)

    let records = try JournalLines(journal.lines)
    #expect(records.header["states"] as? String == "codable")
    #expect(records.header["stateInterval"] as? Int == 1)
    let snapshot = try #require(records.records.first)
    #expect(snapshot["kind"] as? String == "snapshot")
    #expect(snapshot["step"] as? Int == 0)
    let first = try #require(records.step(1))
    let event = try #require(first["event"] as? [String: Any])
    let search = try #require(event["search"] as? [String: Any])
    #expect(search.keys.sorted() == ["_0"])
    let state = try #require(first["state"] as? [String: Any])
    #expect((state["search"] as? [String: Any])?["query"] as? String == "yee")
  }

  @Test func describesEventsThatAreNotCodable() throws {
    let counter = System<Int, String.Index, Never, Void>(
      initialState: 0, context: (),
      feature: Feature(reduce: { count, _ in count += 1 }))
    let journal = Journal<Int, String.Index>(states: .every(2))
    counter.record(into: journal)
    let text = "ab"
    counter.send(text.startIndex)
    counter.send(text.endIndex)

    let records = try JournalLines(journal.lines)
    #expect(records.header["events"] as? String == "description")
    #expect(records.header["states"] as? String == "codable")
    #expect(records.step(1)?["event"] == nil)
    #expect(records.step(1)?["eventText"] as? String != nil)
    #expect(records.step(1)?["state"] == nil)
    #expect(records.step(2)?["state"] as? Int == 2)
  }

  @Test func theRingKeepsTheLastStepsWithWhatFollowsEach() throws {
    let journal = ShelfJournal(capacity: 3)
    record(into: journal)

    let records = try JournalLines(journal.lines)
    #expect(records.header["capacity"] as? Int == 3)
    #expect(
      records.summary == [
        "step 13 .didSave(\"draft\") from #5 draft",
        "step 14 .save(\"too big\") from the app",
        "started #6 too big",
        "failed #6 too big: the disk is full",
        "ignored .row(id: 1, .loaded(\"late\")) from the app: missingChild rows[1]",
        "step 15 .search(.queryChanged(\"\")) from the app",
        "stopped",
      ])
  }

  @Test(arguments: [1, 2, 7, 100])
  func aRingOfAnySizeKeepsExactlyItsLastSteps(capacity: Int) throws {
    let counter = System<Int, Int, Never, Void>(
      initialState: 0, context: (), feature: Feature(reduce: { $0 += $1 }))
    let journal = Journal<Int, Int>(capacity: capacity)
    counter.record(into: journal)
    for step in 1...50 { counter.send(step) }

    let steps = try JournalLines(journal.lines).records.compactMap { $0["step"] as? Int }
    #expect(steps == Array(max(1, 51 - capacity)...50))
  }

  /// A ring of any capacity reads as the end of a journal that keeps everything, from its
  /// oldest step on.
  ///
  /// Over 200 random sends whose steps start, cancel and end effects, each step keeps exactly
  /// the records that follow it, up to the cancellations at the stop. The ring records inline,
  /// the whole journal on the general path.
  @Test(arguments: [1, 2, 3, 7])
  func aRingReadsAsTheEndOfTheWholeJournalFromItsOldestStep(capacity: Int) throws {
    let system = System<Int, Int, Never, Void>(
      initialState: 1, context: (),
      feature: Feature(
        reduce: { $0 = ($0 + $1) % 16 },
        feedback: [
          .react(
            requests: { state in Set((0..<4).filter { state & (1 << $0) != 0 }) },
            effect: .stream { _, _, _ in await Gate().wait() }),
          .react(request: { $0 % 5 == 3 ? $0 : nil }, effect: .run { _, _ in 1 }),
        ]))
    let ring = Journal<Int, Int>(capacity: capacity)
    let whole = Journal<Int, Int>(capacity: 10_000)
    system.record(into: ring)
    system.record(into: whole)
    var random = SplitMix64(seed: UInt64(capacity))
    for _ in 0..<200 { system.send(Int(random.next() % 7)) }
    system.stop()

    let all = try JournalLines(whole.lines).summary
    let steps = all.indices.filter { all[$0].hasPrefix("step ") }
    try #require(steps.count > capacity)
    // Records between the steps and after the last one: the ring must place each.
    #expect(steps.count < all.count / 2)
    #expect(all.last?.hasPrefix("cancelled") == true)
    #expect(try JournalLines(ring.lines).summary == Array(all[steps[steps.count - capacity]...]))
  }

  /// A step the ring drops lets go of its states at once: three steps kept over a hundred hold
  /// the states of those three steps and the base snapshot's (the state of the step dropped
  /// last), and no other dropped step's.
  @Test func aDroppedStepLetsGoOfItsStatesAtOnce() {
    struct Book: Sendable {
      var page: Page
    }
    let alive = Lock(0)
    let book = System<Book, Int, Never, Void>(
      initialState: Book(page: Page(counting: alive)), context: (),
      feature: Feature(reduce: { state, _ in state.page = Page(counting: alive) }))
    let journal = Journal<Book, Int>(capacity: 3, states: .everyStep)
    book.record(into: journal)
    var mostAlive = 0
    for step in 1...100 {
      book.send(step)
      mostAlive = max(mostAlive, alive.withLock { $0 })
    }
    // The state now (step 100's), steps 99 and 98, and the base: step 97's.
    #expect(alive.withLock { $0 } == 4)
    #expect(mostAlive == 4)
    #expect(journal.lines.count == 5)
  }

  /// A system that adds each event to its count, with one feedback loop.
  static func adder(
    feedback: Feedback<Int, Int, Never, Void>
  ) -> System<Int, Int, Never, Void> {
    System(
      initialState: 0, context: (), feature: Feature(reduce: { $0 += $1 }, feedback: [feedback]))
  }

  /// A step of plain values the ring drops still lets go of the request its event came from,
  /// and so do the effect records dropped with it: over fifty rounds, each with a request of its
  /// own whose effect ends at once, only the requests the ring keeps are alive.
  @Test func aDroppedStepLetsGoOfTheRequestItsEventCameFrom() throws {
    let alive = Lock(0)
    let counter = Self.adder(
      feedback: .react(
        request: { $0 % 2 == 1 ? Ticket(number: $0, counting: alive) : nil },
        effect: .run { _, _ in 1 }))
    let journal = Journal<Int, Int>(capacity: 1)
    counter.record(into: journal)
    for _ in 1...50 { counter.send(1) }

    // Each round: the app's step to an odd count, the effect's start and end, and the step of
    // its result, which came from it. The ring keeps the last of these.
    #expect(counter.state == 100)
    let records = try JournalLines(journal.lines).records
    #expect(records.map { $0["kind"] as? String } == ["step"])
    #expect(records.first?["step"] as? Int == 100)
    // The last step's origin names the request of the last round; nothing else holds one.
    #expect(alive.withLock { $0 } == 1)
  }

  /// The ring's buffer grows while its oldest entry is not at its start: after twenty steps
  /// that each dropped the oldest one, a step that starts forty effects keeps every record,
  /// in the order they came.
  @Test func aRingThatGrowsWhileWrappedKeepsItsRecordsInOrder() throws {
    let counter = Self.adder(
      feedback: .react(
        requests: { $0 > 100 ? Set(0..<40) : [] },
        effect: .stream { _, _, _ in await Gate().wait() }))
    let journal = Journal<Int, Int>(capacity: 2)
    counter.record(into: journal)
    for _ in 1...20 { counter.send(1) }
    counter.send(100)

    let records = try JournalLines(journal.lines).records
    #expect(records.compactMap { $0["step"] as? Int } == [20, 21])
    let kinds = records.map { $0["kind"] as? String }
    #expect(kinds == ["step", "step"] + Array(repeating: "started", count: 40))
    // Numbered as they started: the records kept their order through the growth.
    #expect(records.compactMap { $0["effect"] as? Int } == Array(1...40))
    counter.stop()
  }

  @Test func aRingThatKeepsEveryStateStartsWithTheStateBeforeItsOldestStep() throws {
    let journal = ShelfJournal(capacity: 2, states: .everyStep)
    record(into: journal)

    let records = try JournalLines(journal.lines)
    let snapshot = try #require(records.records.first)
    #expect(snapshot["kind"] as? String == "snapshot")
    #expect(snapshot["step"] as? Int == 13)
    #expect((snapshot["state"] as? [String: Any])?["saved"] as? [String] == ["draft"])
    #expect(records.records.dropFirst().first?["step"] as? Int == 14)
  }

  @Test func writesEachRecordToItsFileAsItHappens() throws {
    let directory = try TemporaryFolder()
    let path = directory.path("shelf.jsonl")
    let journal = try ShelfJournal(writingTo: path, capacity: 0)
    let shelf = ShelfSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)

    shelf.send(.addRow(1))
    let afterOneSend = try JournalLines(contentsOf: path)
    shelf.send(.save("draft"))
    let afterTwoSends = try JournalLines(contentsOf: path)

    #expect(
      afterOneSend.summary == [
        "step 1 .addRow(1) from the app",
        "started #1 rows[1]: details 1",
        "finished #1 rows[1]: details 1",
        "step 2 .row(id: 1, .loaded(\"details 1: fine\")) from #1 rows[1]: details 1",
      ])
    #expect(afterTwoSends.summary.count == afterOneSend.summary.count + 4)
    #expect(afterTwoSends.header["capacity"] is NSNull)
    #expect(journal.lines.count == 1)
  }

  @Test func reportsAFileItCannotOpen() throws {
    let directory = try TemporaryFolder()
    #expect(throws: JournalError.self) {
      try ShelfJournal(writingTo: directory.path("missing/shelf.jsonl"))
    }
  }

  @Test func writesItsRingToAFileForABugReport() throws {
    let directory = try TemporaryFolder()
    let journal = ShelfJournal(capacity: 3)
    record(into: journal)

    try journal.write(toFile: directory.path("report.jsonl"))

    let written = try String(contentsOfFile: directory.path("report.jsonl"), encoding: .utf8)
    #expect(written == journal.lines.map { $0 + "\n" }.joined())
  }

  @Test func redactsEventsStatesRequestsAndErrorsBeforeAnythingIsMadeOfThem() throws {
    let secret = "4111 1111 1111 1111"
    let directory = try TemporaryFolder()
    let path = directory.path("redacted.jsonl")
    let redaction = JournalRedaction<Shelf.State, Shelf.Event>(
      events: { event in
        switch event {
        case .save: .save("•••")
        case .didSave: .didSave("•••")
        default: event
        }
      },
      states: { state in
        var state = state
        state.saving = state.saving.map { _ in "•••" }
        state.saved = state.saved.map { _ in "•••" }
        return state
      },
      requests: { request in request.value is String ? "a save" : request.description },
      errors: { _ in "a failed save" })
    let journal = try ShelfJournal(writingTo: path, states: .everyStep, redaction: redaction)
    let shelf = ShelfSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)
    shelf.send(.save(secret))

    let file = try String(contentsOfFile: path, encoding: .utf8)
    let memory = journal.lines.joined(separator: "\n")
    #expect(!file.contains("4111"))
    #expect(!memory.contains("4111"))
    #expect(
      try JournalLines(journal.lines).summary == [
        "step 1 .save(\"•••\") from the app",
        "started #1 a save",
        "finished #1 a save",
        "step 2 .didSave(\"•••\") from #1 a save",
      ])
    #expect(shelf.state.saved == [secret])
  }

  @Test func recordsABackgroundSystem() async throws {
    let journal = ShelfJournal()
    let shelf = await BackgroundSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)
    // The search's result hops back to the actor: wait for it.
    await shelf.send(.search(.queryChanged("yee")), while: { $0.search.results.isEmpty })
    await shelf.stop()

    let records = try JournalLines(journal.lines)
    #expect(records.summary == Self.search + ["stopped"])
    #expect(records.header["system"] as? String == "BackgroundSystem<State, Event, Failure, ()>")
  }

  @Test func recordsTheEffectsRunningWhenItIsAttachedLater() throws {
    let shelf = ShelfSystem(initialState: Shelf.State(), context: (), feature: Shelf.feature)
    shelf.send(.startTicking)
    let journal = ShelfJournal()
    shelf.record(into: journal)
    shelf.send(.stopTicking)

    #expect(
      try JournalLines(journal.lines).summary == [
        "step 1 .stopTicking from the app", "cancelled #1 ticker",
      ])
  }

  @Test func aJournalRecordsOneSystemOnly() throws {
    let journal = ShelfJournal()
    let first = ShelfSystem(initialState: Shelf.State(), context: (), feature: Shelf.feature)
    let second = ShelfSystem(initialState: Shelf.State(), context: (), feature: Shelf.feature)
    first.record(into: journal)
    second.record(into: journal)

    first.send(.addRow(1))
    second.send(.addRow(2))

    let steps = try JournalLines(journal.lines).summary.filter { $0.hasPrefix("step") }
    #expect(steps.first == "step 1 .addRow(1) from the app")
    #expect(!steps.contains { $0.contains("addRow(2)") })
  }

  @Test func aClosedJournalRecordsNothingMore() throws {
    let journal = ShelfJournal()
    let shelf = ShelfSystem(
      initialState: Shelf.State(), context: (), feature: Shelf.feature, journal: journal)
    shelf.send(.addRow(1))
    journal.close()
    shelf.send(.addRow(2))

    #expect(try JournalLines(journal.lines).summary.last?.hasPrefix("step 2") == true)
  }
}

/// A value that counts its live instances, for a state whose lifetime a test checks.
final class Page: Sendable {
  private let alive: Lock<Int>

  init(counting alive: Lock<Int>) {
    self.alive = alive
    alive.withLock { $0 += 1 }
  }

  deinit { alive.withLock { $0 -= 1 } }
}

/// A request that counts its live instances; requests of equal numbers are equal.
final class Ticket: Equatable, Sendable {
  let number: Int
  private let alive: Lock<Int>

  init(number: Int, counting alive: Lock<Int>) {
    self.number = number
    self.alive = alive
    alive.withLock { $0 += 1 }
  }

  deinit { alive.withLock { $0 -= 1 } }

  static func == (lhs: Ticket, rhs: Ticket) -> Bool { lhs.number == rhs.number }
}

/// A journal's lines, read with Foundation's JSON: what any reader of the format sees.
struct JournalLines {
  let header: [String: Any]
  let records: [[String: Any]]

  init(_ lines: [String]) throws {
    let objects = try lines.map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        "not a JSON object: \(line)")
    }
    header = try #require(objects.first, "no header")
    records = Array(objects.dropFirst())
  }

  init(contentsOf path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try self.init(text.split(separator: "\n").map(String.init))
  }

  /// Each record on one line, as the tests spell their expectations.
  var summary: [String] {
    records.compactMap { record -> String? in
      let kind = record["kind"] as? String ?? "?"
      let effect = "#\(record["effect"] as? Int ?? 0) \(record["request"] as? String ?? "?")"
      switch kind {
      case "step":
        return "step \(record["step"] as? Int ?? 0) \(record["eventText"] as? String ?? "?") "
          + Self.origin(record["origin"])
      case "started", "cancelled", "finished": return "\(kind) \(effect)"
      case "failed": return "failed \(effect): \(record["error"] as? String ?? "?")"
      case "ignored":
        let reason = [record["reason"], record["scope"]].compactMap { $0 as? String }
        return "ignored \(record["eventText"] as? String ?? "?") \(Self.origin(record["origin"])): "
          + reason.joined(separator: " ")
      case "snapshot": return nil
      default: return kind
      }
    }
  }

  /// The step record numbered `number`.
  func step(_ number: Int) -> [String: Any]? {
    records.first { $0["kind"] as? String == "step" && $0["step"] as? Int == number }
  }

  /// The changes of a step, as `path: before → after`.
  func changes(ofStep number: Int) -> [String] {
    let diff = step(number)?["diff"] as? [[String: String]] ?? []
    return diff.map { "\($0["path"] ?? "?"): \($0["before"] ?? "?") → \($0["after"] ?? "?")" }
  }

  private static func origin(_ value: Any?) -> String {
    guard let origin = value as? [String: Any], origin["kind"] as? String == "effect" else {
      return "from the app"
    }
    return "from #\(origin["effect"] as? Int ?? 0) \(origin["request"] as? String ?? "?")"
  }
}

/// A directory that exists for one test.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appending(path: "ArchitectureKitTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func path(_ name: String) -> String {
    url.appending(path: name).path
  }
}

import Foundation
import InspectCore
import Testing

struct JournalReaderTests {
  private static let header =
    #"{"format":"architecturekit-journal","version":1,"system":"S","capacity":null}"#

  /// A journal the library wrote (the product page's failed add, recorded with `pdp --record`)
  /// reads without a warning: snapshots and the stop are known kinds.
  @Test func readsAJournalTheLibraryWroteWithoutWarnings() throws {
    let path = Fixture.directory.deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "Fixtures/Journals/pdp-failed-add-to-cart.jsonl").path
    let journal = try JournalReader.read(contentsOf: path)
    #expect(journal.warnings.isEmpty)
    #expect(journal.steps.map(\.number) == [1, 2, 3, 4])
    #expect(journal.effects.count == 2)
  }

  @Test func readsEveryRecordOfAJournal() throws {
    let journal = try JournalReader.read(contentsOf: Fixture.path("shop.jsonl"))

    #expect(journal.header.system == "System<Shop.State, Shop.Event, ShopError, ShopContext>")
    #expect(journal.header.started == "2026-11-25T20:40:00Z")
    #expect(journal.steps.map(\.number) == Array(1...12))
    #expect(journal.entries.count == 13)
    #expect(journal.effects.map(\.number) == Array(1...9))
    #expect(journal.warnings.isEmpty)
    #expect(
      journal.steps[3]
        == JournalEntry.Step(
          time: 0.39,
          number: 4,
          eventText: #"search(.queryChanged("<b>yee & co</b>"))"#,
          origin: .app,
          changes: [
            StateChange(path: "search.query", before: #""""#, after: #""<b>yee & co</b>""#)
          ]
        ))
    #expect(
      journal.effects[6]
        == EffectLifetime(
          number: 7,
          request: "path[#3].detail: addToCart(yeezy)",
          start: 1.6001,
          end: 2.1,
          outcome: .failed(error: #"APIError.offline("can't reach the server")"#)
        ))
    #expect(
      journal.effects[8]
        == EffectLifetime(
          number: 9, request: "pollCart(every: 5 s)", start: 2.9002, end: nil, outcome: .running))
  }

  @Test func skipsATruncatedLastLineWithAWarningAndReadsTheRest() throws {
    let full = try Fixture.bytes("shop.jsonl")
    let lines = full.split(separator: UInt8(ascii: "\n"))
    let withoutLast = Array(lines.dropLast().joined(separator: [UInt8(ascii: "\n")])) + [10]
    let last = try #require(lines.last)
    let truncated = withoutLast + last.prefix(30)

    let journal = try JournalReader.read(truncated, name: "shop.jsonl")

    var expected = try JournalReader.read(withoutLast, name: "shop.jsonl")
    expected.warnings = [
      "shop.jsonl, line 31, the last line, is cut short (the writer stopped while writing it?): "
        + "it was skipped, the lines before it were read"
    ]
    #expect(journal == expected)
    #expect(journal.effects.count == 8)
  }

  @Test func skipsRecordsOfAnUnknownKindWithAWarning() throws {
    let text = """
      \(Self.header)
      {"kind":"checkpoint","time":0.1}
      {"kind":"step","time":0.2,"step":1,"eventText":"tap","origin":{"kind":"app"}}

      """

    let journal = try JournalReader.read(Array(text.utf8), name: "j.jsonl")

    #expect(journal.steps.map(\.eventText) == ["tap"])
    #expect(
      journal.warnings == [#"j.jsonl, line 2: a record of unknown kind "checkpoint" was skipped"#])
  }

  @Test func drawsTheEndOfAnEffectThatStartedBeforeADumpedRing() throws {
    let text = """
      {"format":"architecturekit-journal","version":1,"system":"S","capacity":100}
      {"kind":"cancelled","time":4.5,"effect":3,"request":"search: debounce(a)"}

      """

    let journal = try JournalReader.read(Array(text.utf8), name: "ring.jsonl")

    #expect(journal.header.capacity == 100)
    #expect(
      journal.effects
        == [
          EffectLifetime(
            number: 3, request: "search: debounce(a)", start: nil, end: 4.5, outcome: .cancelled)
        ])
    #expect(journal.span == 4.5...4.5)
  }

  struct BadInput: CustomTestStringConvertible, Sendable {
    let text: String
    let message: String
    var testDescription: String { message }
  }

  @Test(arguments: [
    BadInput(
      text: "",
      message: "j.jsonl is empty, not a journal: a journal's first line is its header"),
    BadInput(
      text: "\n \n",
      message: "j.jsonl is empty, not a journal: a journal's first line is its header"),
    BadInput(
      text: "Hello, world\n",
      message: "j.jsonl is not an ArchitectureKit journal: its first line is not a JSON object"),
    BadInput(
      text: "[1, 2]\n",
      message: "j.jsonl is not an ArchitectureKit journal: its first line is not a JSON object"),
    BadInput(
      text: #"{"name":"cart","items":[]}"#,
      message: #"j.jsonl is not an ArchitectureKit journal: its first line has no "format":"#
        + #""architecturekit-journal""#),
    BadInput(
      text: #"{"format":"other-journal","version":1}"#,
      message: #"j.jsonl is not an ArchitectureKit journal: its first line's format is "#
        + #""other-journal", not "architecturekit-journal""#),
    BadInput(
      text: #"{"format":"architecturekit-journal"}"#,
      message: #"j.jsonl is not an ArchitectureKit journal: its header has no "version""#),
    BadInput(
      text: #"{"format":"architecturekit-journal","version":2}"#,
      message: "j.jsonl is a journal of version 2; this inspect reads version 1 only"
        + " (use the inspect of the release that wrote it)"),
    BadInput(
      text: #"{"format":"architecturekit-journal","version":"1"}"#,
      message: #"j.jsonl is a journal of version "1"; this inspect reads version 1 only"#
        + " (use the inspect of the release that wrote it)"),
    BadInput(
      text: #"{"format":"architecturekit-journal","version":1,"capacity":"ten"}"#,
      message: #"j.jsonl, line 1: in the header, "capacity" is not a whole number"#),
    BadInput(
      text: "\(header)\nnot json\n{\"kind\":\"step\"}\n",
      message: "j.jsonl, line 2: the line is not JSON"),
    BadInput(
      text: "\(header)\n{\"kind\":\"step\",\"time\":0.1,\"step\":1}\n",
      message: #"j.jsonl, line 2: the record has no "eventText""#),
    BadInput(
      text: "\(header)\n\n{\"kind\":\"started\",\"time\":\"soon\"}\n",
      message: #"j.jsonl, line 3: "time" is not a number"#),
  ])
  func refusesBadInputWithAMessage(input: BadInput) {
    #expect {
      try JournalReader.read(Array(input.text.utf8), name: "j.jsonl")
    } throws: { error in
      (error as? JournalError)?.description == input.message
    }
  }

  @Test func refusesAMissingFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("missing.jsonl")

    #expect(throws: JournalError.missingFile(path: path)) {
      try JournalReader.read(contentsOf: path)
    }
    #expect(
      JournalError.missingFile(path: path).description
        == "cannot read \(path): there is no such file")
  }

  @Test func refusesADirectory() throws {
    let directory = try TemporaryDirectory()

    #expect(throws: JournalError.directory(path: directory.url.path)) {
      try JournalReader.read(contentsOf: directory.url.path)
    }
  }
}

import Foundation
import InspectCore
import Testing

struct InspectCommandTests {
  @Test(arguments: [
    (["shop.jsonl"], InspectCommand(journalPath: "shop.jsonl", htmlPath: nil)),
    (
      ["--html", "t.html", "shop.jsonl"],
      InspectCommand(journalPath: "shop.jsonl", htmlPath: "t.html")
    ),
    (
      ["shop.jsonl", "--html", "t.html"],
      InspectCommand(journalPath: "shop.jsonl", htmlPath: "t.html")
    ),
  ])
  func parsesTheJournalAndThePage(arguments: [String], command: InspectCommand) throws {
    #expect(try InspectCommand.parse(arguments) == command)
  }

  @Test(arguments: [
    ([], "name the journal to read"),
    (["a.jsonl", "b.jsonl"], "one journal at a time, not 'b.jsonl' as well"),
    (["a.jsonl", "--html"], "--html needs the path of the page to write"),
    (["a.jsonl", "--html", "x", "--html", "y"], "--html is given twice"),
    (["a.jsonl", "--colour"], "unknown option '--colour'"),
  ])
  func rejectsABadCommandLineWithStatus2(arguments: [String], message: String) {
    let outcome = InspectCommand.run(arguments: arguments)

    #expect(outcome.status == 2)
    #expect(outcome.errors == "inspect: \(message)\nTry 'inspect --help'.\n")
    #expect(outcome.output.isEmpty)
  }

  @Test func printsTheUsageForHelp() {
    let outcome = InspectCommand.run(arguments: ["--help"])

    #expect(outcome.status == 0)
    #expect(outcome.output.hasPrefix("usage: inspect JOURNAL [--html OUT.html]\n"))
  }

  @Test func printsTheSummaryWithoutHTML() throws {
    let outcome = InspectCommand.run(arguments: [Fixture.path("shop.jsonl")])

    let journal = try JournalReader.read(contentsOf: Fixture.path("shop.jsonl"))
    #expect(outcome == .init(output: TextReport.render(journal, name: "shop.jsonl")))
  }

  @Test func writesThePage() throws {
    let directory = try TemporaryDirectory()
    let page = directory.path("timeline.html")

    let outcome = InspectCommand.run(arguments: [Fixture.path("shop.jsonl"), "--html", page])

    #expect(outcome == .init(output: "Wrote \(page): 12 steps, 9 effects.\n"))
    #expect(try String(contentsOfFile: page, encoding: .utf8) == Fixture.text("shop.html"))
  }

  @Test func warnsAboutATruncatedLastLineAndRendersTheRest() throws {
    let directory = try TemporaryDirectory()
    let full = try Fixture.text("shop.jsonl")
    let journal = try directory.write(String(full.dropLast(40)), to: "cut.jsonl")

    let outcome = InspectCommand.run(arguments: [journal, "--html", directory.path("cut.html")])

    #expect(outcome.status == 0)
    #expect(
      outcome.errors
        == "inspect: warning: \(journal), line 31, the last line, is cut short (the writer "
        + "stopped while writing it?): it was skipped, the lines before it were read\n")
    let page = try String(contentsOfFile: directory.path("cut.html"), encoding: .utf8)
    #expect(page.contains("path(.popFrom(#3))"))
    #expect(!page.contains("pollCart"))
  }

  @Test func refusesToOverwriteTheJournal() throws {
    let directory = try TemporaryDirectory()
    let journal = try directory.write(try Fixture.text("shop.jsonl"), to: "shop.jsonl")

    let outcome = InspectCommand.run(arguments: [journal, "--html", journal])

    #expect(outcome.status == 1)
    #expect(
      outcome.errors == "inspect: \(journal) is the journal itself; name another page to write\n")
    #expect(try String(contentsOfFile: journal, encoding: .utf8) == Fixture.text("shop.jsonl"))
  }

  @Test func reportsAPageItCannotWrite() throws {
    let directory = try TemporaryDirectory()
    let page = directory.path("missing-folder/timeline.html")

    let outcome = InspectCommand.run(arguments: [Fixture.path("shop.jsonl"), "--html", page])

    #expect(outcome.status == 1)
    #expect(
      outcome.errors
        == "inspect: cannot write \(page): check that its folder exists and is writable\n")
  }
}

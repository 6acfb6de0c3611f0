internal import Foundation

/// The `inspect` command: a journal's summary as text, or its timeline as an HTML page.
///
/// ```sh
/// swift run inspect shop.jsonl                       # the summary, on standard output
/// swift run inspect shop.jsonl --html timeline.html  # the page
/// ```
package struct InspectCommand: Equatable, Sendable {
  /// The journal to read.
  package var journalPath: String
  /// Where to write the page; `nil` prints the summary instead.
  package var htmlPath: String?

  /// A command that reads `journalPath` and writes the page to `htmlPath`, if given.
  package init(journalPath: String, htmlPath: String? = nil) {
    self.journalPath = journalPath
    self.htmlPath = htmlPath
  }

  /// What a run printed and its exit status.
  package struct Outcome: Equatable, Sendable {
    /// What goes to standard output.
    package var output = ""
    /// What goes to standard error: errors and warnings, each line starting with `inspect: `.
    package var errors = ""
    /// 0 on success (warnings included), 1 for bad input, 2 for a bad command line.
    package var status: Int32 = 0

    /// An outcome, every field given.
    package init(output: String = "", errors: String = "", status: Int32 = 0) {
      self.output = output
      self.errors = errors
      self.status = status
    }
  }

  /// A command line `inspect` does not understand; its description says what is wrong.
  package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var description: String
  }

  /// How to call `inspect`.
  package static let usage = """
    usage: inspect JOURNAL [--html OUT.html]

    Reads an ArchitectureKit journal (JSON Lines, format version 1: see
    Documentation/JournalFormat.md) and prints its summary: steps, time, events per second,
    effects by outcome and by scope, failures.

    options:
      --html OUT.html  write the journal's timeline to OUT.html instead: one self-contained page
                       (no network) with a row per event, effect lifetimes as bars on a time
                       axis, filters by scope and event text, and the summary
      -h, --help       show this help

    A missing file, a file that is not a journal, an empty one or one of another version exits
    with status 1; a bad command line with status 2. A truncated last line is skipped with a
    warning and the rest is read.
    """

  /// The command the arguments after the program's name ask for; `nil` for `--help`.
  ///
  /// - Throws: A ``UsageError`` naming the bad argument.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Self? {
    var journalPath: String?
    var htmlPath: String?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        return nil
      case "--html":
        guard htmlPath == nil else { throw UsageError(description: "--html is given twice") }
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw UsageError(description: "--html needs the path of the page to write")
        }
        htmlPath = path
      case _ where argument.hasPrefix("-") && argument != "-":
        throw UsageError(description: "unknown option '\(argument)'")
      default:
        guard journalPath == nil else {
          throw UsageError(description: "one journal at a time, not '\(argument)' as well")
        }
        journalPath = argument
      }
    }
    guard let journalPath else { throw UsageError(description: "name the journal to read") }
    return InspectCommand(journalPath: journalPath, htmlPath: htmlPath)
  }

  /// Parses `arguments` and runs the command, writing the page if one is asked for.
  ///
  /// - Parameter arguments: The arguments after the program's name.
  /// - Returns: What to print and the exit status; never throws, never crashes on bad input.
  package static func run(arguments: [String]) -> Outcome {
    do {
      guard let command = try parse(arguments) else { return Outcome(output: usage + "\n") }
      return command.run()
    } catch {
      return Outcome(
        errors: "inspect: \(error.description)\nTry 'inspect --help'.\n", status: 2)
    }
  }

  /// Reads the journal and prints its summary or writes its page.
  package func run() -> Outcome {
    var outcome = Outcome()
    let journal: Journal
    do {
      journal = try JournalReader.read(contentsOf: journalPath)
    } catch {
      outcome.errors = "inspect: \(error.description)\n"
      outcome.status = 1
      return outcome
    }
    outcome.errors = journal.warnings.map { "inspect: warning: \($0)\n" }.joined()
    let name = URL(filePath: journalPath).lastPathComponent
    guard let htmlPath else {
      outcome.output = TextReport.render(journal, name: name)
      return outcome
    }
    guard Self.canonical(htmlPath) != Self.canonical(journalPath) else {
      outcome.errors += "inspect: \(htmlPath) is the journal itself; name another page to write\n"
      outcome.status = 1
      return outcome
    }
    let page = Data(TimelinePage.render(journal, name: name).utf8)
    guard FileManager.default.createFile(atPath: htmlPath, contents: page) else {
      outcome.errors +=
        "inspect: cannot write \(htmlPath): check that its folder exists and is writable\n"
      outcome.status = 1
      return outcome
    }
    let summary = JournalSummary(journal)
    outcome.output =
      "Wrote \(htmlPath): \(Format.count(summary.stepCount, "step")), "
      + "\(Format.count(summary.effectCounts.total, "effect")).\n"
    return outcome
  }

  private static func canonical(_ path: String) -> String {
    URL(filePath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }
}

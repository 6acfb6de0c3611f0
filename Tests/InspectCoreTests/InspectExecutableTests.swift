import Foundation
import Testing

/// The built `inspect` executable, run as a child process: exit statuses and messages as a
/// shell sees them.
@Suite(.timeLimit(.minutes(5)))
struct InspectExecutableTests {
  @Test func printsTheSummaryOfAJournal() throws {
    let run = try Inspect.run([Fixture.path("shop.jsonl")])

    #expect(run.status == 0)
    #expect(run.output.hasPrefix("shop.jsonl: an ArchitectureKit journal, format version 1\n"))
    #expect(run.errors.isEmpty)
  }

  @Test(arguments: [
    ("missing", nil, "cannot read PATH: there is no such file"),
    ("empty", "", "PATH is empty, not a journal: a journal's first line is its header"),
    (
      "not a journal", "cart: 1 item\n",
      "PATH is not an ArchitectureKit journal: its first line is not a JSON object"
    ),
    (
      "unknown version", #"{"format":"architecturekit-journal","version":2}"# + "\n",
      "PATH is a journal of version 2; this inspect reads version 1 only (use the inspect of the "
        + "release that wrote it)"
    ),
  ])
  func exitsWithStatus1AndAMessageOnBadInput(
    input: String,
    contents: String?,
    message: String
  ) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("journal.jsonl")
    if let contents { _ = try directory.write(contents, to: "journal.jsonl") }

    let run = try Inspect.run([path, "--html", directory.path("page.html")])

    #expect(run.status == 1)
    #expect(run.errors == "inspect: \(message.replacingOccurrences(of: "PATH", with: path))\n")
    #expect(run.output.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: directory.path("page.html")))
  }

  @Test func rendersATruncatedJournalWithAWarning() throws {
    let directory = try TemporaryDirectory()
    let journal = try directory.write(
      String(try Fixture.text("shop.jsonl").dropLast(40)), to: "cut.jsonl")

    let run = try Inspect.run([journal, "--html", directory.path("cut.html")])

    #expect(run.status == 0)
    #expect(
      run.errors.hasPrefix("inspect: warning: \(journal), line 31, the last line, is cut short"))
    #expect(run.output == "Wrote \(directory.path("cut.html")): 12 steps, 8 effects.\n")
  }
}

/// One run of the `inspect` executable.
private struct Inspect {
  let output: String
  let errors: String
  let status: Int32

  /// Runs `inspect` with `arguments` to its end.
  static func run(_ arguments: [String]) throws -> Inspect {
    let executable = try #require(
      executableURL,
      "The inspect executable was not found next to the tests. Build it with `swift build`.")
    let directory = try TemporaryDirectory()
    let outputURL = directory.url.appending(path: "out")
    let errorURL = directory.url.appending(path: "err")
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let errors = try FileHandle(forWritingTo: errorURL)
    // Files, not pipes: a chatty run cannot fill a pipe and stall.
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    try output.close()
    try errors.close()
    return Inspect(
      output: try String(contentsOf: outputURL, encoding: .utf8),
      errors: try String(contentsOf: errorURL, encoding: .utf8),
      status: process.terminationStatus
    )
  }

  /// `inspect` in the directory the tests were built into: Linux runs the tests from
  /// `<products>/<Package>PackageTests.xctest`, Apple platforms load a bundle of that name.
  private static var executableURL: URL? {
    let directories =
      [Bundle.main.executableURL?.deletingLastPathComponent()]
      + Bundle.allBundles.filter { $0.bundleURL.pathExtension == "xctest" }
      .map { $0.bundleURL.deletingLastPathComponent() }
    return directories.compactMap { $0?.appending(path: "inspect") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}

import Foundation
import Testing

/// One run of a sample executable in scripted mode: keys on standard input, and what it printed.
struct ScriptedRun {
  /// Standard output.
  let output: String
  /// Standard error.
  let errors: String
  /// The exit status.
  let status: Int32

  /// Standard output, line by line.
  var lines: [String] {
    output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// Runs the executable `name` of the package with `input` as standard input, to its end.
  ///
  /// The standard streams are files, so a chatty run cannot fill a pipe and stall. `HOME` and
  /// `XDG_DATA_HOME` point into `home`, so no run touches the real user's data.
  static func run(
    _ name: String,
    _ arguments: [String] = [],
    input: String,
    home: TemporaryDirectory,
    environment: [String: String] = [:]
  ) async throws -> ScriptedRun {
    let executable = try #require(
      SampleExecutables.url(of: name),
      "The \(name) executable was not found next to the tests. Build it with `swift build`."
    )
    let run = "\(name)-\(UUID().uuidString)"
    let inputURL = home.url.appending(path: "\(run).in")
    let outputURL = home.url.appending(path: "\(run).out")
    let errorURL = home.url.appending(path: "\(run).err")
    try Data(input.utf8).write(to: inputURL)
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    // Files, not pipes: a run that exits early cannot break a pipe the test still writes to.
    let standardInput = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let errors = try FileHandle(forWritingTo: errorURL)

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = standardInput
    process.standardOutput = output
    process.standardError = errors
    var processEnvironment = ProcessInfo.processInfo.environment
    processEnvironment["HOME"] = home.url.path
    processEnvironment["XDG_DATA_HOME"] = home.url.appending(path: "data").path
    processEnvironment.merge(environment) { _, new in new }
    process.environment = processEnvironment

    let status = try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
        return
      }
    }
    try standardInput.close()
    try output.close()
    try errors.close()
    return ScriptedRun(
      output: try String(contentsOf: outputURL, encoding: .utf8),
      errors: try String(contentsOf: errorURL, encoding: .utf8),
      status: status
    )
  }
}

/// Finds the executables `swift build` made, wherever the build directory is.
enum SampleExecutables {
  /// The executable `name`, from the directory the test bundle was built into; failing that,
  /// from a build directory of the package (`.build`, or another `--scratch-path` inside it).
  static func url(of name: String) -> URL? {
    candidates.map { $0.appending(path: name) }.first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
  }

  private static var candidates: [URL] {
    var directories: [URL] = []
    // Linux runs the tests in `<products>/<Package>PackageTests.xctest`, an executable; Apple
    // platforms load a bundle of that name from the same directory.
    if let executable = Bundle.main.executableURL {
      directories.append(executable.deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    let package = URL(filePath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let buildDirectories =
      (try? FileManager.default.contentsOfDirectory(atPath: package.path))?
      .filter { $0.hasPrefix(".build") }.sorted() ?? []
    for build in buildDirectories {
      directories.append(package.appending(path: build).appending(path: "debug"))
    }
    return directories
  }
}

/// A directory that exists for one test.
final class TemporaryDirectory: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appending(path: "ArchitectureKitSampleTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String {
    url.appending(path: name).path
  }
}

import ArchitectureKit

#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#endif

/// A journal read back, to replay its session in a test: the bug a user recorded becomes a test
/// that fails where the app went wrong.
///
/// A ``ArchitectureKit/Journal`` whose events are `Codable` holds everything a feature needs to
/// go through the same session again: the events the app sent, in order, and how each effect
/// ended. ``run(feature:initialState:context:throughStep:)`` drives the feature in a
/// ``TestSystem`` with them — the app's events sent, each effect's recorded outcome simulated,
/// no effect ever run — and checks every step against the journal: the state (exactly, when
/// the journal kept states; its changes otherwise) and the effects started.
///
/// ```swift
/// @Test func theRecordedFailedAddReplays() throws {
///   let replay = try Replay(journalAt: fixture("pdp-failed-add-to-cart.jsonl"))
///   try replay.run(feature: ProductDetail.feature, context: .test())
/// }
/// ```
///
/// The first step that differs throws ``ReplayError/diverged(step:event:difference:)``, which
/// names the step and its event and shows the difference; a test that calls
/// ``run(feature:initialState:context:throughStep:)`` with `try` fails with it.
public struct Replay: Sendable {
  /// One line of the journal, parsed.
  struct Record: Sendable {
    /// Its line number in the journal, from 1.
    let line: Int
    let value: JSONValue

    var kind: String { value["kind"].flatMap(\.string) ?? "" }
    var step: Int? { value["step"].flatMap(\.int) }
    var effect: UInt64? { value["effect"].flatMap(\.uint64) }
    var request: String? { value["request"].flatMap(\.string) }
    var eventText: String { value["eventText"].flatMap(\.string) ?? "?" }
  }

  /// The header's fields.
  let header: JSONValue
  /// The records, in order.
  let records: [Record]

  /// What reading the journal noticed without refusing it, such as a truncated last line (the
  /// process that wrote it was killed).
  public let warnings: [String]

  /// Reads the journal in a file.
  ///
  /// - Parameter path: The journal file.
  /// - Throws: A ``ReplayError`` when the file cannot be read or is not a journal.
  public init(journalAt path: String) throws(ReplayError) {
    try self.init(journal: try Self.contents(of: path))
  }

  /// Reads a journal's text (JSON Lines, the header first), such as
  /// ``ArchitectureKit/Journal/lines`` joined with line breaks.
  ///
  /// - Parameter text: The journal.
  /// - Throws: A ``ReplayError`` when the text is not a journal.
  public init(journal text: String) throws(ReplayError) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let last = lines.lastIndex { !$0.allSatisfy(\.isWhitespace) } ?? -1
    var values: [Record] = []
    var warnings: [String] = []
    for (index, line) in lines.enumerated() where index <= last {
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      do {
        values.append(Record(line: index + 1, value: try JSONParser.parse(line)))
      } catch {
        guard index == last, index > 0 else {
          throw .malformed(line: index + 1, reason: error.description)
        }
        warnings.append(
          "The last line (\(index + 1)) is incomplete and was skipped: the process that wrote "
            + "the journal stopped in the middle of it.")
      }
    }
    guard let header = values.first?.value else {
      throw .malformed(line: 1, reason: "the journal is empty")
    }
    guard header["format"] == .string("architecturekit-journal") else {
      throw .malformed(
        line: 1, reason: "the header does not name the architecturekit-journal format")
    }
    guard header["version"] == .number("1") else {
      throw .malformed(
        line: 1,
        reason: "the journal is version \(header["version"]?.text ?? "?"); this replay reads "
          + "version 1")
    }
    for record in values.dropFirst() where record.kind.isEmpty {
      throw .malformed(line: record.line, reason: "a record has no kind")
    }
    self.header = header
    self.records = Array(values.dropFirst())
    self.warnings = warnings
  }

  /// The numbers of the journal's first and last steps, if it has any.
  public var steps: ClosedRange<Int>? {
    let numbers = records.filter { $0.kind == "step" }.compactMap(\.step)
    guard let first = numbers.first, let last = numbers.last else { return nil }
    return first...last
  }

  /// The system the journal recorded, as its header names it.
  public var system: String {
    header["system"].flatMap(\.string) ?? "?"
  }

  /// The text of a file.
  private static func contents(of path: String) throws(ReplayError) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    defer { _ = close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension JSONValue {
  var string: String? {
    if case .string(let string) = self { string } else { nil }
  }

  var int: Int? {
    if case .number(let text) = self { Int(text) } else { nil }
  }

  var uint64: UInt64? {
    if case .number(let text) = self { UInt64(text) } else { nil }
  }
}

internal import Foundation

/// Reads a journal of format version 1 (`Documentation/JournalFormat.md`).
///
/// Every problem is a ``JournalError`` with a message for people, never a crash. A last line
/// that is not JSON, as when the writer stopped while writing it, is skipped with a warning
/// and the rest is read; a record of a kind this reader does not know is skipped with a
/// warning too. Blank lines are skipped.
package enum JournalReader {
  /// The one format version this reader reads.
  package static let supportedVersion = 1

  /// Reads the journal at `path`.
  ///
  /// - Parameter path: The journal's path; messages name the journal by it.
  /// - Returns: The journal, with the warnings about lines it read past.
  /// - Throws: A ``JournalError`` when the file is missing or unreadable or not a journal.
  package static func read(contentsOf path: String) throws(JournalError) -> Journal {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missingFile(path: path)
    }
    guard !isDirectory.boolValue else { throw .directory(path: path) }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path)
    }
    return try read(Array(data), name: path)
  }

  /// Reads a journal from its bytes.
  ///
  /// - Parameters:
  ///   - bytes: The journal's text, UTF-8, one JSON object per line.
  ///   - name: What messages call the journal, such as its path.
  /// - Returns: The journal, with the warnings about lines it read past.
  /// - Throws: A ``JournalError`` when the bytes are not a journal this reader reads.
  package static func read(_ bytes: [UInt8], name: String) throws(JournalError) -> Journal {
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .enumerated()
      .map { (number: $0.offset + 1, text: $0.element) }
      .filter { line in line.text.contains { !isWhitespace($0) } }
    guard let first = lines.first else { throw .empty(name: name) }
    var builder = JournalBuilder(header: try header(first.text, name: name))
    for line in lines.dropFirst() {
      do throws(JSONRecord.Problem) {
        try builder.add(JSONRecord(parsing: line.text), line: line.number)
      } catch .notJSON where line.number == lines.last?.number {
        builder.warnings.append(
          "line \(line.number), the last line, is cut short (the writer stopped while writing "
            + "it?): it was skipped, the lines before it were read")
      } catch {
        throw .badRecord(name: name, line: line.number, reason: error.description)
      }
    }
    var journal = builder.journal
    journal.warnings = journal.warnings.map { "\(name), \($0)" }
    return journal
  }

  private static func header(_ line: ArraySlice<UInt8>, name: String) throws(JournalError)
    -> JournalHeader
  {
    let format = "architecturekit-journal"
    let record: JSONRecord
    do {
      record = try JSONRecord(parsing: line)
    } catch {
      throw .notAJournal(name: name, reason: "its first line is not a JSON object")
    }
    guard let found = try? record.optionalString("format") else {
      throw .notAJournal(name: name, reason: "its first line has no \"format\":\"\(format)\"")
    }
    guard found == format else {
      throw .notAJournal(
        name: name, reason: "its first line's format is \"\(found)\", not \"\(format)\"")
    }
    guard let version = record.jsonText("version"), version != "null" else {
      throw .notAJournal(name: name, reason: "its header has no \"version\"")
    }
    guard (try? record.optionalInteger("version")) == supportedVersion else {
      throw .unsupportedVersion(name: name, version: version)
    }
    do throws(JSONRecord.Problem) {
      return JournalHeader(
        version: supportedVersion,
        system: try record.optionalString("system") ?? "",
        events: try record.optionalString("events"),
        states: try record.optionalString("states"),
        started: try record.optionalString("started"),
        capacity: try record.optionalInteger("capacity")
      )
    } catch {
      throw .badRecord(name: name, line: 1, reason: "in the header, \(error.description)")
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }
}

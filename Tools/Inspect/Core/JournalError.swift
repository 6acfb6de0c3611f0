/// Why a file could not be read as a journal; its description is the message for people.
package enum JournalError: Error, Equatable, CustomStringConvertible {
  /// Nothing is at `path`.
  case missingFile(path: String)
  /// `path` is a directory.
  case directory(path: String)
  /// The file at `path` exists but cannot be read.
  case unreadable(path: String)
  /// The journal `name` has no line at all.
  case empty(name: String)
  /// The first line of `name` is not a journal header, for `reason`.
  case notAJournal(name: String, reason: String)
  /// `name` is a journal of a version this reader does not know, written as `version`.
  case unsupportedVersion(name: String, version: String)
  /// Line `line` of `name`, not its last, is not a valid record, for `reason`.
  case badRecord(name: String, line: Int, reason: String)

  package var description: String {
    switch self {
    case .missingFile(let path):
      "cannot read \(path): there is no such file"
    case .directory(let path):
      "cannot read \(path): it is a directory, not a journal file"
    case .unreadable(let path):
      "cannot read \(path): permission denied or not a regular file"
    case .empty(let name):
      "\(name) is empty, not a journal: a journal's first line is its header"
    case .notAJournal(let name, let reason):
      "\(name) is not an ArchitectureKit journal: \(reason)"
    case .unsupportedVersion(let name, let version):
      "\(name) is a journal of version \(version); this inspect reads version "
        + "\(JournalReader.supportedVersion) only (use the inspect of the release that wrote it)"
    case .badRecord(let name, let line, let reason):
      "\(name), line \(line): \(reason)"
    }
  }
}

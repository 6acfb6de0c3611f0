/// A journal file that could not be written.
public struct JournalError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file.
  public let path: String
  /// What the system said, as in `Permission denied`.
  public let reason: String

  /// Creates an error for `path`.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - reason: Why it could not be written.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// A sentence for people.
  ///
  /// For example: `The journal file /tmp/x.jsonl cannot be written: Permission denied.`
  public var description: String {
    "The journal file \(path) cannot be written: \(reason)."
  }
}

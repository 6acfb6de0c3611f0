/// A data file of the sample (the catalog, the cart) that could not be used.
///
/// Its description names the file and what is wrong, for the user to fix. Whatever the problem,
/// the file is left as it was: the sample never overwrites a file it could not read.
public struct DataFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the file.
  public enum Problem: Hashable, Sendable {
    /// There is no file at the path.
    case missing
    /// The folder the file goes in does not exist, and the file's user named it: the sample
    /// creates no folder on a path that may hold a typo.
    case missingFolder
    /// The file exists but cannot be read; the reason is the system's.
    case unreadable(reason: String)
    /// The file's contents are not what the sample expects; the reason says where and why.
    case corrupt(reason: String)
    /// The file cannot be written; the reason is the system's.
    case unwritable(reason: String)
  }

  /// What the file holds, in words: `catalog`, `cart`.
  public var role: String
  /// The file's path.
  public var path: String
  /// What is wrong with it.
  public var problem: Problem

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - role: What the file holds, in words: `catalog`, `cart`.
  ///   - path: The file's path.
  ///   - problem: What is wrong with it.
  public init(role: String, path: String, problem: Problem) {
    self.role = role
    self.path = path
    self.problem = problem
  }

  /// A sentence naming the file and what is wrong with it.
  public var description: String {
    switch problem {
    case .missing:
      "The \(role) file \(path) does not exist."
    case .missingFolder:
      "The \(role) file \(path) cannot be created: the folder \(Self.folder(of: path)) does not "
        + "exist."
    case .unreadable(let reason):
      "The \(role) file \(path) cannot be read: \(reason)."
    case .corrupt(let reason):
      "The \(role) file \(path) is not a valid \(role): \(reason). It was left untouched."
    case .unwritable(let reason):
      "The \(role) file \(path) cannot be written: \(reason). It was left as it was."
    }
  }

  /// The folder of the file at `path`: `.` for a file named without one.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}

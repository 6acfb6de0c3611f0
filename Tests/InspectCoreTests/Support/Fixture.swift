import Foundation

/// The journals and golden files in `Tests/InspectCoreTests/Fixtures`, read from the source tree.
enum Fixture {
  /// The fixtures' folder.
  static let directory = URL(filePath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "Fixtures")

  /// The path of the fixture `name`.
  static func path(_ name: String) -> String {
    directory.appending(path: name).path
  }

  /// The bytes of the fixture `name`.
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appending(path: name)))
  }

  /// The text of the fixture `name`.
  static func text(_ name: String) throws -> String {
    try String(contentsOf: directory.appending(path: name), encoding: .utf8)
  }
}

/// A directory that exists for one test.
final class TemporaryDirectory: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appending(path: "InspectCoreTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String {
    url.appending(path: name).path
  }

  /// Writes `text` to `name` inside the directory and returns its path.
  func write(_ text: String, to name: String) throws -> String {
    try Data(text.utf8).write(to: url.appending(path: name))
    return path(name)
  }
}

import ProductDetailLive

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file `--analytics` names: each event name is appended as a line; nothing is ever
/// truncated.
final class AnalyticsFile {
  private let descriptor: Int32

  /// Opens `path` for appending, creating it if needed.
  ///
  /// - Throws: A ``DataFileError`` naming the file when it cannot be opened.
  init(path: String) throws(DataFileError) {
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      throw DataFileError(role: "analytics", path: path, problem: .unwritable(reason: reason))
    }
  }

  deinit {
    close(descriptor)
  }

  /// Appends `name` as a line.
  func append(_ name: String) {
    let line = Array((name + "\n").utf8)
    // One short write with O_APPEND lands whole; an analytics line is not worth a retry loop.
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
  }
}

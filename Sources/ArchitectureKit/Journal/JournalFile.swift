#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#endif

/// A file a journal writes its lines to, each with one `write` call as it comes, so a process
/// that dies loses at most the line it was writing.
///
/// There is no buffer in the process: a line written is in the operating system's hands. (No
/// `fsync`: a crash of the process loses nothing written; a crash of the machine may.)
final class JournalFile {
  /// The path, for messages.
  let path: String
  /// The open file, or -1 once closed.
  private var descriptor: Int32

  /// Creates (or empties) the file at `path` and opens it for appending.
  ///
  /// - Throws: A ``JournalError`` naming the file when it cannot be opened.
  init(path: String) throws(JournalError) {
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw JournalError(path: path, reason: String(cString: strerror(errno)))
    }
  }

  deinit {
    close()
  }

  /// Writes `text` whole, going on after a partial write or an interruption.
  ///
  /// - Returns: The system's reason when the file cannot be written (a full disk), else `nil`.
  func write(_ text: String) -> String? {
    write(Array(text.utf8))
  }

  /// Writes `bytes` whole, going on after a partial write or an interruption.
  ///
  /// - Returns: The system's reason when the file cannot be written (a full disk), else `nil`.
  func write(_ bytes: [UInt8]) -> String? {
    guard descriptor >= 0 else { return "the file is closed" }
    return bytes.withUnsafeBufferPointer { bytes -> String? in
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count {
        let written = writeBytes(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        offset += written
      }
      return nil
    }
  }

  /// Closes the file; later writes fail.
  func close() {
    guard descriptor >= 0 else { return }
    closeFile(descriptor)
    descriptor = -1
  }
}

// Free functions: inside `JournalFile`, `write` and `close` name its own methods.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

private func closeFile(_ descriptor: Int32) {
  _ = close(descriptor)
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes text straight to a file descriptor, unbuffered, so output and terminal state never
/// drift apart (a buffered write could land after the terminal was restored).
struct FileDescriptorOutput: Sendable {
  static let standardOutput = FileDescriptorOutput(descriptor: STDOUT_FILENO)
  static let standardError = FileDescriptorOutput(descriptor: STDERR_FILENO)

  let descriptor: Int32

  /// Writes all of `text`, retrying after interruptions and short writes.
  func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          // The reader went away (a closed pipe); nobody is left to tell.
          return
        }
      }
    }
  }
}

/// The C library's `write`, under a name the method above does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads standard input on a thread of its own and hands each decoded key to a sink.
///
/// Reading blocks, so it never runs on the cooperative thread pool, where it would hold a
/// thread that effects need. The thread ends at end of input; the process may exit while it
/// waits in `read`.
enum StandardInputReader {
  /// How long a lone Escape waits for the rest of an arrow key's sequence, in milliseconds.
  ///
  /// Terminals send a sequence in one burst, so a short wait tells the two apart.
  private static let escapeTimeout: Int32 = 30

  /// Starts the reading thread.
  ///
  /// - Parameters:
  ///   - isInteractive: Whether a person is typing: then a lone Escape counts as a key after a
  ///     short pause. A script's bytes are all there, so its sequences are only ended at the end.
  ///   - key: Receives each key, on the reading thread.
  ///   - end: Called once, at end of input or on a read error.
  static func start(
    isInteractive: Bool,
    key: @escaping @Sendable (Key) -> Void,
    end: @escaping @Sendable () -> Void
  ) {
    let thread = Thread {
      var decoder = KeyDecoder()
      var buffer = [UInt8](repeating: 0, count: 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        for decoded in decoder.decode(buffer[0..<count]) { key(decoded) }
        if isInteractive, decoder.hasPendingBytes, !hasInput(within: escapeTimeout) {
          for decoded in decoder.flush() { key(decoded) }
        }
      }
      for decoded in decoder.flush() { key(decoded) }
      end()
    }
    thread.name = "SampleTerminal.input"
    thread.start()
  }

  /// Whether standard input has bytes to read within `milliseconds`.
  private static func hasInput(within milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, milliseconds) > 0
  }
}

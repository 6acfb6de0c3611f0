import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal, so a test can run a sample the way a person does: as a terminal on its
/// standard streams, with keys typed into it and its screen read back.
final class PseudoTerminal: Sendable {
  /// The test's end: what it writes here is typed, what it reads is the program's output.
  let primary: Int32
  /// The program's end: its standard input, output and error.
  let secondary: Int32

  init(columns: UInt16 = 60, rows: UInt16 = 20) throws {
    primary = try Self.openPrimary()
    secondary = open(try Self.secondaryPath(of: primary), O_RDWR | O_NOCTTY)
    guard secondary >= 0 else { throw POSIXError(.ENODEV) }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(secondary, UInt(TIOCSWINSZ), &size)
  }

  #if canImport(Darwin)
    private static func openPrimary() throws -> Int32 {
      let primary = posix_openpt(O_RDWR | O_NOCTTY)
      guard primary >= 0, grantpt(primary) == 0, unlockpt(primary) == 0 else {
        throw POSIXError(.ENODEV)
      }
      return primary
    }

    private static func secondaryPath(of primary: Int32) throws -> String {
      guard let name = ptsname(primary) else { throw POSIXError(.ENODEV) }
      return String(cString: name)
    }
  #else
    // Glibc declares posix_openpt and friends only for X/Open sources, which Swift does not
    // import; these are the Linux ioctls they wrap (the same on x86_64 and arm64).
    private static let getNumber: UInt = 0x8004_5430  // TIOCGPTN
    private static let setLock: UInt = 0x4004_5431  // TIOCSPTLCK

    private static func openPrimary() throws -> Int32 {
      let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlocked: Int32 = 0
      guard primary >= 0, ioctl(primary, setLock, &unlocked) == 0 else {
        throw POSIXError(.ENODEV)
      }
      return primary
    }

    private static func secondaryPath(of primary: Int32) throws -> String {
      var number: UInt32 = 0
      guard ioctl(primary, getNumber, &number) == 0 else { throw POSIXError(.ENODEV) }
      return "/dev/pts/\(number)"
    }
  #endif

  deinit {
    close(primary)
    close(secondary)
  }

  /// The program's end, as a handle for `Process`.
  var handle: FileHandle {
    FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
  }

  /// Whether the terminal is in its normal, cooked mode: lines edited and echoed, Ctrl-C a
  /// signal.
  var isCooked: Bool {
    var settings = termios()
    guard tcgetattr(secondary, &settings) == 0 else { return false }
    let cooked = tcflag_t(ICANON | ECHO | ISIG)
    return settings.c_lflag & cooked == cooked
  }

  /// Types `keys`.
  func type(_ keys: String) {
    let bytes = Array(keys.utf8)
    _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
  }

  /// The program's output from now until it contains `marker`, or until nothing comes for
  /// 10 seconds (a bound for a broken program, not a timing assumption).
  func read(until marker: String) async -> String {
    await withCheckedContinuation { continuation in
      let primary = self.primary
      Thread.detachNewThread {
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        while !String(decoding: output, as: UTF8.self).contains(marker),
          poll(&descriptor, 1, 10_000) > 0
        {
          let count = buffer.withUnsafeMutableBytes {
            systemRead(primary, $0.baseAddress, $0.count)
          }
          guard count > 0 else { break }
          output.append(contentsOf: buffer[0..<count])
        }
        continuation.resume(returning: String(decoding: output, as: UTF8.self))
      }
    }
  }
}

/// The C library's `read`, under a name that `PseudoTerminal.read(until:)` does not shadow.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  read(descriptor, bytes, count)
}

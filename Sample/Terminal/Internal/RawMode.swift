#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal settings of standard input before raw mode, and the way back to them.
///
/// A value type, so a signal handler on another thread can hold its own copy and restore the
/// terminal without touching the main actor.
struct RawMode: Sendable {
  /// Escape codes that undo what ``Terminal`` does to the screen: show the cursor again and
  /// leave the alternate screen.
  static let screenReset = ANSI.showCursor + ANSI.leaveAlternateScreen

  private let original: termios
  private let raw: termios

  /// Switches standard input to raw mode: keys arrive one at a time, unechoed, and Ctrl-C,
  /// Ctrl-Z and Ctrl-S arrive as keys instead of signals.
  ///
  /// Output processing stays on, so `\n` still starts a new line at the left margin.
  ///
  /// - Throws: ``TerminalError/notATerminal`` when standard input is not a terminal.
  init() throws(TerminalError) {
    var settings = termios()
    guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw .notATerminal }
    original = settings
    settings.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    settings.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
      controlCharacters[Int(VMIN)] = 1
      controlCharacters[Int(VTIME)] = 0
    }
    raw = settings
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { throw .notATerminal }
  }

  /// Switches to raw mode again, after ``restore()``: when the program comes back from a
  /// suspension.
  func reenter() {
    var settings = raw
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
  }

  /// Puts the terminal back as it was and resets the screen.
  ///
  /// Safe to call more than once, and from a signal handler's queue: it only writes and sets
  /// attributes.
  func restore() {
    FileDescriptorOutput.standardOutput.write(Self.screenReset)
    var settings = original
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal a sample runs in: its keys as events, and its screen.
///
/// A terminal is **interactive** when standard input is a terminal: then ``init(mode:)``
/// switches it to raw mode (keys arrive one at a time, unechoed), draws on the alternate screen
/// and hides the cursor, and ``restore()`` undoes all of it. Ctrl-C and Ctrl-Z arrive as keys
/// (see ``SessionCommand``; ``suspend()`` does what Ctrl-Z does elsewhere); a terminating signal
/// (`SIGINT` from `kill`, `SIGTERM`, `SIGHUP`) restores the terminal before the process ends.
///
/// Otherwise it is **scripted**: keys are read from standard input as it comes, and the
/// program prints plain lines, so it can be driven and checked by a script:
///
/// ```swift
/// let terminal = try Terminal(mode: .detected)
/// defer { terminal.restore() }
/// for await event in terminal.events {
///   if event == .key(.character("q")) { break }
/// }
/// ```
@MainActor
public final class Terminal {
  /// How a terminal session talks to the user.
  public enum Mode: Hashable, Sendable {
    /// A person at a terminal: raw mode and a full-screen drawing.
    case interactive
    /// A script on standard input: keys from it, one plain line per rendered state.
    case scripted

    /// ``interactive`` when standard input is a terminal, ``scripted`` otherwise.
    public static var detected: Mode {
      isatty(STDIN_FILENO) != 0 ? .interactive : .scripted
    }
  }

  /// How this session talks to the user.
  public let mode: Mode

  /// The keys read from standard input and, when interactive, the window's size changes.
  ///
  /// The sequence ends at the end of standard input.
  public let events: AsyncStream<TerminalEvent>

  private let rawMode: RawMode?
  private let signalTraps: SignalTraps?
  private var isRestored = false

  /// Starts a session in `mode`.
  ///
  /// - Parameter mode: How to talk to the user; usually ``Mode/detected``.
  /// - Throws: ``TerminalError/notATerminal`` when `mode` is interactive but standard input is
  ///   not a terminal.
  public init(mode: Mode) throws(TerminalError) {
    self.mode = mode
    // A reader that goes away (`pdp | head -1`) should end the output, not the process.
    signal(SIGPIPE, SIG_IGN)
    let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    self.events = events
    switch mode {
    case .interactive:
      let rawMode = try RawMode()
      self.rawMode = rawMode
      self.signalTraps = SignalTraps(restoring: rawMode) { continuation.yield(.resized) }
      FileDescriptorOutput.standardOutput.write(
        ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.home + ANSI.clearBelow
      )
    case .scripted:
      self.rawMode = nil
      self.signalTraps = nil
    }
    StandardInputReader.start(
      isInteractive: mode == .interactive,
      key: { continuation.yield(.key($0)) },
      end: { continuation.finish() }
    )
  }

  /// The number of columns of the window; 80 when it cannot be known.
  public var width: Int {
    Self.windowSize()?.columns ?? Self.environmentColumns ?? 80
  }

  /// The number of rows of the window; 24 when it cannot be known.
  public var height: Int {
    Self.windowSize()?.rows ?? 24
  }

  /// Replaces the screen's contents with `lines`, from the top-left corner.
  ///
  /// Each line should fit ``width``; ``Swift/String/truncated(toVisibleWidth:)`` cuts the
  /// longer ones. Lines below the window's height are dropped. Only an interactive session
  /// draws.
  ///
  /// - Parameter lines: The screen, top to bottom, with ``ANSI`` styles.
  public func draw(_ lines: [String]) {
    guard mode == .interactive, !isRestored else { return }
    let width = self.width
    let frame = lines.prefix(height).map { line in
      line.truncated(toVisibleWidth: width) + ANSI.clearLine
    }
    FileDescriptorOutput.standardOutput.write(
      ANSI.home + frame.joined(separator: "\n") + ANSI.clearBelow
    )
  }

  /// Replaces the screen's contents with `lines` and, below them, `footer`, cutting `lines`
  /// rather than the footer when the window is too short (see
  /// ``frame(_:footer:height:)``): the keys a footer lists always show.
  ///
  /// - Parameters:
  ///   - lines: The screen's body, top to bottom, with ``ANSI`` styles.
  ///   - footer: What must show under it: the keys, a hint.
  public func draw(_ lines: [String], footer: [String]) {
    draw(Self.frame(lines, footer: footer, height: height))
  }

  /// The lines of a screen `height` rows tall: `lines`, cut from the bottom to leave room for
  /// `footer`, then `footer`.
  ///
  /// ```swift
  /// Terminal.frame(["Title", "Text", "More text"], footer: ["q quit"], height: 3)
  /// // ["Title", "Text", "q quit"]
  /// ```
  ///
  /// - Parameters:
  ///   - lines: The screen's body, top to bottom.
  ///   - footer: What must show under it; cut only when it alone is taller than the window.
  ///   - height: The window's height, in rows.
  /// - Returns: The screen's lines, at most `height` of them.
  public nonisolated static func frame(
    _ lines: [String], footer: [String], height: Int
  ) -> [String] {
    let room = Swift.max(height - footer.count, 0)
    return Array((lines.prefix(room) + footer).prefix(Swift.max(height, 0)))
  }

  /// Prints one line on standard output: a scripted session's output.
  ///
  /// - Parameter line: The text, without a line break.
  public func printLine(_ line: String) {
    FileDescriptorOutput.standardOutput.write(line + "\n")
  }

  /// Prints one line on standard error, for diagnostics outside the drawn screen.
  ///
  /// - Parameter line: The text, without a line break.
  public nonisolated static func printError(_ line: String) {
    FileDescriptorOutput.standardError.write(line + "\n")
  }

  /// Suspends the program as Ctrl-Z does in a shell, and takes the terminal again when the
  /// shell continues it (`fg`, or any `SIGCONT`).
  ///
  /// It gives the terminal back as ``restore()`` does, stops the process with `SIGTSTP`, and
  /// returns once the process continues, with raw mode and the alternate screen back and the
  /// screen cleared: redraw then. Raw mode turns Ctrl-Z into a key, so the program decides; a
  /// shell without job control ignores `SIGTSTP`, and then this returns at once. A scripted
  /// session has no shell job to suspend, so there it does nothing.
  public func suspend() {
    guard mode == .interactive, !isRestored, let rawMode else { return }
    rawMode.restore()
    Self.stopUntilContinued()
    rawMode.reenter()
    FileDescriptorOutput.standardOutput.write(
      ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.home + ANSI.clearBelow
    )
  }

  /// Puts the terminal back as it was: cooked mode, the normal screen, a visible cursor.
  ///
  /// Call it before the program ends; calling it again does nothing.
  public func restore() {
    guard !isRestored else { return }
    isRestored = true
    signalTraps?.cancel()
    rawMode?.restore()
  }

  /// Stops the process with `SIGTSTP` and returns once it continues.
  ///
  /// Dispatch's worker threads, where the main actor may run, block most signals: raised with
  /// the signal blocked, `SIGTSTP` would wait there forever. Unblocked on this thread for the
  /// call, it is delivered before `raise` returns, so nothing runs between the stop and the
  /// `SIGCONT`. Its disposition is left as inherited: a shell without job control ignores it
  /// on purpose.
  private static func stopUntilContinued() {
    var suspend = sigset_t()
    sigemptyset(&suspend)
    sigaddset(&suspend, SIGTSTP)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &suspend, &previous)
    raise(SIGTSTP)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  private static func windowSize() -> (columns: Int, rows: Int)? {
    var size = winsize()
    for descriptor in [STDOUT_FILENO, STDIN_FILENO] {
      if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
        return (Int(size.ws_col), Int(size.ws_row))
      }
    }
    return nil
  }

  private static var environmentColumns: Int? {
    getenv("COLUMNS").flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
  }
}

import SampleTerminal

/// Shows the count: a full-screen drawing at a terminal, one line per count in a script.
@MainActor
final class CounterScreen {
  private let terminal: Terminal
  private var count = 0
  private var hint: String?

  init(terminal: Terminal) {
    self.terminal = terminal
  }

  /// Renders a new count (the counter system's UI binding).
  func show(_ count: Int) {
    self.count = count
    hint = nil
    switch terminal.mode {
    case .interactive: redraw()
    case .scripted: terminal.printLine(String(count))
    }
  }

  /// Explains the keys after one the counter does not know; the count stays as it is.
  func showHint(for key: Key) {
    show(hint: "Unknown key '\(key)'. Keys: \(CounterCommand.help)")
  }

  /// Answers Enter, which has no action here, with the keys.
  func showKeys() {
    show(hint: "Enter does nothing here. Keys: \(CounterCommand.help)")
  }

  private func show(hint: String) {
    switch terminal.mode {
    case .interactive:
      self.hint = hint
      redraw()
    case .scripted:
      Terminal.printError("counter: \(hint)")
    }
  }

  /// Draws the screen again, after a resize.
  func redraw() {
    let width = terminal.width
    let title = " Counter" + String(repeating: " ", count: max(0, width - 8))
    let textWidth = max(width - 4, 20)
    var lines = [ANSI.inverse(title), "", "  Count: " + ANSI.bold(String(count)), ""]
    lines += CounterCommand.help.wrapped(toWidth: textWidth).map { "  " + ANSI.dim($0) }
    lines += (hint?.wrapped(toWidth: textWidth) ?? []).map { "  " + ANSI.yellow($0) }
    terminal.draw(lines)
  }
}

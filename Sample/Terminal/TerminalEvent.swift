/// Something that happened at the terminal: a key press or a change of its size.
public enum TerminalEvent: Hashable, Sendable {
  /// The user pressed a key (in a script: the next key of standard input).
  case key(Key)
  /// The window changed size; redraw at ``Terminal/width``.
  case resized
}

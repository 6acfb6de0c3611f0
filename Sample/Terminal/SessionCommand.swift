/// What a key asks of the session rather than of the app: the keys every sample shares.
///
/// An app's own keys come first; the rest go through this type, so `q`, Esc, Ctrl-Z and Enter
/// behave the same in every sample:
///
/// ```swift
/// switch SessionCommand(key) {
/// case .quit?: break loop
/// case .suspend?: terminal.suspend(); screen.redraw()
/// case .showKeys?: screen.showHint("Enter does nothing here. Keys: …")
/// case nil: screen.showHint("Unknown key '\(key)'.")
/// }
/// ```
public enum SessionCommand: Hashable, Sendable {
  /// Quit: `q`, Esc, Ctrl-C (which raw mode delivers as a key) or Ctrl-D.
  case quit
  /// Suspend to the shell, as Ctrl-Z does in any terminal program; `fg` brings the app back.
  case suspend
  /// Show the keys: Enter, which no sample gives an action, answers with the list of keys.
  case showKeys

  /// The shared keys and what they do, for help lines and hints.
  public static let help = "q or Esc quit · Ctrl-Z suspend"

  /// The command of `key`, or `nil` for a key the app decides about.
  ///
  /// - Parameter key: The key the user pressed.
  public init?(_ key: Key) {
    switch key {
    case .character("q"), .character("Q"), .escape, .control("c"), .control("d"): self = .quit
    case .control("z"): self = .suspend
    case .enter: self = .showKeys
    default: return nil
    }
  }
}

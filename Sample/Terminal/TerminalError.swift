/// Why a terminal session could not start.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Standard input is not a terminal, so it cannot switch to raw mode.
  case notATerminal

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .notATerminal: "standard input is not a terminal"
    }
  }
}

import SampleTerminal

/// What a key asks the counter app to do.
enum CounterCommand: Equatable {
  case increment
  case decrement
  /// A key every sample shares: quit, suspend, show the keys.
  case session(SessionCommand)

  /// The keys and what they do, for the help line and for hints.
  static let help = "+ or ↑ count up · - or ↓ count down · " + SessionCommand.help

  /// The command of `key`, or `nil` for a key the counter does not know.
  init?(_ key: Key) {
    switch key {
    case .character("+"), .character("="), .up: self = .increment
    case .character("-"), .character("_"), .down: self = .decrement
    default:
      guard let command = SessionCommand(key) else { return nil }
      self = .session(command)
    }
  }
}

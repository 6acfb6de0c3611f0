import SampleTerminal

/// What a key asks the counter app to do.
enum CounterCommand: Equatable {
  case increment
  case decrement
  case quit
  /// A key that means nothing here but needs no hint either, such as the line breaks of a
  /// script.
  case ignore

  /// The keys and what they do, for the help line and for hints.
  static let help = "+ or ↑ count up · - or ↓ count down · q quit"

  /// The command of `key`, or `nil` for a key the counter does not know.
  init?(_ key: Key) {
    switch key {
    case .character("+"), .character("="), .up: self = .increment
    case .character("-"), .character("_"), .down: self = .decrement
    case .character("q"), .character("Q"), .escape, .control("c"), .control("d"): self = .quit
    case .enter: self = .ignore
    default: return nil
    }
  }
}

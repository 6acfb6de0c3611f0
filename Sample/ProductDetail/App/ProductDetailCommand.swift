import SampleTerminal

/// What a key asks the product detail app to do.
enum ProductDetailCommand: Equatable {
  case reload
  case addToCart
  /// A key every sample shares: quit, suspend, show the keys.
  case session(SessionCommand)

  /// The keys and what they do, for the help line and for hints.
  static let help = "r reload · a add to cart · " + SessionCommand.help

  /// The command of `key`, or `nil` for a key the page does not know.
  init?(_ key: Key) {
    switch key {
    case .character("r"), .character("R"): self = .reload
    case .character("a"), .character("A"): self = .addToCart
    default:
      guard let command = SessionCommand(key) else { return nil }
      self = .session(command)
    }
  }
}

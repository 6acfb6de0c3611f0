import SampleTerminal

/// What a key asks the product detail app to do.
enum ProductDetailCommand: Equatable {
  case reload
  case addToCart
  case quit
  /// A key that means nothing here but needs no hint either, such as the line breaks of a
  /// script.
  case ignore

  /// The keys and what they do, for the help line and for hints.
  static let help = "r reload · a add to cart · q quit"

  /// The command of `key`, or `nil` for a key the page does not know.
  init?(_ key: Key) {
    switch key {
    case .character("r"), .character("R"): self = .reload
    case .character("a"), .character("A"): self = .addToCart
    case .character("q"), .character("Q"), .escape, .control("c"), .control("d"): self = .quit
    case .enter: self = .ignore
    default: return nil
    }
  }
}

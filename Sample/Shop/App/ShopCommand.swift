import SampleTerminal
import ShopFeature

/// What a key asks the shop to do; the same key means different things in the list, in the
/// search field and on a product's page.
enum ShopCommand: Equatable {
  case moveUp
  case moveDown
  case open
  case startSearch
  case type(String)
  case erase
  case clearSearch
  case endSearch
  case addToCart
  case reload
  case back
  /// A key every sample shares: quit, suspend, show the keys.
  case session(SessionCommand)

  /// Where the keys go.
  enum Focus: Equatable {
    case list
    case search
    case detail

    /// The focus of `state`: the page when one is open, else the search field while it is
    /// edited, else the list.
    init(_ state: ShopState) {
      self = state.detail != nil ? .detail : state.isEditingQuery ? .search : .list
    }

    /// The keys of this focus and what they do, for the help line and for hints.
    var help: String {
      switch self {
      case .list: ShopCommand.listHelp
      case .search: ShopCommand.searchHelp
      case .detail: ShopCommand.detailHelp
      }
    }
  }

  static let listHelp = "↑/↓ move · Enter open · / search · " + SessionCommand.help
  static let searchHelp =
    "type to search · Backspace erase · Enter done · Esc clear · Ctrl-Z suspend"
  static let detailHelp =
    "a add to cart · r reload · ↑/↓ previous/next · Esc, q or ← back · Ctrl-Z suspend"

  /// The command of `key` in `focus`, or `nil` for a key that means nothing there.
  init?(_ key: Key, in focus: Focus) {
    switch (focus, key) {
    case (_, .control("c")), (_, .control("d")): self = .session(.quit)
    case (_, .control("z")): self = .session(.suspend)
    case (.list, .up), (.detail, .up): self = .moveUp
    case (.list, .down), (.detail, .down): self = .moveDown
    case (.list, .enter), (.list, .right): self = .open
    case (.list, .character("/")): self = .startSearch
    case (.search, .character(let character)): self = .type(String(character))
    case (.search, .backspace): self = .erase
    case (.search, .escape): self = .clearSearch
    case (.search, .enter), (.search, .down), (.search, .up): self = .endSearch
    case (.detail, .character("a")), (.detail, .character("A")): self = .addToCart
    case (.detail, .character("r")), (.detail, .character("R")): self = .reload
    case (.detail, .escape), (.detail, .left), (.detail, .character("q")),
      (.detail, .character("Q")):
      self = .back
    case (.detail, .enter): self = .session(.showKeys)
    case (.list, _):
      guard let command = SessionCommand(key) else { return nil }
      self = .session(command)
    case (.search, _), (.detail, _):
      return nil
    }
  }
}

import SampleTerminal
import ShopFeature

/// What a key asks the shop to do; the same key means different things in the list, in the
/// search field, on a product's page, in the cart sheet and in its confirmation dialog.
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
  case openCart
  case emptyCart
  case closeCart
  /// The dialog's answer: its first button with an action.
  case confirm
  /// The dialog's Cancel.
  case cancel
  /// A key every sample shares: quit, suspend, show the keys.
  case session(SessionCommand)

  /// Where the keys go.
  enum Focus: Equatable {
    case list
    case search
    case page
    case cart
    case confirmation

    /// The focus of `state`: the sheet's dialog, else the sheet, else the page on top, else
    /// the search field while it is edited, else the list.
    init(_ state: ShopState) {
      if let sheet = state.cartSheet {
        self = sheet.confirmation != nil ? .confirmation : .cart
      } else if !state.path.isEmpty {
        self = .page
      } else {
        self = state.isEditingQuery ? .search : .list
      }
    }

    /// The keys of this focus and what they do, for the help line and for hints.
    var help: String {
      switch self {
      case .list: ShopCommand.listHelp
      case .search: ShopCommand.searchHelp
      case .page: ShopCommand.pageHelp
      case .cart: ShopCommand.cartHelp
      case .confirmation: ShopCommand.confirmationHelp
      }
    }
  }

  static let listHelp = "↑/↓ move · Enter open · / search · c cart · " + SessionCommand.help
  static let searchHelp =
    "type to search · Backspace erase · Enter done · Esc clear · Ctrl-Z suspend"
  static let pageHelp =
    "a add to cart · r reload · ↑/↓ previous/next · c cart · Esc, q or ← back · Ctrl-Z suspend"
  static let cartHelp = "e empty · Esc, q or c close · Ctrl-Z suspend"
  static let confirmationHelp = "y yes · n or Esc no · Ctrl-Z suspend"

  /// The command of `key` in `focus`, or `nil` for a key that means nothing there.
  init?(_ key: Key, in focus: Focus) {
    switch (focus, key) {
    case (_, .control("c")), (_, .control("d")): self = .session(.quit)
    case (_, .control("z")): self = .session(.suspend)
    case (.list, .up), (.page, .up): self = .moveUp
    case (.list, .down), (.page, .down): self = .moveDown
    case (.list, .enter), (.list, .right): self = .open
    case (.list, .character("/")): self = .startSearch
    case (.list, .character("c")), (.list, .character("C")), (.page, .character("c")),
      (.page, .character("C")):
      self = .openCart
    case (.search, .character(let character)): self = .type(String(character))
    case (.search, .backspace): self = .erase
    case (.search, .escape): self = .clearSearch
    case (.search, .enter), (.search, .down), (.search, .up): self = .endSearch
    case (.page, .character("a")), (.page, .character("A")): self = .addToCart
    case (.page, .character("r")), (.page, .character("R")): self = .reload
    case (.page, .escape), (.page, .left), (.page, .character("q")), (.page, .character("Q")):
      self = .back
    case (.cart, .character("e")), (.cart, .character("E")): self = .emptyCart
    case (.cart, .escape), (.cart, .character("q")), (.cart, .character("Q")),
      (.cart, .character("c")), (.cart, .character("C")):
      self = .closeCart
    case (.confirmation, .character("y")), (.confirmation, .character("Y")): self = .confirm
    case (.confirmation, .character("n")), (.confirmation, .character("N")),
      (.confirmation, .escape):
      self = .cancel
    case (.page, .enter), (.cart, .enter), (.confirmation, .enter): self = .session(.showKeys)
    case (.list, _):
      guard let command = SessionCommand(key) else { return nil }
      self = .session(command)
    case (.search, _), (.page, _), (.cart, _), (.confirmation, _):
      return nil
    }
  }
}

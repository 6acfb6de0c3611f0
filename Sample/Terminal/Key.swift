/// A key the user pressed, decoded from the bytes a terminal sends.
///
/// Printable keys arrive as ``character(_:)``; the arrow keys, Enter, Tab, Backspace, Escape,
/// the editing and paging keys and the function keys have cases of their own; a letter pressed
/// with Control arrives as ``control(_:)``, so Ctrl-C is `.control("c")`; any other key held
/// with a modifier arrives as ``modified(_:_:)``, so Ctrl-↑ is `.modified(.up, .control)`.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  /// A printable character, such as `+` or `q`.
  case character(Character)
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Enter (Return).
  case enter
  /// Tab.
  case tab
  /// Backspace (Delete on a Mac keyboard).
  case backspace
  /// Escape, pressed on its own.
  case escape
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Insert.
  case insert
  /// Delete, which erases forwards (Backspace is ``backspace``).
  case delete
  /// A function key, numbered from 1: F5 is `.function(5)`.
  case function(Int)
  /// A letter pressed with Control, in lowercase: Ctrl-C is `.control("c")`.
  case control(Character)
  /// A key pressed with modifiers, other than a letter with Control alone: Shift-Tab is
  /// `.modified(.tab, .shift)`, Ctrl-↑ `.modified(.up, .control)`.
  indirect case modified(Key, KeyModifiers)
  /// A sequence the decoder does not know, kept as its bytes.
  case unknown([UInt8])

  /// Whether the key asks to interrupt the program: Ctrl-C, which raw mode delivers as a key.
  public var isInterrupt: Bool {
    self == .control("c")
  }

  /// The key as a person would name it in a hint: `x`, `↑`, `Ctrl-C`, `Enter`, `F5`,
  /// `Shift-Tab`.
  public var description: String {
    switch self {
    case .character(" "): "Space"
    case .character(let character): String(character)
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .enter: "Enter"
    case .tab: "Tab"
    case .backspace: "Backspace"
    case .escape: "Esc"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "Page Up"
    case .pageDown: "Page Down"
    case .insert: "Insert"
    case .delete: "Delete"
    case .function(let number): "F\(number)"
    case .control(let letter): "Ctrl-\(letter.uppercased())"
    case .modified(let key, let modifiers): modifiers.prefix + key.description
    case .unknown(let bytes): bytes.map(Self.describe).joined()
    }
  }

  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case 0x1B: "Esc "
    case 0x20..<0x7F: String(UnicodeScalar(byte))
    default: "\\x" + String(byte, radix: 16)
    }
  }
}

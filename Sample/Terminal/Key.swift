/// A key the user pressed, decoded from the bytes a terminal sends.
///
/// Printable keys arrive as ``character(_:)``; the arrow keys, Enter, Tab, Backspace and Escape
/// have cases of their own; a letter pressed with Control arrives as ``control(_:)``, so
/// Ctrl-C is `.control("c")`.
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
  /// A letter pressed with Control, in lowercase: Ctrl-C is `.control("c")`.
  case control(Character)
  /// A sequence the decoder does not know, such as a function key, kept as its bytes.
  case unknown([UInt8])

  /// Whether the key asks to interrupt the program: Ctrl-C, which raw mode delivers as a key.
  public var isInterrupt: Bool {
    self == .control("c")
  }

  /// The key as a person would name it in a hint: `x`, `↑`, `Ctrl-C`, `Enter`.
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
    case .control(let letter): "Ctrl-\(letter.uppercased())"
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

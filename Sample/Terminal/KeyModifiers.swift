/// The modifier keys held with a key that has no character of its own: Shift-Tab, Ctrl-↑,
/// Shift-F5.
///
/// Terminals report them in the parameters of a key's escape sequence (`ESC [ 1 ; 5 A` is
/// Ctrl-↑); a letter pressed with Control arrives as ``Key/control(_:)`` instead.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
  /// The bits, as terminals number them: Shift 1, Alt 2, Control 4, Meta 8.
  public let rawValue: Int

  /// Creates modifiers from their bits.
  ///
  /// - Parameter rawValue: Shift 1, Alt 2, Control 4, Meta 8.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Shift.
  public static let shift = KeyModifiers(rawValue: 1)
  /// Alt (Option on a Mac keyboard).
  public static let alt = KeyModifiers(rawValue: 2)
  /// Control.
  public static let control = KeyModifiers(rawValue: 4)
  /// Meta.
  public static let meta = KeyModifiers(rawValue: 8)

  /// The modifiers as a prefix of a key's name: `Ctrl-Shift-`.
  var prefix: String {
    let names: [(KeyModifiers, String)] = [
      (.control, "Ctrl-"), (.alt, "Alt-"), (.shift, "Shift-"), (.meta, "Meta-"),
    ]
    return names.filter { contains($0.0) }.map(\.1).joined()
  }
}

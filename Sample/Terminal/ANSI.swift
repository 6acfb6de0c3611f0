/// The ANSI escape codes the samples draw with: cursor and screen control, and text styles.
///
/// ```swift
/// terminal.draw([ANSI.bold("Counter"), "", "Count: \(count)"])
/// ```
public enum ANSI: Sendable {
  /// The escape character that starts every code.
  public static let escape = "\u{1B}"
  /// Moves the cursor to the top-left corner.
  public static let home = "\u{1B}[H"
  /// Clears from the cursor to the end of the line.
  public static let clearLine = "\u{1B}[K"
  /// Clears from the cursor to the end of the screen.
  public static let clearBelow = "\u{1B}[J"
  /// Hides the cursor.
  public static let hideCursor = "\u{1B}[?25l"
  /// Shows the cursor.
  public static let showCursor = "\u{1B}[?25h"
  /// Switches to the alternate screen, which full-screen programs draw on so the shell's
  /// scrollback stays intact.
  public static let enterAlternateScreen = "\u{1B}[?1049h"
  /// Goes back to the normal screen and its contents.
  public static let leaveAlternateScreen = "\u{1B}[?1049l"
  /// Ends every style.
  public static let reset = "\u{1B}[0m"

  /// The text in bold.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func bold(_ text: String) -> String { styled(text, "1") }

  /// The text dimmed, for secondary information.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func dim(_ text: String) -> String { styled(text, "2") }

  /// The text with foreground and background swapped, for a title bar.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func inverse(_ text: String) -> String { styled(text, "7") }

  /// The text in red, for errors.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func red(_ text: String) -> String { styled(text, "31") }

  /// The text in green, for success.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func green(_ text: String) -> String { styled(text, "32") }

  /// The text in yellow, for hints.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func yellow(_ text: String) -> String { styled(text, "33") }

  /// The text in cyan, for progress.
  ///
  /// - Parameter text: The text to style.
  /// - Returns: The text wrapped in the style's codes.
  public static func cyan(_ text: String) -> String { styled(text, "36") }

  private static func styled(_ text: String, _ code: String) -> String {
    "\u{1B}[\(code)m\(text)\(reset)"
  }
}

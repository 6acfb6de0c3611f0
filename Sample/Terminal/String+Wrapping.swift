/// Fitting text to the terminal's width.
extension String {
  /// The text broken into lines of at most `width` characters, at spaces where possible.
  ///
  /// Line breaks in the text are kept; runs of spaces at a break are dropped; a word longer
  /// than `width` is split. Every character counts as one column.
  ///
  /// ```swift
  /// "The quick brown fox".wrapped(toWidth: 10)  // ["The quick", "brown fox"]
  /// ```
  ///
  /// - Parameter width: The most characters a line may hold; values below 1 count as 1.
  /// - Returns: The lines, without line breaks; an empty text gives one empty line.
  public func wrapped(toWidth width: Int) -> [String] {
    let width = Swift.max(width, 1)
    return split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
      Self.wrap(paragraph, width: width)
    }
  }

  /// The text cut to `width` visible characters, ignoring the escape codes of ``ANSI`` styles.
  ///
  /// - Parameter width: The most visible characters to keep.
  /// - Returns: The text itself when it fits, otherwise its start and a style reset.
  public func truncated(toVisibleWidth width: Int) -> String {
    var visible = 0
    var isInEscape = false
    var result = ""
    for character in self {
      if isInEscape {
        isInEscape = !(character.isLetter)
      } else if character == "\u{1B}" {
        isInEscape = true
      } else {
        guard visible < width else { return result + ANSI.reset }
        visible += 1
      }
      result.append(character)
    }
    return result
  }

  private static func wrap(_ paragraph: Substring, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in paragraph.split(separator: " ") {
      var word = Substring(word)
      if !line.isEmpty, line.count + 1 + word.count <= width {
        line += " " + word
        continue
      }
      if !line.isEmpty {
        lines.append(line)
        line = ""
      }
      while word.count > width {
        lines.append(String(word.prefix(width)))
        word = word.dropFirst(width)
      }
      line = String(word)
    }
    lines.append(line)
    return lines
  }
}

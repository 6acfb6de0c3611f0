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

  /// The text broken into lines as ``wrapped(toWidth:)`` does, keeping at most `maxLines`:
  /// when it needs more, the last line kept ends with `…`, so a cut text reads as cut.
  ///
  /// ```swift
  /// "The quick brown fox jumps".wrapped(toWidth: 10, maxLines: 2)  // ["The quick", "brown fox…"]
  /// ```
  ///
  /// - Parameters:
  ///   - width: The most characters a line may hold; values below 1 count as 1.
  ///   - maxLines: The most lines to keep; none when it is 0 or less.
  /// - Returns: The lines, without line breaks.
  public func wrapped(toWidth width: Int, maxLines: Int) -> [String] {
    let lines = wrapped(toWidth: width)
    guard lines.count > maxLines else { return lines }
    guard maxLines > 0 else { return [] }
    var kept = Array(lines.prefix(maxLines))
    var last = kept[maxLines - 1]
    while !last.isEmpty, last.count + 1 > Swift.max(width, 1) || last.last == " " {
      last.removeLast()
    }
    kept[maxLines - 1] = last + "…"
    return kept
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

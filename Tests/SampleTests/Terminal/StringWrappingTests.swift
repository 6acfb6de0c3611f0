import SampleTerminal
import Testing

/// Fitting text to the terminal's width.
struct StringWrappingTests {
  @Test(
    arguments: [
      ("The quick brown fox", 10, ["The quick", "brown fox"]),
      ("The quick brown fox", 100, ["The quick brown fox"]),
      ("one\n\ntwo", 10, ["one", "", "two"]),
      ("abcdefghij klm", 4, ["abcd", "efgh", "ij", "klm"]),
      ("", 10, [""]),
    ]
  )
  func wrapsAtSpaces(text: String, width: Int, lines: [String]) {
    #expect(text.wrapped(toWidth: width) == lines)
  }

  @Test(
    arguments: [
      ("The quick brown fox jumps", 10, 2, ["The quick", "brown fox…"]),
      ("The quick brown fox", 9, 1, ["The quic…"]),
      ("The quick brown fox", 10, 5, ["The quick", "brown fox"]),
      ("The quick brown fox", 10, 0, []),
      ("The quick brown fox", 10, -3, []),
    ]
  )
  func cutsTheTextAtAMostLinesWithAnEllipsis(
    text: String, width: Int, maxLines: Int, lines: [String]
  ) {
    #expect(text.wrapped(toWidth: width, maxLines: maxLines) == lines)
  }

  @Test func truncatesByVisibleCharacters() {
    let styled = ANSI.bold("Counter")

    #expect(styled.truncated(toVisibleWidth: 20) == styled)
    #expect(styled.truncated(toVisibleWidth: 3) == "\u{1B}[1mCou" + ANSI.reset)
  }
}

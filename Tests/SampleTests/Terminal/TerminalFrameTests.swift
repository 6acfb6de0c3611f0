import SampleTerminal
import Testing

/// Laying out a screen in a window of limited height: the footer (the keys) always shows.
struct TerminalFrameTests {
  @Test func cutsTheBodyNotTheFooterWhenTheWindowIsShort() {
    let body = ["Title", "", "Line 1", "Line 2", "Line 3"]
    let footer = ["", "a add · q quit"]

    #expect(
      Terminal.frame(body, footer: footer, height: 5) == [
        "Title", "", "Line 1", "", "a add · q quit",
      ]
    )
  }

  @Test func showsEverythingWhenItFits() {
    #expect(Terminal.frame(["Title"], footer: ["q quit"], height: 12) == ["Title", "q quit"])
  }

  @Test func cutsTheFooterOnlyWhenItAloneIsTallerThanTheWindow() {
    #expect(Terminal.frame(["Title"], footer: ["keys", "hint"], height: 1) == ["keys"])
    #expect(Terminal.frame(["Title"], footer: ["keys"], height: 0).isEmpty)
  }
}

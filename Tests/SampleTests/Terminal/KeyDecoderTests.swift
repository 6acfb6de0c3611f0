import SampleTerminal
import Testing

/// Decoding the bytes a terminal sends into keys.
struct KeyDecoderTests {
  @Test(
    arguments: [
      ("+-q", [Key.character("+"), .character("-"), .character("q")]),
      ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up, .down, .right, .left]),
      ("\u{1B}OA", [.up]),
      ("\r\n\t\u{7F}", [.enter, .enter, .tab, .backspace]),
      ("\u{03}\u{04}", [.control("c"), .control("d")]),
      ("é€", [.character("é"), .character("€")]),
      ("\u{1B}q", [.escape, .character("q")]),
      ("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}[1~\u{1B}[4~", [.home, .end, .home, .home, .end]),
      ("\u{1B}[2~\u{1B}[3~\u{1B}[5~\u{1B}[6~", [.insert, .delete, .pageUp, .pageDown]),
      (
        "\u{1B}[99z\u{1B}[3A",
        [.unknown(Array("\u{1B}[99z".utf8)), .unknown(Array("\u{1B}[3A".utf8))]
      ),
    ]
  )
  func decodesKeys(input: String, keys: [Key]) {
    var decoder = KeyDecoder()

    #expect(decoder.decode(Array(input.utf8)) == keys)
    #expect(!decoder.hasPendingBytes)
  }

  @Test(
    arguments: [
      ("\u{1B}OP", Key.function(1)), ("\u{1B}OS", .function(4)), ("\u{1B}[11~", .function(1)),
      ("\u{1B}[15~", .function(5)), ("\u{1B}[17~", .function(6)), ("\u{1B}[21~", .function(10)),
      ("\u{1B}[24~", .function(12)), ("\u{1B}[[A", .function(1)), ("\u{1B}[[E", .function(5)),
    ]
  )
  func namesFunctionKeysInsteadOfShowingTheirBytes(input: String, key: Key) {
    var decoder = KeyDecoder()

    #expect(decoder.decode(Array(input.utf8)) == [key])
    #expect(key.description.hasPrefix("F"))
  }

  @Test(
    arguments: [
      ("\u{1B}[1;5A", Key.modified(.up, .control), "Ctrl-↑"),
      ("\u{1B}[1;2D", .modified(.left, .shift), "Shift-←"),
      ("\u{1B}[Z", .modified(.tab, .shift), "Shift-Tab"),
      ("\u{1B}[15;2~", .modified(.function(5), .shift), "Shift-F5"),
      ("\u{1B}[1;7P", .modified(.function(1), [.control, .alt]), "Ctrl-Alt-F1"),
      ("\u{1B}O5Q", .modified(.function(2), .control), "Ctrl-F2"),
      ("\u{1B}[1;5Z", .modified(.tab, [.control, .shift]), "Ctrl-Shift-Tab"),
    ]
  )
  func namesKeysHeldWithModifiers(input: String, key: Key, name: String) {
    var decoder = KeyDecoder()

    #expect(decoder.decode(Array(input.utf8)) == [key])
    #expect(key.description == name)
  }

  @Test func readsTheLinuxConsolesFunctionKeysWhole() {
    var decoder = KeyDecoder()

    // `ESC [ [` waits for its letter, which is not a key of its own (`A` would add to a cart).
    #expect(decoder.decode(Array("\u{1B}[[".utf8)).isEmpty)
    #expect(decoder.decode(Array("Aa".utf8)) == [.function(1), .character("a")])
  }

  @Test func waitsForTheRestOfASplitSequence() {
    var decoder = KeyDecoder()

    #expect(decoder.decode(Array("+\u{1B}[".utf8)) == [.character("+")])
    #expect(decoder.hasPendingBytes)
    #expect(decoder.decode(Array("A".utf8)) == [.up])
  }

  @Test func flushesALoneEscape() {
    var decoder = KeyDecoder()

    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.flush() == [.escape])
    #expect(decoder.flush().isEmpty)
  }

  @Test func namesKeysForHints() {
    #expect(Key.character("x").description == "x")
    #expect(Key.up.description == "↑")
    #expect(Key.control("c").description == "Ctrl-C")
    #expect(Key.control("c").isInterrupt)
    #expect(Key.function(5).description == "F5")
    #expect(Key.pageDown.description == "Page Down")
  }
}

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
      ("\u{1B}[1;5A", [.unknown(Array("\u{1B}[1;5A".utf8))]),
      ("\u{1B}q", [.escape, .character("q")]),
    ]
  )
  func decodesKeys(input: String, keys: [Key]) {
    var decoder = KeyDecoder()

    #expect(decoder.decode(Array(input.utf8)) == keys)
    #expect(!decoder.hasPendingBytes)
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
  }
}

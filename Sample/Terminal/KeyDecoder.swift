/// Turns the bytes a terminal sends into ``Key`` values.
///
/// Terminals send a printable key as its UTF-8 bytes and the arrow, editing and function keys
/// as escape sequences (`ESC [ A` for up, `ESC [ 15 ~` for F5, `ESC [ 1 ; 5 A` for Ctrl-↑),
/// which the decoder names, so a hint says `F5` rather than the sequence's bytes. A sequence
/// can be split across two reads, so the decoder keeps an unfinished one until more bytes
/// arrive or ``flush()`` says none will.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode(Array("+\u{1B}[A".utf8))  // [.character("+"), .up]
/// ```
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether an unfinished sequence waits for more bytes, such as a lone Escape.
  public var hasPendingBytes: Bool {
    !pending.isEmpty
  }

  /// Decodes the keys in `bytes`, keeping a trailing unfinished sequence for the next call.
  ///
  /// - Parameter bytes: The bytes just read.
  /// - Returns: The keys they complete, in order.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      guard let (key, length) = Self.key(at: index, in: pending) else { break }
      keys.append(key)
      index += length
    }
    pending.removeFirst(index)
    return keys
  }

  /// Ends the unfinished sequence: a lone Escape becomes ``Key/escape``, anything else
  /// ``Key/unknown(_:)``.
  ///
  /// Call it at the end of input, or when no byte followed an Escape for a short while.
  ///
  /// - Returns: The keys the pending bytes make, if any.
  public mutating func flush() -> [Key] {
    defer { pending = [] }
    switch pending {
    case []: return []
    case [0x1B]: return [.escape]
    default: return [.unknown(pending)]
    }
  }

  /// The key that starts at `index` and its length in bytes, or `nil` when the bytes from
  /// `index` on are an unfinished sequence.
  private static func key(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    let byte = bytes[index]
    switch byte {
    case 0x1B:
      return escapeSequence(at: index, in: bytes)
    case 0x0D, 0x0A:
      return (.enter, 1)
    case 0x09:
      return (.tab, 1)
    case 0x08, 0x7F:
      return (.backspace, 1)
    case 0x01...0x1A:
      let letter = Character(UnicodeScalar(byte - 1 + UInt8(ascii: "a")))
      return (.control(letter), 1)
    case 0x00, 0x1C...0x1F:
      return (.unknown([byte]), 1)
    case 0x20..<0x80:
      return (.character(Character(UnicodeScalar(byte))), 1)
    default:
      return utf8Character(at: index, in: bytes)
    }
  }

  private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    guard index + 1 < bytes.count else { return nil }
    let introducer = bytes[index + 1]
    guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
      // Escape followed by an ordinary key: Alt with that key, or two quick presses. Either
      // way the Escape stands alone and the next key is decoded on its own.
      return (.escape, 1)
    }
    // The Linux console sends F1 to F5 as `ESC [ [ A` to `ESC [ [ E`: the second `[` would
    // otherwise end the sequence and leave its letter to be read as a key of its own.
    if introducer == UInt8(ascii: "["), index + 2 < bytes.count,
      bytes[index + 2] == UInt8(ascii: "[")
    {
      guard index + 3 < bytes.count else { return nil }
      let letter = bytes[index + 3]
      let sequence = Array(bytes[index...(index + 3)])
      guard (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(letter) else {
        return (.unknown(sequence), 4)
      }
      return (.function(Int(letter - UInt8(ascii: "A")) + 1), 4)
    }
    // A control sequence ends with a byte in 0x40...0x7E; parameters come before it.
    var end = index + 2
    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
      end += 1
    }
    guard end < bytes.count else { return nil }
    let sequence = Array(bytes[index...end])
    let key = named(
      final: bytes[end],
      parameters: bytes[(index + 2)..<end],
      isSS3: introducer == UInt8(ascii: "O"))
    return (key ?? .unknown(sequence), sequence.count)
  }

  /// The key a control sequence names (`ESC [` or, for `isSS3`, `ESC O`, then `parameters`,
  /// then `final`), with its modifiers; `nil` for a sequence no key sends.
  ///
  /// xterm's conventions, which most terminals follow: a letter names the arrows, Home, End
  /// and F1 to F4 (`ESC [ A`, `ESC O P`), a number and `~` the other keys (`ESC [ 15 ~` is F5),
  /// and a parameter after a `;` (or alone after `ESC O`) gives the modifiers, plus one.
  private static func named(final: UInt8, parameters: ArraySlice<UInt8>, isSS3: Bool) -> Key? {
    guard parameters.allSatisfy({ $0 == UInt8(ascii: ";") || (0x30...0x39).contains($0) })
    else { return nil }
    let numbers = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
      .map { Int(String(decoding: $0, as: UTF8.self)) }
    guard numbers.count <= 2 else { return nil }
    let modifierNumber = (isSS3 ? numbers.first : numbers.dropFirst().first) ?? nil
    var modifiers: KeyModifiers = []
    if let modifierNumber {
      guard (1...16).contains(modifierNumber) else { return nil }
      modifiers = KeyModifiers(rawValue: modifierNumber - 1)
    }
    var key: Key?
    if final == UInt8(ascii: "~") {
      guard !isSS3, let number = numbers.first ?? nil else { return nil }
      key = tildeKeys[number]
    } else {
      // Before a letter, a 1 may only carry modifiers: `ESC [ 1 ; 5 A`, never `ESC [ 3 A`.
      if !isSS3, numbers != [nil], numbers.first != 1 { return nil }
      key = letterKeys[final] ?? (isSS3 && final == UInt8(ascii: "M") ? .enter : nil)
    }
    // Shift-Tab's own Shift joins the reported modifiers.
    if case .modified(let base, let own)? = key {
      key = base
      modifiers.formUnion(own)
    }
    guard let key else { return nil }
    return modifiers.isEmpty ? key : .modified(key, modifiers)
  }

  /// The keys a final letter names: the arrows, Home, End, F1 to F4, and Shift-Tab's `Z`.
  private static let letterKeys: [UInt8: Key] = [
    UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right,
    UInt8(ascii: "D"): .left, UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
    UInt8(ascii: "P"): .function(1), UInt8(ascii: "Q"): .function(2),
    UInt8(ascii: "R"): .function(3), UInt8(ascii: "S"): .function(4),
    UInt8(ascii: "Z"): .modified(.tab, .shift),
  ]

  /// The keys a number before `~` names, in the VT220's numbering that xterm and rxvt keep.
  private static let tildeKeys: [Int: Key] = [
    1: .home, 2: .insert, 3: .delete, 4: .end, 5: .pageUp, 6: .pageDown, 7: .home, 8: .end,
    11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4), 15: .function(5),
    17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9), 21: .function(10),
    23: .function(11), 24: .function(12), 25: .function(13), 26: .function(14),
    28: .function(15), 29: .function(16), 31: .function(17), 32: .function(18),
    33: .function(19), 34: .function(20),
  ]

  private static func utf8Character(at index: Int, in bytes: [UInt8]) -> (Key, Int)? {
    let lead = bytes[index]
    let length =
      switch lead {
      case 0xC0...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF7: 4
      default: 1
      }
    guard length > 1 else { return (.unknown([lead]), 1) }
    guard index + length <= bytes.count else { return nil }
    let slice = bytes[index..<(index + length)]
    guard let decoded = String(validating: slice, as: UTF8.self), let character = decoded.first
    else {
      return (.unknown(Array(slice)), length)
    }
    return (.character(character), length)
  }
}

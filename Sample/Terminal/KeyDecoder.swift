/// Turns the bytes a terminal sends into ``Key`` values.
///
/// Terminals send a printable key as its UTF-8 bytes and the arrow keys as escape sequences
/// (`ESC [ A` for up). A sequence can be split across two reads, so the decoder keeps an
/// unfinished one until more bytes arrive or ``flush()`` says none will.
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
    // A control sequence ends with a byte in 0x40...0x7E; parameters come before it.
    var end = index + 2
    while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
      end += 1
    }
    guard end < bytes.count else { return nil }
    let length = end - index + 1
    let hasParameters = length > 3
    switch (bytes[end], hasParameters) {
    case (UInt8(ascii: "A"), false): return (.up, length)
    case (UInt8(ascii: "B"), false): return (.down, length)
    case (UInt8(ascii: "C"), false): return (.right, length)
    case (UInt8(ascii: "D"), false): return (.left, length)
    default: return (.unknown(Array(bytes[index..<(end + 1)])), length)
    }
  }

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

import ArchitectureKit

/// Reads JSON text into a ``ArchitectureKit/JSONValue``: a journal's lines, for a replay.
///
/// Numbers keep their text, as the library's encoder wrote them, so they decode exactly.
package struct JSONParser {
  /// Why a text is not JSON, and where.
  package struct Failure: Error, CustomStringConvertible {
    let message: String
    let offset: Int

    package var description: String { "\(message) at character \(offset + 1)" }
  }

  private let bytes: [UInt8]
  private var index = 0

  /// Parses one JSON value that makes up the whole of `text` (whitespace aside).
  package static func parse(_ text: String) throws(Failure) -> JSONValue {
    var parser = JSONParser(bytes: Array(text.utf8))
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else { throw parser.failure("unexpected text") }
    return value
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  private func failure(_ message: String) -> Failure {
    Failure(message: index < bytes.count ? message : "the text ends early", offset: index)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func value(depth: Int) throws(Failure) -> JSONValue {
    guard depth < 512 else { throw failure("the value is nested too deeply") }
    guard index < bytes.count else { throw failure("a value is missing") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    default: return try number()
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
    let word = Array(word.utf8)
    guard index + word.count <= bytes.count, Array(bytes[index..<index + word.count]) == word
    else { throw failure("unexpected text") }
    index += word.count
    return value
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = index
    let allowed = Set("+-0123456789.eE".utf8)
    while index < bytes.count, allowed.contains(bytes[index]) { index += 1 }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard !text.isEmpty, Double(text) != nil else {
      index = start
      throw failure("unexpected text")
    }
    return .number(text)
  }

  private mutating func string() throws(Failure) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var run = index
    func flush(_ parser: JSONParser, to end: Int) {
      scalars.append(
        contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(self, to: index)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 { throw failure("a control character in a string") }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      flush(self, to: index)
      index += 1
      guard index < bytes.count else { break }
      let escaped = bytes[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"): scalars.append(try escapedScalar())
      default: throw failure("an unknown escape in a string")
      }
      run = index
    }
    throw failure("a string is not closed")
  }

  /// The scalar of a `\u` escape (after the `u`), a surrogate pair included.
  private mutating func escapedScalar() throws(Failure) -> Unicode.Scalar {
    let high = try hexQuad()
    if (0xD800..<0xDC00).contains(high) {
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw failure("an unpaired surrogate in a string") }
      index += 2
      let low = try hexQuad()
      guard (0xDC00..<0xE000).contains(low),
        let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
      else { throw failure("an unpaired surrogate in a string") }
      return scalar
    }
    guard let scalar = Unicode.Scalar(high) else {
      throw failure("an unpaired surrogate in a string")
    }
    return scalar
  }

  private mutating func hexQuad() throws(Failure) -> UInt32 {
    guard index + 4 <= bytes.count,
      let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { throw failure("a bad \\u escape in a string") }
    index += 4
    return value
  }

  private mutating func array(depth: Int) throws(Failure) -> JSONValue {
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try value(depth: depth + 1))
      skipWhitespace()
      guard index < bytes.count else { throw failure("an array is not closed") }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      guard bytes[index] == UInt8(ascii: ",") else { throw failure("a comma is missing") }
      index += 1
    }
  }

  private mutating func object(depth: Int) throws(Failure) -> JSONValue {
    index += 1
    var members: [JSONValue.Member] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw failure("a member's name is missing")
      }
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw failure("a colon is missing")
      }
      index += 1
      skipWhitespace()
      members.append(JSONValue.Member(key, try value(depth: depth + 1)))
      skipWhitespace()
      guard index < bytes.count else { throw failure("an object is not closed") }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      guard bytes[index] == UInt8(ascii: ",") else { throw failure("a comma is missing") }
      index += 1
    }
  }
}

/// A JSON value, written as compact text: what a journal's lines are made of.
///
/// The library has no Foundation, so it carries its own small JSON: this value, an `Encoder`
/// that makes one of any `Encodable` value (``JSONValueEncoder``), and the text. Objects keep
/// the order their members were written in, so the same value always writes the same line.
/// Numbers keep their text, so an `Int64` or a `Double` reads back exactly.
@usableFromInline
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number, as JSON text (`12`, `-0.5`, `1e-05`).
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object's members, in order.
  case object([Member])

  /// One member of an object.
  @usableFromInline
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: JSONValue

    package init(_ key: String, _ value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// A number from an integer.
  package static func integer(_ value: some BinaryInteger) -> JSONValue {
    .number(String(value))
  }

  /// A number from a floating-point value; a value JSON cannot hold (infinite, not a number) is
  /// written as the string `inf`, `-inf` or `nan`.
  package static func floatingPoint(_ value: some BinaryFloatingPoint & LosslessStringConvertible)
    -> JSONValue
  {
    guard value.isFinite else {
      return .string(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf")
    }
    return .number(String(value))
  }

  /// The value as compact JSON text, on one line.
  package var text: String {
    String(decoding: utf8, as: UTF8.self)
  }

  /// The value as compact JSON text, in UTF-8: what a journal file is written from.
  package var utf8: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    write(to: &bytes)
    return bytes
  }

  /// Appends the value as compact JSON text, in UTF-8.
  ///
  /// Bytes, not a `String`: appending short pieces to a string cost a thousand instructions
  /// each, most of a journal line's price.
  package func write(to bytes: inout [UInt8]) {
    switch self {
    case .null: bytes.append(contentsOf: "null".utf8)
    case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let value): bytes.append(contentsOf: value.utf8)
    case .string(let value): Self.writeString(value, to: &bytes)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        element.write(to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        Self.writeString(member.key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        member.value.write(to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// The member with `key`, for an object.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// Appends a string as a JSON string.
  ///
  /// It is quoted, with quotes, backslashes and control characters escaped. Line separators
  /// stay as they are: the line breaks of JSON Lines are `\n` only.
  static func writeString(_ string: String, to text: inout String) {
    var bytes: [UInt8] = []
    writeString(string, to: &bytes)
    text += String(decoding: bytes, as: UTF8.self)
  }

  /// Appends a string as a JSON string, in UTF-8.
  static func writeString(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    let needsEscaping = string.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    guard needsEscaping else {
      bytes.append(contentsOf: string.utf8)
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [byte, byte])
      case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: "\\u00".utf8)
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      default:
        // Other bytes, the UTF-8 of characters beyond ASCII included, stand for themselves.
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}

/// A JSON value, written as compact text: what a journal's lines are made of.
///
/// The library has no Foundation, so it carries its own small JSON: this value, an `Encoder`
/// that makes one of any `Encodable` value (``JSONValueEncoder``), and the text. Objects keep
/// the order their members were written in, so the same value always writes the same line.
/// Numbers keep their text, so an `Int64` or a `Double` reads back exactly.
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
    var text = ""
    write(to: &text)
    return text
  }

  /// Appends the value as compact JSON text.
  package func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let value): text += value
    case .string(let value): Self.writeString(value, to: &text)
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        element.write(to: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { text += "," }
        Self.writeString(member.key, to: &text)
        text += ":"
        member.value.write(to: &text)
      }
      text += "}"
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
    text += "\""
    let needsEscaping = string.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    guard needsEscaping else {
      text += string
      text += "\""
      return
    }
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

import Foundation

/// JSON coding of the sample's files, with decoding failures told in words a user can act on:
/// `products[0].title is missing` rather than a dump of the decoder's error.
enum JSONFile {
  /// Decodes `data`, read from the file at `path`.
  static func decode<Value: Decodable>(
    _ type: Value.Type,
    from data: Data,
    path: String,
    role: String
  ) throws(DataFileError) -> Value {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw DataFileError(role: role, path: path, problem: .corrupt(reason: reason(error, data)))
    }
  }

  /// Encodes `value` as readable, stable JSON (pretty-printed, sorted keys), ending in a newline.
  static func encode(_ value: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // Encoding plain structs of strings and numbers cannot fail.
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    return data + Data("\n".utf8)
  }

  private static func reason(_ error: any Error, _ data: Data) -> String {
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return "it is empty"
    }
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(location(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context):
      return "\(location(context.codingPath)) should be \(describe(type))"
    case .valueNotFound(let type, let context):
      return "\(location(context.codingPath)) is null, not \(describe(type))"
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "it is not valid JSON"
    case .dataCorrupted(let context):
      return "\(location(context.codingPath)) is invalid"
    @unknown default:
      return "\(error)"
    }
  }

  /// A coding path as a user reads it: `products[0].title`, or `the top level`.
  private static func location(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "the top level" : "\"\(text)\""
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Int.Type: "a whole number"
    case is [Any].Type: "a list"
    default: "an object"
    }
  }
}

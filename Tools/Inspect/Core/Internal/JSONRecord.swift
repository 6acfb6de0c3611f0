internal import Foundation

/// One JSON object of a journal, with typed reads that say which field was wrong.
struct JSONRecord {
  /// What was wrong with a line or a field, as a phrase for ``JournalError``.
  enum Problem: Error, Equatable, CustomStringConvertible {
    /// The line is not JSON: cut short, or another kind of file.
    case notJSON
    /// The line is JSON but not an object.
    case notAnObject
    /// The field `key` is absent or `null`.
    case missing(String)
    /// The field `key` holds another kind of value than `expected`.
    case wrongType(String, expected: String)

    var description: String {
      switch self {
      case .notJSON: "the line is not JSON"
      case .notAnObject: "the line is not a JSON object"
      case .missing(let key): "the record has no \"\(key)\""
      case .wrongType(let key, let expected): "\"\(key)\" is not \(expected)"
      }
    }
  }

  private let fields: [String: Any]

  /// The object a line of JSON holds.
  init(parsing line: ArraySlice<UInt8>) throws(Problem) {
    let value: Any
    do {
      value = try JSONSerialization.jsonObject(with: Data(line), options: [.fragmentsAllowed])
    } catch {
      throw .notJSON
    }
    guard let fields = value as? [String: Any] else { throw .notAnObject }
    self.fields = fields
  }

  private init(fields: [String: Any]) {
    self.fields = fields
  }

  /// Whether the field `key` is present and not `null`.
  func contains(_ key: String) -> Bool {
    fields[key].map { !($0 is NSNull) } ?? false
  }

  /// The string in `key`.
  func string(_ key: String) throws(Problem) -> String {
    guard let value = try optionalString(key) else { throw .missing(key) }
    return value
  }

  /// The string in `key`, or `nil` when it is absent or `null`.
  func optionalString(_ key: String) throws(Problem) -> String? {
    guard contains(key) else { return nil }
    guard let value = fields[key] as? String else { throw .wrongType(key, expected: "a string") }
    return value
  }

  /// The number in `key`.
  func number(_ key: String) throws(Problem) -> Double {
    guard contains(key) else { throw .missing(key) }
    guard let value = fields[key] as? Double else {
      throw .wrongType(key, expected: "a number")
    }
    return value
  }

  /// The whole number in `key`.
  func integer(_ key: String) throws(Problem) -> Int {
    guard let value = try optionalInteger(key) else { throw .missing(key) }
    return value
  }

  /// The whole number in `key`, or `nil` when it is absent or `null`.
  func optionalInteger(_ key: String) throws(Problem) -> Int? {
    guard contains(key) else { return nil }
    guard let value = fields[key] as? Int else {
      throw .wrongType(key, expected: "a whole number")
    }
    return value
  }

  /// The object in `key`, or `nil` when it is absent or `null`.
  func optionalRecord(_ key: String) throws(Problem) -> JSONRecord? {
    guard contains(key) else { return nil }
    guard let value = fields[key] as? [String: Any] else {
      throw .wrongType(key, expected: "an object")
    }
    return JSONRecord(fields: value)
  }

  /// The objects in the array in `key`; none when it is absent or `null`.
  func records(_ key: String) throws(Problem) -> [JSONRecord] {
    guard contains(key) else { return [] }
    guard let values = fields[key] as? [Any] else { throw .wrongType(key, expected: "an array") }
    return try values.map { value throws(Problem) in
      guard let fields = value as? [String: Any] else {
        throw .wrongType(key, expected: "an array of objects")
      }
      return JSONRecord(fields: fields)
    }
  }

  /// The value in `key` as JSON text, for a message: `2`, `"1.0"`; `nil` when it is absent.
  func jsonText(_ key: String) -> String? {
    guard let value = fields[key] else { return nil }
    guard
      let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

import ArchitectureKit

/// Decodes a value from the ``ArchitectureKit/JSONValue`` the library's `JSONValueEncoder`
/// made of it: the inverse of that encoder, whatever the type.
package struct JSONValueDecoder {
  /// Creates a decoder.
  package init() {}

  /// Decodes a value of `type`.
  ///
  /// - Throws: A `DecodingError` when the JSON does not fit the type.
  package func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
    try JSONValueDecoder.decode(type, from: value, at: [])
  }

  static func decode<Value: Decodable>(
    _ type: Value.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> Value {
    if let primitive = try primitiveValue(type, from: value, at: codingPath) {
      return primitive
    }
    return try Value(from: NodeDecoder(value: value, codingPath: codingPath))
  }

  /// A primitive type's value, or `nil` when the type is not primitive.
  private static func primitiveValue<Value>(
    _ type: Value.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> Value? {
    switch type {
    case is String.Type: try primitive(String.self, from: value, at: codingPath) as? Value
    case is Bool.Type: try primitive(Bool.self, from: value, at: codingPath) as? Value
    case is Int.Type: try primitive(Int.self, from: value, at: codingPath) as? Value
    case is Double.Type: try primitive(Double.self, from: value, at: codingPath) as? Value
    default: nil
    }
  }

  static func primitive(
    _ type: Bool.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(type, value, codingPath) }
    return bool
  }

  static func primitive(
    _ type: String.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> String {
    guard case .string(let string) = value else { throw mismatch(type, value, codingPath) }
    return string
  }

  static func primitive<Number: BinaryFloatingPoint & LosslessStringConvertible>(
    _ type: Number.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> Number {
    switch value {
    case .number(let text):
      if let number = Number(text) { return number }
    case .string("inf"): return .infinity
    case .string("-inf"): return -.infinity
    case .string("nan"): return .nan
    default: break
    }
    throw mismatch(type, value, codingPath)
  }

  static func primitive<Number: FixedWidthInteger>(
    _ type: Number.Type, from value: JSONValue, at codingPath: [any CodingKey]
  ) throws -> Number {
    guard case .number(let text) = value, let number = Number(text) else {
      throw mismatch(type, value, codingPath)
    }
    return number
  }

  static func mismatch(
    _ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]
  ) -> DecodingError {
    .typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath, debugDescription: "Expected \(type), found \(value.text)."))
  }
}

/// The `Decoder` a value reads itself from, over one JSON value.
private struct NodeDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw JSONValueDecoder.mismatch([String: Any].self, value, codingPath)
    }
    return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw JSONValueDecoder.mismatch([Any].self, value, codingPath)
    }
    return UnkeyedContainer(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(value: value, codingPath: codingPath)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: JSONValue]
  let codingPath: [any CodingKey]

  init(members: [JSONValue.Member], codingPath: [any CodingKey]) {
    self.members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    self.codingPath = codingPath
  }

  var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool {
    members[key.stringValue] != nil
  }

  func value(forKey key: Key) throws -> JSONValue {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "No value for \(key.stringValue)."))
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try value(forKey: key) == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try JSONValueDecoder.primitive(type, from: value(forKey: key), at: codingPath + [key])
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
    try JSONValueDecoder.decode(type, from: value(forKey: key), at: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try NodeDecoder(value: value(forKey: key), codingPath: codingPath + [key])
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try NodeDecoder(value: value(forKey: key), codingPath: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    NodeDecoder(value: members["super"] ?? .null, codingPath: codingPath + [JSONKey("super")])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    NodeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }
  private var key: JSONKey { JSONKey(index: currentIndex) }

  private mutating func next() throws -> JSONValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        DecodingError.Context(
          codingPath: codingPath + [key], debugDescription: "The array has no more elements."))
    }
    defer { currentIndex += 1 }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let key = self.key
    return try JSONValueDecoder.primitive(type, from: next(), at: codingPath + [key])
  }

  mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    let key = self.key
    return try JSONValueDecoder.decode(type, from: next(), at: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let key = self.key
    return try NodeDecoder(value: next(), codingPath: codingPath + [key]).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let key = self.key
    return try NodeDecoder(value: next(), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let key = self.key
    return NodeDecoder(value: try next(), codingPath: codingPath + [key])
  }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
  let value: JSONValue
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool {
    value == .null
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: String.Type) throws -> String {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Int.Type) throws -> Int {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try JSONValueDecoder.primitive(type, from: value, at: codingPath)
  }

  func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try JSONValueDecoder.decode(type, from: value, at: codingPath)
  }
}

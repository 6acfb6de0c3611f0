/// Encodes an `Encodable` value as a ``JSONValue``, the way Foundation's `JSONEncoder` lays it
/// out with its default strategies, except for the types `JSONEncoder` special-cases (`Date`,
/// `Data`, `URL`, `Decimal`), which are laid out as their own `encode(to:)` says.
///
/// A value decoded by the test support's `JSONValueDecoder` from this layout is equal to the
/// one encoded: the two are each other's inverse, whatever the types.
package struct JSONValueEncoder {
  /// Creates an encoder.
  package init() {}

  /// Encodes `value`.
  ///
  /// - Parameter value: The value.
  /// - Returns: Its JSON.
  /// - Throws: What the value's `encode(to:)` throws.
  package func encode(_ value: some Encodable) throws -> JSONValue {
    try JSONNode.make(value, codingPath: []).value
  }
}

/// What one encoder or container wrote: a node of the JSON tree being built, filled in as the
/// value's `encode(to:)` runs, then turned into a ``JSONValue``.
final class JSONNode {
  enum Content {
    case empty
    case value(JSONValue)
    case array([JSONNode])
    case object(keys: [String], members: [String: JSONNode])
  }

  var content: Content

  init(_ content: Content = .empty) {
    self.content = content
  }

  /// The node of `value`: a primitive at once, anything else by its `encode(to:)`.
  static func make(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONNode {
    if let primitive = primitive(value) { return JSONNode(.value(primitive)) }
    let node = JSONNode()
    try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    return node
  }

  /// The JSON of a primitive type, which a container encodes without asking the value.
  ///
  /// The type is compared first: a failed cast costs hundreds of instructions, and most values
  /// are of none of these types.
  static func primitive<Value>(_ value: Value) -> JSONValue? {
    switch Value.self {
    case is String.Type: (value as? String).map { .string($0) }
    case is Bool.Type: (value as? Bool).map { .bool($0) }
    case is Int.Type: (value as? Int).map { .integer($0) }
    case is Double.Type: (value as? Double).map { .floatingPoint($0) }
    case is Int64.Type: (value as? Int64).map { .integer($0) }
    case is UInt64.Type: (value as? UInt64).map { .integer($0) }
    case is Int32.Type: (value as? Int32).map { .integer($0) }
    case is UInt32.Type: (value as? UInt32).map { .integer($0) }
    case is Int16.Type: (value as? Int16).map { .integer($0) }
    case is UInt16.Type: (value as? UInt16).map { .integer($0) }
    case is Int8.Type: (value as? Int8).map { .integer($0) }
    case is UInt8.Type: (value as? UInt8).map { .integer($0) }
    case is UInt.Type: (value as? UInt).map { .integer($0) }
    case is Float.Type: (value as? Float).map { .floatingPoint($0) }
    default: nil
    }
  }

  /// The JSON tree under this node; a value that wrote nothing is an empty object, as with
  /// `JSONEncoder`.
  var value: JSONValue {
    switch content {
    case .empty: .object([])
    case .value(let value): value
    case .array(let nodes): .array(nodes.map(\.value))
    case .object(let keys, let members):
      .object(keys.map { JSONValue.Member($0, members[$0]?.value ?? .null) })
    }
  }

  /// Sets a member of an object node (made an object if it was empty).
  func set(_ node: JSONNode, forKey key: String) {
    guard case .object(var keys, var members) = content else {
      content = .object(keys: [key], members: [key: node])
      return
    }
    content = .empty
    if members.updateValue(node, forKey: key) == nil { keys.append(key) }
    content = .object(keys: keys, members: members)
  }

  /// Appends an element to an array node (made an array if it was empty).
  func append(_ node: JSONNode) {
    guard case .array(var nodes) = content else {
      content = .array([node])
      return
    }
    content = .empty
    nodes.append(node)
    content = .array(nodes)
  }

  /// The number of elements of an array node.
  var count: Int {
    if case .array(let nodes) = content { nodes.count } else { 0 }
  }
}

/// The `Encoder` a value writes itself to, over one node.
private struct NodeEncoder: Encoder {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .empty = node.content { node.content = .object(keys: [], members: [:]) }
    return KeyedEncodingContainer(KeyedContainer(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .empty = node.content { node.content = .array([]) }
    return UnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(node: node, codingPath: codingPath)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws {
    node.set(JSONNode(.value(.null)), forKey: key.stringValue)
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    node.set(JSONNode(.value(.bool(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    node.set(JSONNode(.value(.string(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    node.set(JSONNode(.value(.floatingPoint(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    node.set(JSONNode(.value(.floatingPoint(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Int8, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Int16, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Int32, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: UInt, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    node.set(JSONNode(.value(.integer(value))), forKey: key.stringValue)
  }

  mutating func encode(_ value: some Encodable, forKey key: Key) throws {
    node.set(try JSONNode.make(value, codingPath: codingPath + [key]), forKey: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = JSONNode(.object(keys: [], members: [:]))
    node.set(child, forKey: key.stringValue)
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = JSONNode(.array([]))
    node.set(child, forKey: key.stringValue)
    return UnkeyedContainer(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(forKey: JSONKey("super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(forKey: JSONKey(key.stringValue))
  }

  private func superEncoder(forKey key: JSONKey) -> any Encoder {
    let child = JSONNode()
    node.set(child, forKey: key.stringValue)
    return NodeEncoder(node: child, codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]
  var count: Int { node.count }

  private var nextKey: JSONKey { JSONKey(index: count) }

  mutating func encodeNil() throws {
    node.append(JSONNode(.value(.null)))
  }

  mutating func encode(_ value: Bool) throws {
    node.append(JSONNode(.value(.bool(value))))
  }

  mutating func encode(_ value: String) throws {
    node.append(JSONNode(.value(.string(value))))
  }

  mutating func encode(_ value: Double) throws {
    node.append(JSONNode(.value(.floatingPoint(value))))
  }

  mutating func encode(_ value: Float) throws {
    node.append(JSONNode(.value(.floatingPoint(value))))
  }

  mutating func encode(_ value: Int) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: Int8) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: Int16) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: Int32) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: Int64) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: UInt) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: UInt8) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: UInt16) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: UInt32) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: UInt64) throws {
    node.append(JSONNode(.value(.integer(value))))
  }

  mutating func encode(_ value: some Encodable) throws {
    node.append(try JSONNode.make(value, codingPath: codingPath + [nextKey]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let key = nextKey
    let child = JSONNode(.object(keys: [], members: [:]))
    node.append(child)
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = nextKey
    let child = JSONNode(.array([]))
    node.append(child)
    return UnkeyedContainer(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let key = nextKey
    let child = JSONNode()
    node.append(child)
    return NodeEncoder(node: child, codingPath: codingPath + [key])
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let node: JSONNode
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws {
    node.content = .value(.null)
  }

  mutating func encode(_ value: Bool) throws {
    node.content = .value(.bool(value))
  }

  mutating func encode(_ value: String) throws {
    node.content = .value(.string(value))
  }

  mutating func encode(_ value: Double) throws {
    node.content = .value(.floatingPoint(value))
  }

  mutating func encode(_ value: Float) throws {
    node.content = .value(.floatingPoint(value))
  }

  mutating func encode(_ value: Int) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: Int8) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: Int16) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: Int32) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: Int64) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: UInt) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: UInt8) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: UInt16) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: UInt32) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: UInt64) throws {
    node.content = .value(.integer(value))
  }

  mutating func encode(_ value: some Encodable) throws {
    if let primitive = JSONNode.primitive(value) {
      node.content = .value(primitive)
    } else {
      try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
  }
}

/// A coding key made by the encoder: `super`, or an array's index.
package struct JSONKey: CodingKey {
  package let stringValue: String
  package let intValue: Int?

  package init(_ string: String) {
    stringValue = string
    intValue = nil
  }

  package init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  package init?(stringValue: String) {
    self.init(stringValue)
  }

  package init?(intValue: Int) {
    self.init(index: intValue)
  }
}

import FunctionalCore

/// What the state diff and the value text need to know of a type — whether it is `Equatable`,
/// `CustomStringConvertible`, `Identifiable`, how its values reflect — found once per type and
/// kept for the process.
///
/// A conformance lookup through a dynamic cast (`value as? any Equatable`) costs thousands of
/// instructions, and a recorded step met the same few types again and again: the traits are
/// looked up in a table instead, under a lock (the text of a journal may be made on any
/// thread). The closures cast their arguments back to the type they were made for, which is
/// cheap when the type is known, and hold nothing else: the lock's table may share them
/// between threads.
struct TypeTraits {
  /// `==` on two values of the type, when it is `Equatable`.
  let equals: ((Any, Any) -> Bool)?
  /// The value's own description, when the type is `CustomStringConvertible` (not `String`).
  let describe: ((Any) -> String)?
  /// The identifier of an `Identifiable` value, as text.
  let identifier: ((Any) -> String)?
  /// Whether the type is `String`.
  let isString: Bool
  /// Whether the type's values have no parts to show — an integer, a Boolean, a type with a
  /// description and no display style — as the first value met reflected: they are compared
  /// and described whole, without a `Mirror` each time.
  let isLeaf: Bool

  /// The traits of the type of `value`.
  static func of(_ value: Any) -> TypeTraits {
    let type = ObjectIdentifier(Swift.type(of: value))
    if let traits = known.withLock({ $0[type] }) { return traits }
    let traits = standardLeaf(value) ?? TypeTraits(value)
    known.withLock { $0[type] = traits }
    return traits
  }

  /// The traits found so far, by type.
  private static let known = Lock<[ObjectIdentifier: TypeTraits]>([:])

  private init(_ value: Any) {
    let type = Swift.type(of: value)
    isString = value is String
    if let equatable = type as? any Equatable.Type {
      equals = Self.equality(equatable)
    } else {
      equals = nil
    }
    if !isString, let describable = type as? any CustomStringConvertible.Type {
      describe = Self.description(describable)
    } else {
      describe = nil
    }
    if let identifiable = type as? any Identifiable.Type {
      identifier = Self.identifier(identifiable)
    } else {
      identifier = nil
    }
    let mirror = Mirror(reflecting: value)
    isLeaf = !isString && mirror.displayStyle == nil && mirror.children.isEmpty
  }

  /// The traits of the standard library's scalars, with closures written for each type: in
  /// generic closures, each cast would look up the metadata of an optional of the type.
  private static func standardLeaf(_ value: Any) -> TypeTraits? {
    switch value {
    case is Int: leaf(Int.self)
    case is Bool: leaf(Bool.self)
    case is Double: leaf(Double.self)
    case is Int64: leaf(Int64.self)
    case is UInt64: leaf(UInt64.self)
    case is Int32: leaf(Int32.self)
    case is UInt: leaf(UInt.self)
    case is Float: leaf(Float.self)
    default: nil
    }
  }

  /// A scalar's traits; inlined into each case of ``standardLeaf(_:)``, so the casts are to a
  /// known type.
  @inline(__always)
  private static func leaf<Value: Equatable & CustomStringConvertible>(
    _: Value.Type
  ) -> TypeTraits {
    TypeTraits(
      equals: { lhs, rhs in (lhs as? Value) == (rhs as? Value) },
      describe: { value in (value as? Value)?.description ?? "" },
      identifier: nil, isString: false, isLeaf: true)
  }

  private init(
    equals: ((Any, Any) -> Bool)?, describe: ((Any) -> String)?,
    identifier: ((Any) -> String)?, isString: Bool, isLeaf: Bool
  ) {
    self.equals = equals
    self.describe = describe
    self.identifier = identifier
    self.isString = isString
    self.isLeaf = isLeaf
  }

  private static func equality<Value: Equatable>(_: Value.Type) -> (Any, Any) -> Bool {
    { lhs, rhs in
      guard let lhs = lhs as? Value, let rhs = rhs as? Value else { return false }
      return lhs == rhs
    }
  }

  private static func description<Value: CustomStringConvertible>(
    _: Value.Type
  ) -> (Any) -> String {
    { value in (value as? Value)?.description ?? String(describing: value) }
  }

  private static func identifier<Value: Identifiable>(_: Value.Type) -> (Any) -> String {
    { value in (value as? Value).map { String(describing: $0.id) } ?? "" }
  }
}

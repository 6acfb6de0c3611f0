/// Where a child's state lives in its parent's: a writable key path, applied at its byte offset
/// when it names stored properties held inline.
///
/// A key path kept in a closure is applied by the runtime's generic key path code: reading a
/// `forEach` list cost about 1,500 instructions a step (the path walked, and the metadata of
/// generic types looked up on each call), more than the rest of the step (see
/// PerformanceLedger: key paths at their offset). `MemoryLayout<Root>.offset(of:)` gives, once,
/// the offset of a path made only of stored properties of structs, and the property's memory
/// is bound to its type at that offset, so a pointer to it reads and writes exactly what the
/// key path does. Any other path (a computed property such as `\.$destination`, a class on the
/// way, an optional chain) has no offset and goes through the key path.
///
/// - Invariant: `offset` is `MemoryLayout<Root>.offset(of: keyPath)`: non-`nil` only when the
///   value of type `Value` is stored inline at that offset of every `Root`. The pointer is used
///   only inside `withUnsafeMutablePointer(to: &root)`, which holds the root exclusively for the
///   call, so no other access can overlap it.
@usableFromInline
package struct StatePath<Root, Value> {
  /// The key path, for the paths that have no offset.
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  /// The byte offset of the value in the root, when it is stored inline.
  @usableFromInline package let offset: Int?

  /// Finds the offset of `keyPath`, if it has one.
  @inlinable
  package init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// The value at the path in `root`.
  ///
  /// `root` is `inout` only to be addressed in place: it is not changed.
  @inlinable
  package func get(_ root: inout Root) -> Value {
    // A read, not a modification: a computed path's setter does not run.
    guard let offset else { return root[keyPath: keyPath] }
    return Self.atOffset(offset, in: &root) { $0 }
  }

  /// Runs `body` on the value at the path in `root`, in place.
  @inlinable
  package func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    return Self.atOffset(offset, in: &root, body)
  }

  /// Runs `body` on the value of type `Value` stored inline at `offset` in `root`: the one
  /// place that addresses a state's memory by offset (`PresentedField` uses it too).
  ///
  /// - Precondition: a `Value` is stored inline at `offset` of every `Root`.
  @inlinable
  package static func atOffset<Result>(
    _ offset: Int, in root: inout Root, _ body: (inout Value) -> Result
  ) -> Result {
    withUnsafeMutablePointer(to: &root) { pointer in
      let value = (UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Value.self)
      return body(&value.pointee)
    }
  }
}

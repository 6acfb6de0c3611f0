@_spi(Reflection) import Swift

/// Where a ``Presented`` wrapper lives in its feature's state, and the name reports give it.
///
/// `presents` reads the wrapper on every step and changes it on every child event. The key
/// path users pass is the wrapper's projected value (`\.$destination`), a computed property:
/// each access through it runs the runtime's generic key path code, which looks up the
/// metadata of generic types, about 800 instructions a read (see PerformanceLedger: a presented
/// wrapper at its field). The wrapper itself is stored (`_destination`), but no key path to it
/// can be formed outside the state's type. So the field is found once, in the first state seen:
/// among the stored properties of the wrapper's type held inline in the state (through stored
/// structs), the one the key path's getter reads and its setter writes. From then on it is read
/// and written there, at its byte offset, as ``StatePath`` does for a stored path.
///
/// The contract, in `presents`' documentation: the path is a wrapper's projection or a stored
/// `Presented` property. A computed property of the app's that only forwards to one wrapper is
/// the same thing; one that picks its wrapper by the state, or whose setter does more, would
/// be read at the field its first state showed. A debug build checks each read against the key
/// path and reports a difference (``mismatchReported``).
///
/// - Invariant: `access` is `.field(offset)` only when a property of type `Presented<Value>` is
///   stored inline at `offset` of every `State` (field offsets are the type's), and the path's
///   getter and setter were seen to read and write that property. The pointer is used only
///   inside `withUnsafeMutablePointer(to: &state)`, which holds the state exclusively for the
///   call. `access` and `known` are read and written on the system's isolation only, each
///   access over before the next call out: a ``Feature`` is not `Sendable`, so Swift 6 lets no
///   two isolations share one (a client that opts out of the checks must not either). They
///   opt out of the run-time exclusivity checks, which cost about 100 instructions a step (see
///   PerformanceLedger: exclusivity opt-outs).
@usableFromInline
package final class PresentedField<State, Value> {
  /// How the wrapper is reached.
  @usableFromInline
  package enum Access: Equatable {
    /// Not yet known: no state seen.
    case unknown
    /// At this byte offset in the state.
    case field(Int)
    /// Through the key path: no single field matches it.
    case keyPath
  }

  /// The key path users passed.
  @usableFromInline package let path: WritableKeyPath<State, Presented<Value>>
  /// How the wrapper is reached: `.unknown` until the first state is seen.
  @exclusivity(unchecked) @usableFromInline package var access: Access
  /// The child's name, once known.
  @exclusivity(unchecked) @usableFromInline var known: String?
  #if DEBUG
    /// Whether a read at the field differed from the key path's, and was reported.
    @exclusivity(unchecked) @usableFromInline package var mismatchReported = false
  #endif

  @usableFromInline
  package init(_ path: WritableKeyPath<State, Presented<Value>>) {
    self.path = path
    if let offset = MemoryLayout<State>.offset(of: path) {
      let described = scopeName(of: path)
      access = .field(offset)
      known = described.hasPrefix("$") ? String(described.dropFirst()) : described
    } else {
      access = .unknown
    }
  }

  /// The wrapper in `state`.
  ///
  /// `state` is `inout` only to be addressed in place: it is not changed, and a computed path's
  /// setter does not run.
  @inlinable
  package func get(_ state: inout State) -> Presented<Value> {
    if case .unknown = access { find(in: state) }
    guard case .field(let offset) = access else { return state[keyPath: path] }
    #if DEBUG
      checkField(offset, in: &state)
    #endif
    return Self.atField(offset, in: &state) { $0 }
  }

  /// Runs `body` on the wrapper in `state`, in place.
  @inlinable
  package func modify<Result>(
    _ state: inout State, _ body: (inout Presented<Value>) -> Result
  ) -> Result {
    if case .unknown = access { find(in: state) }
    guard case .field(let offset) = access else { return body(&state[keyPath: path]) }
    return Self.atField(offset, in: &state, body)
  }

  /// Runs `body` on the wrapper stored at `offset` in `state` (see ``StatePath``).
  @inlinable
  static func atField<Result>(
    _ offset: Int, in state: inout State, _ body: (inout Presented<Value>) -> Result
  ) -> Result {
    StatePath<State, Presented<Value>>.atOffset(offset, in: &state, body)
  }

  /// The child's name in reports and scopes: its property's, without the wrapper's `_`.
  @inlinable
  package func name(in state: State) -> String {
    if let known { return known }
    find(in: state)
    return known ?? "\(Value.self)"
  }

  /// Finds the field the path reads and writes, and its name, in a copy of `state`.
  ///
  /// Each candidate field gets an identity of its own, written in the copy's memory; the one
  /// the getter then returns is the field it reads. The setter is then seen to write it. Any
  /// other outcome (no candidate, a state that is not a struct, the path reads something else)
  /// keeps the key path, and names the child as the property that holds its wrapper.
  @usableFromInline
  func find(in state: State) {
    defer { if known == nil { known = Self.label(of: state[keyPath: path], in: state) } }
    access = .keyPath
    // An existential state has no fields of its own: the walk is for concrete types only.
    guard type(of: state as Any) == State.self else { return }
    var probe = state
    let candidates = inlineFields(of: Presented<Value>.self, in: State.self)
    let marks = candidates.map { field in
      let mark = PresentationIdentity.next()
      setIdentity(mark, at: field.offset, in: &probe)
      return mark
    }
    guard let index = marks.firstIndex(of: probe[keyPath: path].identity) else { return }
    let field = candidates[index]
    let written = PresentationIdentity.next()
    probe[keyPath: path].identity = written
    guard identity(at: field.offset, in: &probe) == written else { return }
    access = .field(field.offset)
    // The wrapper's storage is `_destination`; the child is named by the property. A binary
    // built without reflection names has none.
    let name = Self.propertyName(field.name)
    if !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
      known = name
    }
  }

  /// The name of the property that holds a wrapper stored as `storage` (`_destination`, or
  /// `nav._sheet` through a stored struct): without the wrapper's `_`.
  static func propertyName(_ storage: String) -> String {
    var name = storage
    let leaf = name.lastIndex(of: ".").map(name.index(after:)) ?? name.startIndex
    if name[leaf...].hasPrefix("_") { name.remove(at: leaf) }
    return name
  }

  /// The label of the property of `state` that holds `wrapper`, without the wrapper's `_`, or
  /// the presented type's name.
  static func label(of wrapper: Presented<Value>, in state: State) -> String {
    let label = Mirror(reflecting: state).children.first { child in
      (child.value as? Presented<Value>)?.identity == wrapper.identity
    }?.label
    guard let label, !label.isEmpty else { return "\(Value.self)" }
    return propertyName(label)
  }

  #if DEBUG
    /// Reports, once, a read at the field that the key path does not agree with: a path that
    /// breaks the contract (see the type's documentation).
    @usableFromInline
    func checkField(_ offset: Int, in state: inout State) {
      guard !mismatchReported,
        identity(at: offset, in: &state) != state[keyPath: path].identity
      else { return }
      mismatchReported = true
      reportUnobserved(
        "presents(state:) reads \(name(in: state)) where its first state kept the wrapper, "
          + "and its key path now reads another one: pass a wrapper's projection "
          + "(\\.$destination) or a stored Presented property.")
    }
  #endif

  private func identity(at offset: Int, in state: inout State) -> PresentationIdentity {
    Self.atField(offset, in: &state) { $0.identity }
  }

  private func setIdentity(
    _ identity: PresentationIdentity, at offset: Int, in state: inout State
  ) {
    Self.atField(offset, in: &state) { $0.identity = identity }
  }
}

/// The stored properties of type `target` held inline in a value of `type`, through stored
/// properties of struct type: their byte offsets and their names, dotted (`nav._destination`).
///
/// - Parameters:
///   - target: The type of the properties to find.
///   - type: The type to search; a type that is not a struct has none.
///   - base: The offset of `type`'s value in the outermost value.
///   - prefix: The names of the properties on the way to `type`'s value, each with its dot.
/// - Returns: The properties found, in declaration order, depth first.
func inlineFields(
  of target: Any.Type, in type: Any.Type, base: Int = 0, prefix: String = ""
) -> [(offset: Int, name: String)] {
  var found: [(offset: Int, name: String)] = []
  // Without the `classType` option the walk refuses classes: only inline storage is listed.
  _ = _forEachField(of: type) { name, offset, fieldType, kind in
    let label = prefix + String(cString: name)
    if fieldType == target {
      found.append((base + offset, label))
    } else if kind == .struct {
      found += inlineFields(of: target, in: fieldType, base: base + offset, prefix: label + ".")
    }
    return true
  }
  return found
}

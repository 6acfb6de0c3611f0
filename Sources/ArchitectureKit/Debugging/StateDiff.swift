/// One changed part of a state: where it is, and its value before and after, as text.
@usableFromInline
package struct StateChange: Sendable, Equatable {
  /// Where the part is, as a child feature's scope names it: `cart.items[3].count`,
  /// `path[#3].detail.isAdding`, `destination.settings.name`; empty for the whole state.
  package var path: String
  /// The part before the step (see ``ValueText``).
  package var before: String
  /// The part after the step.
  package var after: String

  /// Creates a change.
  package init(path: String, before: String, after: String) {
    self.path = path
    self.before = before
    self.after = after
  }
}

/// The changed paths between two states, each with its value before and after: what printed
/// changes and journals show of a step.
///
/// The walk goes down the parts that differ and stops at the equal ones: `Equatable` parts are
/// compared with `==` (an unchanged collection in constant time, by its storage), others by
/// their text. Structs go down by property, enums by case (a changed case is one change),
/// collections by element (`items[2]`, or `rows[7]` by identifier for `Identifiable`
/// elements), stacks by ID (`path[#3]`), dictionaries by key. A collection of more than
/// ``elementLimit`` elements is not walked: its change shows the counts.
///
/// Reflection (`Mirror`) makes it generic: it is meant for debugging tools, not for a hot path.
package enum StateDiff {
  /// The longest collection walked element by element.
  package static var elementLimit: Int { 100 }
  /// How deep the walk goes; a deeper change is shown whole at this depth (and cycles of
  /// classes end).
  static var depthLimit: Int { 32 }

  /// The changes from `old` to `new`, in the order of the state's declaration.
  ///
  /// - Parameters:
  ///   - old: The state before.
  ///   - new: The state after.
  /// - Returns: One change per changed path; empty when nothing changed.
  package static func changes(from old: Any, to new: Any) -> [StateChange] {
    var changes: [StateChange] = []
    walk(old, new, path: "", depth: 0, into: &changes)
    return changes
  }

  /// A field's name in a path: a property wrapper's storage (`_destination`) is shown under the
  /// property's name.
  package static func name(of label: String) -> String {
    label.hasPrefix("_") && label.count > 1 ? String(label.dropFirst()) : label
  }

  private static func walk(
    _ old: Any, _ new: Any, path: String, depth: Int, into changes: inout [StateChange]
  ) {
    let isSameType = ObjectIdentifier(type(of: old)) == ObjectIdentifier(type(of: new))
    var isKnownUnequal = false
    let traits = TypeTraits.of(old)
    if isSameType, let equals = traits.equals {
      if equals(old, new) { return }
      isKnownUnequal = true
    }
    // A value with no parts is compared whole, without a mirror.
    if isSameType, traits.isLeaf {
      return leaf(old, new, path, isKnownUnequal: isKnownUnequal, traits: traits, into: &changes)
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard isSameType, depth < depthLimit, oldMirror.displayStyle == newMirror.displayStyle else {
      return leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes)
    }
    switch oldMirror.displayStyle {
    case .struct, .class, .tuple:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      guard !oldChildren.isEmpty, oldChildren.count == newChildren.count,
        zip(oldChildren, newChildren).allSatisfy({ $0.label == $1.label })
      else { return leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes) }
      let count = changes.count
      for (oldChild, newChild) in zip(oldChildren, newChildren) {
        walk(
          oldChild.value, newChild.value, path: child(of: path, oldChild.label),
          depth: depth + 1, into: &changes)
      }
      if changes.count == count, isKnownUnequal {
        // Equal parts, unequal wholes (a custom `==`): the change is the whole.
        leaf(old, new, path, isKnownUnequal: true, into: &changes)
      }
    case .enum:
      let oldPayload = oldMirror.children.first
      let newPayload = newMirror.children.first
      guard let oldPayload, let newPayload, let label = oldPayload.label,
        label == newPayload.label
      else { return leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes) }
      walk(
        oldPayload.value, newPayload.value, path: child(of: path, label), depth: depth + 1,
        into: &changes)
    case .optional:
      guard let oldWrapped = oldMirror.children.first, let newWrapped = newMirror.children.first
      else { return leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes) }
      walk(oldWrapped.value, newWrapped.value, path: path, depth: depth, into: &changes)
    case .collection:
      let oldElements = oldMirror.children.map(\.value)
      let newElements = newMirror.children.map(\.value)
      guard oldElements.count == newElements.count, oldElements.count <= elementLimit else {
        return leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes)
      }
      for (index, (oldElement, newElement)) in zip(oldElements, newElements).enumerated() {
        let key = identifier(of: oldElement) ?? String(index)
        guard identifier(of: newElement) ?? String(index) == key else {
          // Another element at this place: the change is the whole element.
          leaf(oldElement, newElement, path + "[\(index)]", isKnownUnequal: false, into: &changes)
          continue
        }
        walk(oldElement, newElement, path: path + "[\(key)]", depth: depth + 1, into: &changes)
      }
    case .dictionary:
      walkDictionary(oldMirror, newMirror, old, new, path: path, depth: depth, into: &changes)
    default:
      leaf(old, new, path, isKnownUnequal: isKnownUnequal, into: &changes)
    }
  }

  private static func walkDictionary(
    _ oldMirror: Mirror, _ newMirror: Mirror, _ old: Any, _ new: Any, path: String, depth: Int,
    into changes: inout [StateChange]
  ) {
    func entries(_ mirror: Mirror) -> [String: Any] {
      var entries: [String: Any] = [:]
      for entry in mirror.children {
        let pair = Array(Mirror(reflecting: entry.value).children)
        guard pair.count == 2 else { continue }
        entries[ValueText.describe(pair[0].value)] = pair[1].value
      }
      return entries
    }
    guard oldMirror.children.count <= elementLimit, newMirror.children.count <= elementLimit
    else { return leaf(old, new, path, isKnownUnequal: false, into: &changes) }
    let oldEntries = entries(oldMirror)
    let newEntries = entries(newMirror)
    for key in Set(oldEntries.keys).union(newEntries.keys).sorted() {
      let keyPath = path + "[\(key)]"
      switch (oldEntries[key], newEntries[key]) {
      case (let oldValue?, let newValue?):
        walk(oldValue, newValue, path: keyPath, depth: depth + 1, into: &changes)
      case (let oldValue?, nil):
        changes.append(
          StateChange(path: keyPath, before: ValueText.describe(oldValue), after: "nil"))
      case (nil, let newValue?):
        changes.append(
          StateChange(path: keyPath, before: "nil", after: ValueText.describe(newValue)))
      case (nil, nil):
        break
      }
    }
  }

  /// A change of a whole part: its texts before and after, unless they are the same and the
  /// part is not known to differ.
  private static func leaf(
    _ old: Any, _ new: Any, _ path: String, isKnownUnequal: Bool, traits: TypeTraits? = nil,
    into changes: inout [StateChange]
  ) {
    let before = traits.map { ValueText.describe(old, traits: $0) } ?? ValueText.describe(old)
    let after = traits.map { ValueText.describe(new, traits: $0) } ?? ValueText.describe(new)
    guard before != after || isKnownUnequal else { return }
    changes.append(StateChange(path: path, before: before, after: after))
  }

  /// The path of a child: a field (`cart.items`), a stack's element (`path[#3]`) or a tuple's
  /// element (`pair.0`).
  private static func child(of path: String, _ label: String?) -> String {
    guard let label else { return path }
    if label.hasPrefix("#") { return path + "[\(label)]" }
    let name = name(of: label.hasPrefix(".") ? String(label.dropFirst()) : label)
    return path.isEmpty ? name : path + "." + name
  }

  /// The identifier of an `Identifiable` element, as text, as a `forEach` scope names it.
  private static func identifier(of element: Any) -> String? {
    TypeTraits.of(element).identifier?(element)
  }
}

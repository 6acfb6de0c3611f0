/// What one system's compositions share between their reducer and their feedback: one object
/// per composition that asks, made at the system's creation.
///
/// A ``Feature`` is shared by many systems, so a composition that keeps per-system bookkeeping
/// on both sides of a step (the reducer's and the feedback's) finds it here, under a token of
/// its own.
///
/// Exclusivity: ``objects`` and ``claimed`` skip the run-time check (see PerformanceLedger:
/// exclusivity opt-outs). No two accesses can overlap: they are used on the system's isolation,
/// while the system is created and when a scoped child is first reconciled, and each access is
/// a plain lookup or insertion.
@usableFromInline
final class CompositionNodes {
  /// Each composition's object, with its token, kept alive so that its identifier stays its own.
  @exclusivity(unchecked) @usableFromInline
  var objects: [ObjectIdentifier: (token: AnyObject, node: AnyObject)] = [:]
  /// The compositions whose object a reconciler claimed.
  @exclusivity(unchecked) @usableFromInline var claimed: Set<ObjectIdentifier> = []

  @usableFromInline
  init() {}

  /// The object of the composition with `token`, made by `make` on the first call.
  @inlinable
  func shared<Node: AnyObject>(_ token: AnyObject, _ make: () -> Node) -> Node {
    let key = ObjectIdentifier(token)
    if let entry = objects[key], let node = entry.node as? Node { return node }
    let node = make()
    objects[key] = (token, node)
    return node
  }

  /// The object of the composition with `token` for the first reconciler that asks, `nil` for
  /// any other: a feedback listed twice must not share one watch.
  @inlinable
  func claim<Node: AnyObject>(_ token: AnyObject, _ make: () -> Node) -> Node? {
    guard claimed.insert(ObjectIdentifier(token)).inserted else { return nil }
    return shared(token, make)
  }

  /// The nodes of the child the composition with `token` runs once per system (a `scope`):
  /// its own, so that a feature scoped twice keeps two sets.
  @inlinable
  func scoped(_ token: AnyObject) -> CompositionNodes {
    shared(token) { CompositionNodes() }
  }
}

/// A composition's token in ``CompositionNodes``: its identity, nothing more.
@usableFromInline
final class CompositionToken: Sendable {
  @usableFromInline
  init() {}
}

/// How a `forEach` in one system tells which of its elements a step changed, without walking
/// them (see PerformanceLedger: children that did not change).
///
/// The watch keeps a copy of the elements array, which shares the array's storage. While it
/// is kept, any change to the array, by any reducer, finds the storage shared and copies it:
/// the array in the state then has other storage than the copy. So "same storage as the copy"
/// proves "unchanged since the copy was taken". The feedback takes the copy after each
/// reconciliation. The `forEach` reducer, on an event for one element, gives the copy up for
/// the element's change (so that it changes in place, not the whole array), after checking that
/// nothing changed the array before it in the step, and takes a new copy right after: the step
/// then changed that element and nothing else, unless the storage differs at the next
/// reconciliation.
///
/// - Invariant: ``isTrusted`` is true only while, since the last reconciliation, the array
///   was changed by nothing but the element at ``changed``, in place, between two copies.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the watch is used on its system's isolation, by the
/// `forEach`'s reducer inside a step and by its feedback inside a reconciliation, never both at
/// once; each access is a plain read or write, and the element's reducer, the only call made
/// between two of them, cannot reach the watch (it sees only its element).
@usableFromInline
final class ElementsWatch<Element: Identifiable> {
  /// A copy of the elements: from the end of the last reconciliation, or from just after the
  /// change of the element at ``changed``.
  @exclusivity(unchecked) @usableFromInline var copy: [Element]?
  /// The index of the element the step's event changed, if any.
  @exclusivity(unchecked) @usableFromInline var changed: Int?
  /// Whether ``copy`` and ``changed`` tell all that changed since the last reconciliation.
  @exclusivity(unchecked) @usableFromInline var isTrusted = false
  /// Each element's index at the last reconciliation that saw the order change, by identifier:
  /// where the reducer looks first for an event's element.
  @exclusivity(unchecked) @usableFromInline var positions: [Element.ID: Int] = [:]

  @usableFromInline
  init() {}

  /// The index of the element `id`: at its known position when it is still there, otherwise
  /// found by a walk.
  @inlinable
  func index(of id: Element.ID, in elements: [Element]) -> Int? {
    if let index = positions[id], index < elements.count, elements[index].id == id {
      return index
    }
    return elements.firstIndex { $0.id == id }
  }

  /// Gives up the copy before the element at `index` changes in place; the step stays trusted
  /// only if the array still has the copy's storage.
  @inlinable
  func willChange(_ index: Int, in elements: [Element]) {
    isTrusted = isTrusted && changed == nil && copy.map { Self.sameStorage($0, elements) } == true
    copy = nil
    changed = index
  }

  /// Takes the copy again, after the element changed.
  @inlinable
  func didChange(_ elements: [Element]) {
    copy = elements
  }

  /// Whether the array in the state is the copy, but for the element at ``changed``: `nil` when
  /// that cannot be told (then every element must be looked at), otherwise the index of the
  /// changed element, or `-1` for none.
  @inlinable
  func onlyChange(in elements: [Element]) -> Int? {
    guard isTrusted, let copy, Self.sameStorage(copy, elements) else { return nil }
    return changed ?? -1
  }

  /// Starts watching `elements`, as the feedback saw them.
  @inlinable
  func reconciled(_ elements: [Element]) {
    copy = elements
    changed = nil
    isTrusted = true
  }

  /// Whether two arrays share their storage (two empty arrays do).
  @inlinable
  static func sameStorage(_ lhs: [Element], _ rhs: [Element]) -> Bool {
    lhs.withUnsafeBufferPointer { lhs in
      rhs.withUnsafeBufferPointer { rhs in lhs.baseAddress == rhs.baseAddress }
    }
  }
}

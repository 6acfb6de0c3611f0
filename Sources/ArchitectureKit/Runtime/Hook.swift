/// A registered listener: a UI binding, a loop callback or an observer.
///
/// A notification walks a snapshot of the listeners, so a listener removed in the middle of it
/// must still be skipped: removing one empties its box, and the walk calls only full boxes.
@usableFromInline
final class Hook<Body> {
  /// The listener, until it is removed.
  @exclusivity(unchecked) @usableFromInline var body: Body?
  /// How to remove it, for the listeners added one by one.
  let listener: Listener?

  init(_ body: Body, listener: Listener? = nil) {
    self.body = body
    self.listener = listener
  }

  /// Empties the box when it holds `listener`; returns whether it did.
  func retire(ifItIs listener: Listener) -> Bool {
    guard self.listener == listener else { return false }
    body = nil
    return true
  }
}

/// A comparison of two states, when the state type is `Equatable`.
///
/// Decided once per system: bindings and Observation then skip steps that left an `Equatable`
/// state unchanged. The comparison calls the type's own `==` through its conformance.
func equality<State>(of type: State.Type) -> ((State, State) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  func compare<Value: Equatable>(_: Value.Type) -> (State, State) -> Bool {
    // `State` is `Value` here: the casts only restate the type the check above found.
    { lhs, rhs in unsafeBitCast(lhs, to: Value.self) == unsafeBitCast(rhs, to: Value.self) }
  }
  return compare(equatable)
}

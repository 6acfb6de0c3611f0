/// A feedback request that has an effect running, or had one: what a feedback asked for.
///
/// Requests are values, so observers and tests can name them. The ``value`` is the request as
/// the feedback derived it from the state:
///
/// - ``Feedback/react(request:effect:)`` and ``Feedback/react(request:effects:)``: the request
///   itself;
/// - ``Feedback/react(requests:effect:)-((State)->Set<Request>,_)``,
///   ``Feedback/react(requests:effect:)-((State)->RequestSet<Request>,_)`` and
///   ``Feedback/react(requests:effects:)``: the element of the set;
/// - ``Feedback/react(keyedRequests:effect:)`` and ``Feedback/react(keyed:effect:)``: the
///   request, with its ``key``;
/// - ``Feedback/react(on:policy:until:effect:)``: the request the trigger made of the event;
/// - ``Feedback/react(_:when:)``: `true`, the condition that turned on.
///
/// A request of a child feature names the child in its ``scope``, as in `search` or
/// `rows[7]`, and its description starts with it: `rows[7]: loadImage`.
public struct EffectRequest: Sendable, Equatable, CustomStringConvertible {
  /// The request's parts, in one box: a request is copied into the system's table, handed to
  /// the runtime and to observers, and a copy of one reference costs a retain, where a copy of
  /// two existentials and a string costs calls through their value witnesses.
  ///
  /// A box is never changed once shared: only ``EffectRequest/renew(with:)`` and
  /// ``EffectRequest/renew(key:value:)`` write its key and value, and only while they hold the
  /// one reference, so no other thread can be reading it.
  ///
  /// Exclusivity: ``key`` and ``value`` skip the run-time check (see PerformanceLedger:
  /// exclusivity opt-outs). No two accesses can overlap: a shared box is only read, and the
  /// writes happen while the writer holds the only reference, with nothing else running on the
  /// box.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @usableFromInline let feedbackIndex: Int
    @usableFromInline let scope: String
    @exclusivity(unchecked) @usableFromInline var key: (any Hashable & Sendable)?
    @exclusivity(unchecked) @usableFromInline var value: any Equatable & Sendable

    @usableFromInline
    init(
      feedbackIndex: Int,
      scope: String,
      key: (any Hashable & Sendable)?,
      value: any Equatable & Sendable
    ) {
      self.feedbackIndex = feedbackIndex
      self.scope = scope
      self.key = key
      self.value = value
    }
  }

  @usableFromInline var storage: Storage

  /// The position of the feedback that made the request, in its feature's feedback list.
  public var feedbackIndex: Int { storage.feedbackIndex }

  /// The child feature the request belongs to, as in `search`, `rows[7]` or `rows[7].detail`;
  /// empty for the system's own feature.
  public var scope: String { storage.scope }

  /// The key of a keyed request, `nil` for the other forms.
  public var key: (any Hashable & Sendable)? { storage.key }

  /// The request value.
  public var value: any Equatable & Sendable { storage.value }

  /// Creates a description of a request; the runtime makes them.
  ///
  /// - Parameters:
  ///   - feedbackIndex: The position of the feedback in its feature's feedback list.
  ///   - key: The key of a keyed request.
  ///   - value: The request value.
  @inlinable
  package init(
    feedbackIndex: Int,
    key: (any Hashable & Sendable)? = nil,
    value: any Equatable & Sendable
  ) {
    storage = Storage(feedbackIndex: feedbackIndex, scope: "", key: key, value: value)
  }

  /// Gives this request `value` in its own box, when nothing else holds the box.
  ///
  /// A feedback with one request at a time keeps its last request: once the runtime let go of
  /// it (the effect was retired) and no observer or test kept it, the next request reuses its
  /// box, so a chain of requests allocates nothing. A request anybody else holds is never
  /// changed: the call then does nothing and returns `false`.
  ///
  /// - Parameter value: The new request's value.
  /// - Returns: Whether the request now has `value`.
  @inlinable
  package mutating func renew(with value: some Equatable & Sendable) -> Bool {
    guard isKnownUniquelyReferenced(&storage) else { return false }
    storage.value = value
    return true
  }

  /// Gives this request `key` and `value` in its own box, when nothing else holds the box: how
  /// a keyed feedback reuses the box of a request it retired (see ``KeyedEffects``; a set's
  /// elements, which have no key, renew only their value with ``renew(with:)``).
  ///
  /// - Parameters:
  ///   - key: The new request's key.
  ///   - value: The new request's value.
  /// - Returns: Whether the request now has `key` and `value`; `false` when the box is shared.
  @inlinable
  package mutating func renew(
    key: some Hashable & Sendable, value: some Equatable & Sendable
  ) -> Bool {
    guard renew(with: value) else { return false }
    storage.key = key
    return true
  }

  /// Whether the request value equals `other` (same type, `==`).
  ///
  /// - Parameter other: A request value, such as one a test expects.
  /// - Returns: `true` when `other` has the value's type and equals it.
  package func hasValue(_ other: some Equatable) -> Bool {
    isEqual(value, other)
  }

  /// Whether two requests come from the same feedback of the same child with equal keys and
  /// values.
  public static func == (lhs: EffectRequest, rhs: EffectRequest) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return lhs.feedbackIndex == rhs.feedbackIndex && lhs.scope == rhs.scope
      && isEqual(lhs.value, rhs.value) && isEqualOptional(lhs.key, rhs.key)
  }

  /// The request value, prefixed by its key for keyed requests and by its scope for a child's.
  public var description: String {
    let request = if let key { "\(key): \(value)" } else { "\(value)" }
    return scope.isEmpty ? request : "\(scope): \(request)"
  }

  /// The same request, seen from the parent that holds its child at `outer`.
  @usableFromInline
  func scoped(_ outer: String) -> EffectRequest {
    EffectRequest(
      storage: Storage(
        feedbackIndex: feedbackIndex,
        scope: scope.isEmpty ? outer : outer.isEmpty ? scope : "\(outer).\(scope)",
        key: key, value: value))
  }

  @usableFromInline
  init(storage: Storage) {
    self.storage = storage
  }
}

/// Compares two values of unknown types: equal when they have the same type and are `==`.
package func isEqual(_ lhs: any Equatable, _ rhs: Any) -> Bool {
  func open<Value: Equatable>(_ lhs: Value) -> Bool {
    (rhs as? Value).map { $0 == lhs } ?? false
  }
  return open(lhs)
}

private func isEqualOptional(_ lhs: (any Hashable)?, _ rhs: (any Hashable)?) -> Bool {
  switch (lhs, rhs) {
  case (nil, nil): true
  case (let lhs?, let rhs?): isEqual(lhs, rhs)
  default: false
  }
}

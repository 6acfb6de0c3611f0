/// A feedback request that has an effect running, or had one: what a feedback asked for.
///
/// Requests are values, so observers and tests can name them. The ``value`` is the request as
/// the feedback derived it from the state:
///
/// - ``Feedback/react(request:effects:)`` and its siblings: the request itself;
/// - ``Feedback/react(requests:effects:)``: the element of the set;
/// - ``Feedback/react(keyedRequests:effects:)-((State)->[ID:Request],_)`` and
///   ``Feedback/react(keyedRequests:effects:)-((State)->KeyedRequests<ID,Request>,_)``: the request, with its ``key``;
/// - ``Feedback/react(_:when:)``: `true`, the condition that turned on.
///
/// A request of a child feature names the child in its ``scope``, as in `search` or
/// `rows[7]`, and its description starts with it: `rows[7]: loadImage`.
public struct EffectRequest: Sendable, Equatable, CustomStringConvertible {
  /// The position of the feedback that made the request, in its feature's feedback list.
  public let feedbackIndex: Int

  /// The child feature the request belongs to, as in `search`, `rows[7]` or `rows[7].detail`;
  /// empty for the system's own feature.
  public private(set) var scope: String = ""

  /// The key of a keyed request, `nil` for the other forms.
  public let key: (any Hashable & Sendable)?

  /// The request value.
  public let value: any Equatable & Sendable

  /// Creates a description of a request; the runtime makes them.
  ///
  /// - Parameters:
  ///   - feedbackIndex: The position of the feedback in its feature's feedback list.
  ///   - key: The key of a keyed request.
  ///   - value: The request value.
  @usableFromInline
  package init(
    feedbackIndex: Int,
    key: (any Hashable & Sendable)? = nil,
    value: any Equatable & Sendable
  ) {
    self.feedbackIndex = feedbackIndex
    self.key = key
    self.value = value
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
    lhs.feedbackIndex == rhs.feedbackIndex && lhs.scope == rhs.scope
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
    var request = self
    request.scope = scope.isEmpty ? outer : "\(outer).\(scope)"
    return request
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

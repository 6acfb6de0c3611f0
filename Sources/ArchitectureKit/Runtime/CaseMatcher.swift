import FunctionalCore

/// Finds a child's event in a parent's event by reflection, given only how it is embedded:
/// the default `extract:` of ``Feature/scope(_:state:event:extract:context:error:)`` and its
/// siblings.
///
/// A parent event matches when it is an enum case whose payload has the child's type *and* is
/// the case `embed` makes: embedding the payload again must give the same case label. The label
/// is learned from the first match and kept, so later events cost one reflection each. An
/// explicit `extract:` closure costs nothing and is the choice on hot paths.
@usableFromInline
final class CaseMatcher<Parent, Payload>: Sendable {
  private let embed: @Sendable (Payload) -> Parent
  /// The case label of `embed`, once learned.
  private let label = Lock<String?>(nil)

  @usableFromInline
  init(embed: @escaping @Sendable (Payload) -> Parent) {
    self.embed = embed
  }

  /// The payload of `event`, when `event` is the case `embed` makes.
  @usableFromInline
  func extract(_ event: Parent) -> Payload? {
    let mirror = Mirror(reflecting: event)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      let payload = child.value as? Payload
    else { return nil }
    if let known = label.withLock({ $0 }) { return child.label == known ? payload : nil }
    guard Mirror(reflecting: embed(payload)).children.first?.label == child.label else {
      return nil
    }
    label.withLock { $0 = child.label }
    return payload
  }
}

/// The case label of an enum value (`settings` for `.settings(…)`), or `nil` for a value of
/// another kind.
@usableFromInline
func caseLabel(of value: Any) -> String? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  return mirror.children.first?.label ?? "\(value)"
}

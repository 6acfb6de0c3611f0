/// One changed path of the state in a step, as text.
package struct StateChange: Equatable, Sendable {
  /// The path, such as `path[#3].detail.isAdding`.
  package var path: String
  /// The value before the step.
  package var before: String
  /// The value after the step.
  package var after: String

  /// A change of `path` from `before` to `after`.
  package init(path: String, before: String, after: String) {
    self.path = path
    self.before = before
    self.after = after
  }
}

/// A whole value as indented lines, and the line diff of two such dumps: what a test's failure
/// shows for an expected and an actual state (`TestSystem`, `ReducerSpec`, a replay's
/// divergence).
///
/// Structs and classes are rendered by property, enums by case and payload, collections by
/// element, sets and dictionaries sorted, so the same value always dumps the same way. For the
/// changed paths of a step, see ``StateDiff``.
package enum StateDump {
  /// Renders a value as indented lines, one field per line.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - label: The name it is shown under, if any.
  ///   - indent: The depth of its first line.
  /// - Returns: The lines, without line breaks.
  package static func lines(of value: Any, label: String? = nil, indent: Int = 0) -> [String] {
    let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
    let closing = String(repeating: "  ", count: indent)
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first else { return [prefix + "nil"] }
      return lines(of: wrapped.value, label: label, indent: indent)
    case .struct, .class:
      guard !mirror.children.isEmpty else { return [prefix + "\(typeName(value))()"] }
      // A wrapped property (`@Presented var destination`) under its own name, as in diffs.
      return [prefix + "\(typeName(value))("]
        + mirror.children.flatMap {
          lines(of: $0.value, label: $0.label.map(StateDiff.name(of:)), indent: indent + 1)
        }
        + [closing + ")"]
    case .enum:
      guard let payload = mirror.children.first else { return [prefix + ".\(value)"] }
      let caseName = payload.label ?? "\(value)"
      return [prefix + ".\(caseName)("] + lines(of: payload.value, indent: indent + 1)
        + [closing + ")"]
    case .tuple:
      return [prefix + "("]
        + mirror.children.flatMap {
          lines(
            of: $0.value, label: $0.label?.hasPrefix(".") == true ? nil : $0.label,
            indent: indent + 1)
        }
        + [closing + ")"]
    case .collection, .set:
      guard !mirror.children.isEmpty else { return [prefix + "[]"] }
      var elements = mirror.children.map { lines(of: $0.value, indent: indent + 1) }
      if mirror.displayStyle == .set { elements.sort { $0.joined() < $1.joined() } }
      return [prefix + "["] + elements.flatMap { $0 } + [closing + "]"]
    case .dictionary:
      guard !mirror.children.isEmpty else { return [prefix + "[:]"] }
      let entries = mirror.children.map { entry -> (key: String, lines: [String]) in
        let pair = Array(Mirror(reflecting: entry.value).children)
        let key = pair.first.map { "\($0.value)" } ?? "?"
        let lines =
          pair.count > 1 ? lines(of: pair[1].value, label: key, indent: indent + 1) : []
        return (key, lines)
      }
      return [prefix + "["] + entries.sorted { $0.key < $1.key }.flatMap(\.lines) + [closing + "]"]
    default:
      if let string = value as? String { return [prefix + "\"\(string)\""] }
      return [prefix + "\(value)"]
    }
  }

  /// A line diff of two values' dumps: unchanged lines start with two spaces, lines only in
  /// `expected` with `−`, lines only in `actual` with `+`.
  ///
  /// - Parameters:
  ///   - expected: The value the test expected.
  ///   - actual: The value it got.
  /// - Returns: The diff, or `nil` when the dumps are identical.
  package static func diff(expected: Any, actual: Any) -> String? {
    let old = lines(of: expected)
    let new = lines(of: actual)
    guard old != new else { return nil }
    // Longest common subsequence table, from the ends, so the walk below goes forwards.
    var table = [[Int]](
      repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        table[i][j] =
          old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    var lines: [String] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        lines.append("  " + old[i])
        i += 1
        j += 1
      } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
        lines.append("− " + old[i])
        i += 1
      } else {
        lines.append("+ " + new[j])
        j += 1
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func typeName(_ value: Any) -> String {
    String(describing: type(of: value))
  }
}

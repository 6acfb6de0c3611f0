/// Renders a value as indented lines, one field per line, so two values can be diffed line by
/// line: structs and classes by property, enums by case and payload, collections by element,
/// dictionaries sorted by key.
func dumpLines(_ value: Any, label: String? = nil, indent: Int = 0) -> [String] {
  let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .optional:
    guard let wrapped = mirror.children.first else { return [prefix + "nil"] }
    return dumpLines(wrapped.value, label: label, indent: indent)
  case .struct, .class:
    guard !mirror.children.isEmpty else { return [prefix + "\(typeName(value))()"] }
    return [prefix + "\(typeName(value))("]
      + mirror.children.flatMap { dumpLines($0.value, label: $0.label, indent: indent + 1) }
      + [String(repeating: "  ", count: indent) + ")"]
  case .enum:
    guard let payload = mirror.children.first else { return [prefix + ".\(value)"] }
    let caseName = payload.label ?? "\(value)"
    return [prefix + ".\(caseName)("] + dumpLines(payload.value, indent: indent + 1)
      + [String(repeating: "  ", count: indent) + ")"]
  case .tuple:
    return [prefix + "("]
      + mirror.children.flatMap {
        dumpLines(
          $0.value, label: $0.label?.hasPrefix(".") == true ? nil : $0.label,
          indent: indent + 1)
      }
      + [String(repeating: "  ", count: indent) + ")"]
  case .collection, .set:
    guard !mirror.children.isEmpty else { return [prefix + "[]"] }
    var elements = mirror.children.map { dumpLines($0.value, indent: indent + 1) }
    if mirror.displayStyle == .set { elements.sort { $0.joined() < $1.joined() } }
    return [prefix + "["] + elements.flatMap { $0 } + [String(repeating: "  ", count: indent) + "]"]
  case .dictionary:
    guard !mirror.children.isEmpty else { return [prefix + "[:]"] }
    let entries = mirror.children.map { entry -> (key: String, lines: [String]) in
      let pair = Array(Mirror(reflecting: entry.value).children)
      let key = pair.first.map { "\($0.value)" } ?? "?"
      let lines = pair.count > 1 ? dumpLines(pair[1].value, label: key, indent: indent + 1) : []
      return (key, lines)
    }
    return [prefix + "["] + entries.sorted { $0.key < $1.key }.flatMap(\.lines)
      + [String(repeating: "  ", count: indent) + "]"]
  default:
    if let string = value as? String { return [prefix + "\"\(string)\""] }
    return [prefix + "\(value)"]
  }
}

private func typeName(_ value: Any) -> String {
  String(describing: type(of: value))
}

/// A line diff of two values' dumps: unchanged lines start with two spaces, lines only in
/// `expected` with `−`, lines only in `actual` with `+`.
///
/// - Returns: `nil` when the dumps are identical.
func diff(expected: Any, actual: Any) -> String? {
  let old = dumpLines(expected)
  let new = dumpLines(actual)
  guard old != new else { return nil }
  // Longest common subsequence table, from the ends, so the walk below goes forwards.
  var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
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

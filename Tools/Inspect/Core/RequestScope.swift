/// The child scope a request or a state path belongs to, such as `path[#3].detail`.
///
/// A request's description starts with its scope and `: ` (`destination.settings: load`); a
/// root feature's request has none. Brackets may hold anything, `: ` included (`path[id: 3]`),
/// and a `: ` after an opening parenthesis, a quote or a space belongs to the request's own
/// text (`pollCart(every: 5 s)`), not to a scope.
package struct RequestScope: Equatable, Hashable, Sendable {
  /// The scope's path; empty for the root feature.
  package var path: String

  /// The scope of the request described by `request`.
  package init(request: String) {
    path = Self.scopePrefix(of: request) ?? ""
  }

  /// The scope whose path is `path`, such as a state path from a diff.
  package init(path: String) {
    self.path = path
  }

  /// The scope and every scope it is inside, outermost first: `path`, `path[#3]`,
  /// `path[#3].detail`; none for the root.
  package var prefixes: [String] {
    var prefixes: [String] = []
    var depth = 0
    var index = path.startIndex
    while index < path.endIndex {
      let character = path[index]
      if depth == 0, character == "." || character == "[", index > path.startIndex {
        prefixes.append(String(path[..<index]))
      }
      if character == "[" { depth += 1 }
      if character == "]" { depth = max(0, depth - 1) }
      index = path.index(after: index)
    }
    if !path.isEmpty { prefixes.append(path) }
    return prefixes
  }

  private static func scopePrefix(of request: String) -> String? {
    var depth = 0
    var previous: Character?
    for index in request.indices {
      let character = request[index]
      switch character {
      case "[": depth += 1
      case "]": depth = max(0, depth - 1)
      case ":" where depth == 0:
        let next = request.index(after: index)
        guard next < request.endIndex, request[next] == " ", previous != nil else { return nil }
        return String(request[..<index])
      case "(", "\"", "'", " ":
        if depth == 0 { return nil }
      default:
        break
      }
      previous = character
    }
    return nil
  }
}

import FunctionalCore
import TestDoubles

/// A search-like feature: the state holds the query; a feedback runs one effect per query.
struct Search: Equatable, Sendable {
  var query: String?
  var results: [String] = []
}

enum SearchEvent: Equatable, Sendable {
  case search(String?)
  case result(String)
}

/// Test context: one gate per query decides when that query's effect may finish, and one gate
/// per query opens when that query's effect sees cancellation.
struct Gates: Sendable {
  let release = GateSet()
  let cancelled = GateSet()
}

/// Gates made on first use, one per query.
final class GateSet: Sendable {
  private let gates = Lock<[String: Gate]>([:])

  subscript(_ key: String) -> Gate {
    gates.withLock { gates in
      if let gate = gates[key] { return gate }
      let gate = Gate()
      gates[key] = gate
      return gate
    }
  }
}

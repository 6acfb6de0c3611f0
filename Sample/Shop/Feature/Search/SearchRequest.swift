/// Work the search waits for: the state holds it, a feedback performs it.
public enum SearchRequest: Hashable, Sendable {
  /// Find the products that match `query`.
  case find(query: String)
}

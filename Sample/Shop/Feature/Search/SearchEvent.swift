/// What can happen in the shop's search: the user's edits and the answer of the search.
public enum SearchEvent: Hashable, Sendable, Codable {
  /// The user typed `text` at the end of the query.
  case typed(String)
  /// The user erased the query's last character.
  case erased
  /// The user cleared the query, which finds the whole catalog again.
  case cleared
  /// The search answered `query` with `results`.
  case found([ProductSummary], query: String)
}

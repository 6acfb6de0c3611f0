/// The state of the shop's search: the query, the results of the last answered query, and the
/// request for the query not answered yet.
///
/// ```swift
/// var search = SearchState()  // the empty query, not answered yet: the whole catalog loads
/// Search.reduce(&search, .typed("whi"))
/// search.request                // .find(query: "whi")
/// ```
public struct SearchState: Hashable, Sendable, Codable {
  /// What the user typed.
  public var query: String
  /// The products found for ``answeredQuery``.
  public var results: [ProductSummary]
  /// The query the results answer; `nil` before the first answer.
  public var answeredQuery: String?

  /// Creates a state; the default waits for the whole catalog.
  ///
  /// - Parameters:
  ///   - query: What the user typed.
  ///   - results: The products found for `answeredQuery`.
  ///   - answeredQuery: The query the results answer; `nil` before the first answer.
  public init(query: String = "", results: [ProductSummary] = [], answeredQuery: String? = nil) {
    self.query = query
    self.results = results
    self.answeredQuery = answeredQuery
  }

  /// Whether the results do not answer the query yet.
  public var isSearching: Bool {
    answeredQuery != query
  }

  /// The search the feedback runs: the query, until its results arrive.
  ///
  /// Each keystroke changes it, so the search for the previous query is cancelled and its
  /// answer never shows.
  public var request: SearchRequest? {
    isSearching ? .find(query: query) : nil
  }
}

public import ArchitectureKit

/// The shop's search over the catalog, as a feature of its own.
///
/// The reducer edits the query; the feedback searches for the query while the results do not
/// answer it. A keystroke during a search changes the request, which cancels the search for the
/// old query: a stale answer never shows. The feature knows nothing of the shop around it and
/// runs alone as well, in a `System` or a `TestSystem`.
public enum Search: Sendable {
  /// The search's reducer, in mutating form.
  ///
  /// - Parameters:
  ///   - state: The search's state, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout SearchState, _ event: SearchEvent) {
    switch event {
    case .typed(let text):
      state.query += text
    case .erased:
      if !state.query.isEmpty { state.query.removeLast() }
    case .cleared:
      state.query = ""
    case .found(let results, let query):
      state.results = results
      state.answeredQuery = query
    }
  }

  /// The search: its reducer and the feedback that runs ``SearchState/request``.
  public static var feature: Feature<SearchState, SearchEvent, Never, ShopContext> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(
          request: \.request,
          effects: { request in
            switch request {
            case .find(let query):
              AsyncResult<ShopContext, ShopContext, Never>.ask()
                .flatMap { $0.api.search(query) }
                .map { SearchEvent.found($0, query: query) }
            }
          })
      ]
    )
  }
}

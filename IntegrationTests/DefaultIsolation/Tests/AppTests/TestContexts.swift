@testable import App

extension Search.Context {
  /// Finds the query with "ift" appended, fails for "fail", has one history entry and sends two
  /// updates per topic.
  static var test: Search.Context {
    Search.Context(
      search: { request throws(Search.Failure) in
        if request.query == "fail" { throw Search.Failure() }
        return ["\(request.query)ift p\(request.page)"]
      },
      history: ["swift"],
      updates: { topic in ["\(topic) 1", "\(topic) 2"] }
    )
  }
}

extension Transfers.Context {
  /// Every transfer moves in two chunks.
  static var test: Transfers.Context {
    Transfers.Context(chunks: { _ in ["a", "b"] })
  }
}

extension Browser.Context {
  static var test: Browser.Context {
    Browser.Context(search: .test, transfers: .test)
  }
}

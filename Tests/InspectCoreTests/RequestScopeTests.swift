import InspectCore
import Testing

struct RequestScopeTests {
  @Test(arguments: [
    ("path[#3].detail: addToCart(yeezy)", "path[#3].detail"),
    ("destination.settings: load", "destination.settings"),
    ("search: debounce(\"a: b\")", "search"),
    ("path[id: 3]: load", "path[id: 3]"),
    ("pollCart(every: 5 s)", ""),
    ("load \"x: y\"", ""),
    ("loadProduct", ""),
    (": nothing", ""),
  ])
  func takesTheScopeBeforeTheFirstColonOutsideBracketsAndParentheses(
    request: String,
    scope: String
  ) {
    #expect(RequestScope(request: request).path == scope)
  }

  @Test func listsEveryEnclosingScopeOutermostFirst() {
    #expect(
      RequestScope(path: "path[#3].detail.items[id: a.b]").prefixes == [
        "path", "path[#3]", "path[#3].detail", "path[#3].detail.items",
        "path[#3].detail.items[id: a.b]",
      ])
  }

  @Test func theRootHasNoPrefixes() {
    #expect(RequestScope(request: "loadProduct").prefixes.isEmpty)
  }
}

import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive
import ShopFeature
import Testing

/// The shop's search alone, with the same feature value the shop composes.
@MainActor
struct SearchTests {
  let clock = ManualClock()

  @Test func searchesTheCatalogAloneWithoutAShopAround() async {
    let search = TestSystem(
      initialState: SearchState(), context: ShopContext.test(clock: clock),
      feature: Search.feature, clock: clock)
    let found = [Product.yeezy, .court].map(ProductSummary.init)

    search.expectStarted(SearchRequest.find(query: ""))
    // Alone, the request names no child.
    #expect(search.runningRequests.map(\.description) == [#"find(query: "")"#])
    search.send(.typed("White")) { $0.query = "White" }
    search.expectCancelled(SearchRequest.find(query: ""))
    search.expectStarted(SearchRequest.find(query: "White"))
    search.run(SearchRequest.find(query: "White"))
    await clock.advance(by: .milliseconds(300))
    await search.receive(.found(found, query: "White")) {
      $0.results = found
      $0.answeredQuery = "White"
    }
    search.send(.erased) { $0.query = "Whit" }
    search.expectStarted(SearchRequest.find(query: "Whit"))
    search.simulate(SearchRequest.find(query: "Whit"), event: .found(found, query: "Whit"))
    await search.receive(.found(found, query: "Whit")) { $0.answeredQuery = "Whit" }
    await search.finish()
  }
}

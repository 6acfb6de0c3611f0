import ArchitectureKitTestSupport
import ProductDetailFeature
import Testing

/// The seed's analytics hook on a running page.
@MainActor
struct ProductDetailAnalyticsTests {
  @Test func recordsOneSeedEventPerPageChange() async {
    var events: [String] = []
    // Seed 3 rolls 2 (a failure), then 7 (a success); no latency, so no clock is needed.
    let page = ProductDetail.start(context: .test(seed: 3, latencies: .none))
    let analytics = ProductDetailAnalytics { events.append($0) }
    analytics.track(page.state)
    page.addLoopCallback(analytics.track)

    page.send(.loadProduct)
    for await state in page.states where state.product != nil { break }
    page.send(.addToCart)
    for await state in page.states where state.request == nil { break }
    page.send(.addToCart)  // a retry: the failure keeps the product on the page
    for await state in page.states where state.request == nil { break }
    page.send(.loadProduct)
    for await state in page.states where state.request == nil { break }
    page.stop()

    #expect(
      events == [
        "pdpShown", "pdpLoading", "productLoaded", "pdpError", "pdpAddedToCart", "pdpLoading",
        "productLoaded",
      ]
    )
  }

  @Test(
    arguments: [
      (ProductDetailState(), "pdpShown"),
      (ProductDetailState(screen: .loading, request: .loadProduct(id: 1)), "pdpLoading"),
      (ProductDetailState(screen: .productLoaded(.yeezy)), "productLoaded"),
      (ProductDetailState(screen: .error(.addToCartFailed)), "pdpError"),
      (ProductDetailState(screen: .addToCartFailed(.yeezy, .addToCartFailed)), "pdpError"),
      (ProductDetailState(screen: .productLoaded(.yeezy), request: .addToCart(id: 2)), nil),
    ]
  )
  func namesEachScreenAsTheSeedDid(state: ProductDetailState, name: String?) {
    #expect(ProductDetailAnalytics.eventName(for: state) == name)
  }
}

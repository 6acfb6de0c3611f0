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
    await page.settle { $0.product != nil }
    page.send(.addToCart)
    await page.settle { $0.request == nil }
    page.send(.addToCart)  // a retry: the failure keeps the product on the page
    await page.settle { $0.request == nil }
    page.send(.loadProduct)
    await page.settle { $0.request == nil }
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

extension ProductDetailSystem {
  /// Returns once the page reaches a state that satisfies `condition`.
  func settle(until condition: (ProductDetailState) -> Bool) async {
    for await state in states where condition(state) { return }
  }
}

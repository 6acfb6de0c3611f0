import ArchitectureKitTestSupport
import ShopFeature
import Testing

/// A row of the shop alone, with the same feature value the shop runs once per product.
@MainActor
struct ProductRowTests {
  let clock = ManualClock()

  @Test func aRowWhoseProductTheCatalogNoLongerHasShowsItUnavailable() async {
    let row = TestSystem(
      initialState: ProductRowState(summary: ProductSummary(id: "gone", title: "Gone")),
      context: ShopContext.test(clock: clock), feature: ProductRow.feature, clock: clock)

    row.expectStarted(ProductRowRequest.loadProduct(id: "gone"))
    row.run(ProductRowRequest.loadProduct(id: "gone"))
    await clock.advance(by: .milliseconds(500))
    await row.receive(.loaded(nil)) { $0.status = .unavailable }
    await row.finish()
  }
}

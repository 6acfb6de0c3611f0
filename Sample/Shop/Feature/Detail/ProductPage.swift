public import ArchitectureKit
public import ProductDetailFeature

/// The product detail sample's page, as a screen of the shop's stack.
///
/// The page is the product detail sample's, unchanged: its reducer and its one feedback run on
/// ``ProductPageState/detail`` with `scope`. Its context is a ``ProductDetailContext`` whose
/// API serves one product; the shop makes it when it pushes the page, from the product the page
/// shows (see ``ShopPath``), so nothing here needs to know which product that is.
///
/// The page also ends itself: ``ProductPageEvent/closeTapped`` pops it off the stack
/// (`dismissing(on:)`), which cancels what it was doing; the shop sees the event after the pop.
public enum ProductPage: Sendable {
  /// The page: the product detail sample's feature on ``ProductPageState/detail``, closing on
  /// ``ProductPageEvent/closeTapped``.
  public static var feature:
    Feature<ProductPageState, ProductPageEvent, ProductDetailError, ProductDetailContext>
  {
    Feature(reduce: { _, _ in })
      .scope(
        Feature(reduce: ProductDetail.reduce, feedback: ProductDetail.feedback),
        state: \.detail, event: ProductPageEvent.detail, context: { $0 }, error: { $0 }
      )
      .dismissing(on: { $0 == .closeTapped })
  }
}

public import ArchitectureKit
import ProductDetailFeature

/// The screens the shop pushes over its list: one kind today, a product's page.
///
/// Each kind of screen is a case of ``State`` and of ``Event``, and one `ifCase` line runs its
/// feature; the shop runs one such screen per element of ``ShopState/path`` with
/// `forEach(_:stack:…)`, so each page's work lives exactly as long as the page is on the stack.
public enum ShopPath: Sendable {
  /// A screen on the stack.
  public enum State: Hashable, Sendable, Codable {
    /// The page of one product.
    case product(ProductPageState)
  }

  /// What can happen on a screen of the stack.
  public enum Event: Hashable, Sendable, Codable {
    /// An event of a product's page.
    case product(ProductPageEvent)
  }

  /// The stack's screens, one case each.
  ///
  /// A product's page gets its context from the product it shows, once, when it is pushed:
  /// ``ShopContext/productDetail(for:)`` gives it that product's API, with the shop's clock
  /// and random source.
  public static var feature: Feature<State, Event, ShopError, ShopContext> {
    Feature(reduce: { _, _ in })
      .ifCase(
        ProductPage.feature, case: State.product, event: Event.product,
        context: { shop, page in shop.productDetail(for: page.product) },
        error: ShopError.productPage
      )
  }
}

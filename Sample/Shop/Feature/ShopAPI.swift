public import ArchitectureKit
public import ProductDetailFeature

/// The shop's backend: a search over the catalog, the products one by one, the product detail
/// page's backend for each product, and the cart, which it empties.
///
/// Each call is an ``AsyncResult`` that reads the ``ShopContext`` it runs with, as the product
/// page's ``ProductAPI`` does. `LiveShopAPI`, in the `ShopLive` target, serves the product
/// page's catalog; tests use it with a manual clock.
public protocol ShopAPI: Sendable {
  /// Finds the products whose title matches `query`; an empty query finds the whole catalog.
  ///
  /// - Parameter query: What the user typed.
  /// - Returns: The matching products, in catalog order.
  func search(_ query: String) -> AsyncResult<ShopContext, [ProductSummary], Never>

  /// Loads one product, for its row.
  ///
  /// - Parameter id: The product's identifier.
  /// - Returns: The product, or `nil` when the catalog no longer has it.
  func product(id: String) -> AsyncResult<ShopContext, Product?, Never>

  /// The product detail page's backend for `product`: the page shows and adds that product.
  ///
  /// - Parameter product: The product of the page.
  /// - Returns: The page's API.
  func productAPI(for product: Product) -> any ProductAPI

  /// Empties the cart the product pages add to.
  ///
  /// - Returns: Nothing once the cart is empty, or
  ///   ``ProductDetailError/cartUnavailable(reason:)`` when it cannot be kept.
  func emptyCart() -> AsyncResult<ShopContext, Void, ProductDetailError>
}

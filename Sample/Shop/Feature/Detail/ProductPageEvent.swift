public import ProductDetailFeature

/// What can happen on a product page of the shop: the product detail sample's events, and the
/// user closing the page.
public enum ProductPageEvent: Hashable, Sendable, Codable {
  /// An event of the product detail sample's page.
  case detail(ProductDetailEvent)
  /// The user closed the page: it pops itself off the stack.
  case closeTapped
}

public import ProductDetailFeature

/// Why an effect of the shop failed without an event being made of it.
///
/// The search, the rows and the cart sheet cannot fail, and the product pages turn their
/// failures into events, so this type only gives the pages' failure type a place in the shop's.
public enum ShopError: Error, Hashable, Sendable {
  /// A failure of a product page.
  case productPage(ProductDetailError)
}

public import ProductDetailFeature

/// Why an effect of the shop failed without an event being made of it.
///
/// The search and the rows cannot fail, and the product page turns its failures into events,
/// so this type only gives the page's failure type a place in the shop's.
public enum ShopError: Error, Hashable, Sendable {
  /// A failure of the product page.
  case detail(ProductDetailError)
}

/// Work the product detail page is waiting for: the state holds it, a feedback performs it.
///
/// Each request carries the number the state gave it, so a new request never equals the one
/// before it: reloading while a load runs cancels the running load and starts a fresh one.
public enum ProductDetailRequest: Hashable, Sendable, Codable {
  /// Load the product from the API, bypassing its cache.
  case loadProduct(id: Int)
  /// Add the shown product to the user's cart.
  case addToCart(id: Int)
}

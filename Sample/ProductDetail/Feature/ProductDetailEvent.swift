/// What can happen on the product detail page: the user's two actions and the results of the
/// work they start.
public enum ProductDetailEvent: Hashable, Sendable, Codable {
  /// The page appeared, or the user asked to reload: load the product.
  case loadProduct
  /// The user asked to add the shown product to the cart.
  case addToCart
  /// The product arrived.
  case productLoaded(Product)
  /// The product is in the cart.
  case addedToCart(Product, CartResponse)
  /// A request failed.
  case failed(ProductDetailError)
}

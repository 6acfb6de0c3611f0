public import ArchitectureKit

/// The backend of the product detail page, in the seed's style: each call is an
/// ``AsyncResult`` that reads the ``ProductDetailContext`` it runs with (its clock and random
/// source) and ends with a value or a ``ProductDetailError``.
///
/// `LiveProductAPI`, in the `ProductDetailLive` target, reads a JSON catalog and keeps the cart
/// in a file; tests give the context an API of their own.
public protocol ProductAPI: Sendable {
  /// Loads the product of the page.
  ///
  /// - Parameter cached: Whether a copy loaded before will do, which answers at once.
  /// - Returns: The product, or why it could not be loaded.
  func getProduct(cached: Bool) -> AsyncResult<ProductDetailContext, Product, ProductDetailError>

  /// Loads the signed-in user.
  ///
  /// - Returns: The user, or why it could not be loaded.
  func getUser() -> AsyncResult<ProductDetailContext, User, ProductDetailError>

  /// Adds a product to a user's cart.
  ///
  /// - Parameters:
  ///   - product: The product to add.
  ///   - user: The owner of the cart.
  /// - Returns: The confirmation, or why the product could not be added.
  func addToCart(
    product: Product,
    user: User
  ) -> AsyncResult<ProductDetailContext, CartResponse, ProductDetailError>
}

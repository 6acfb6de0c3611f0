/// The answer of a successful add to cart.
public struct CartResponse: Hashable, Sendable, Codable {
  /// The confirmation to show: `Product: <title> added to cart for user: <user>`.
  public var message: String
  /// How many items the cart holds now.
  public var itemCount: Int

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - message: The confirmation to show.
  ///   - itemCount: How many items the cart holds now.
  public init(message: String, itemCount: Int) {
    self.message = message
    self.itemCount = itemCount
  }

  /// The seed's confirmation for `product` added to the cart of `user`.
  ///
  /// - Parameters:
  ///   - product: The product added.
  ///   - user: The owner of the cart.
  /// - Returns: `Product: <title> added to cart for user: <name>`.
  public static func message(adding product: Product, for user: User) -> String {
    "Product: \(product.title) added to cart for user: \(user.name)"
  }
}

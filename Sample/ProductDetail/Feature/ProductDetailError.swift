/// Why a request of the product detail page failed.
public enum ProductDetailError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The seed's add-to-cart failure: domain `Error adding to cart`, code 15.
  case addToCartFailed
  /// The cart could not be kept, such as a cart file that cannot be written.
  ///
  /// The reason is a sentence for the user, naming what is wrong and where.
  case cartUnavailable(reason: String)

  /// The error's domain, as the seed's `NSError` named it.
  public var domain: String {
    switch self {
    case .addToCartFailed: "Error adding to cart"
    case .cartUnavailable: "Cart storage error"
    }
  }

  /// The error's code within its domain.
  public var code: Int {
    switch self {
    case .addToCartFailed: 15
    case .cartUnavailable: 1
    }
  }

  /// A sentence for the page: the domain and code, or what is wrong with the cart.
  public var description: String {
    switch self {
    case .addToCartFailed: "\(domain) (code \(code))"
    case .cartUnavailable(let reason): reason
    }
  }
}

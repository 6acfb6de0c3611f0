/// The state of the product detail page: what it shows, and the request it is waiting for.
///
/// ```swift
/// var state = ProductDetailState()       // .start, nothing pending
/// ProductDetail.reduce(&state, .loadProduct)
/// state.screen                          // .loading
/// state.request                         // .loadProduct(id: 1)
/// ```
public struct ProductDetailState: Hashable, Sendable, Codable {
  /// What the page shows: the seed's five states, and a failed add beside its product.
  public enum Screen: Hashable, Sendable, Codable {
    /// The page before it loads anything.
    case start
    /// The product is loading.
    case loading
    /// The product is shown.
    case productLoaded(Product)
    /// The product is shown, with the confirmation of the last add to cart.
    case addedToCart(Product, CartResponse)
    /// The product is shown, with the failure of the last add to cart; adding again retries.
    case addToCartFailed(Product, ProductDetailError)
    /// Loading failed, so there is no product to show; reloading starts over.
    case error(ProductDetailError)
  }

  /// What the page shows.
  public var screen: Screen
  /// The request the page waits for, which the feedback performs; `nil` when idle.
  public var request: ProductDetailRequest?
  /// How many requests the page has made, which numbers the next one.
  public var requestCount: Int

  /// Creates a state; the default is the page before it loads anything.
  ///
  /// - Parameters:
  ///   - screen: What the page shows.
  ///   - request: The request the page waits for.
  ///   - requestCount: How many requests the page has made.
  public init(screen: Screen = .start, request: ProductDetailRequest? = nil, requestCount: Int = 0)
  {
    self.screen = screen
    self.request = request
    self.requestCount = requestCount
  }

  /// The product on the page, if one is shown.
  public var product: Product? {
    switch screen {
    case .productLoaded(let product), .addedToCart(let product, _),
      .addToCartFailed(let product, _):
      product
    case .start, .loading, .error: nil
    }
  }

  /// Whether an add to cart is under way.
  public var isAddingToCart: Bool {
    if case .addToCart = request { true } else { false }
  }

  /// Whether the user can add to the cart now: a product is shown and nothing is pending.
  public var canAddToCart: Bool {
    product != nil && request == nil
  }
}

public import ArchitectureKit
public import ProductDetailFeature

/// The product detail page's backend as the app runs it: the seed's fake server, with real
/// data.
///
/// The product comes from the catalog, the user is the seed's `Richi`, and the cart is kept in
/// a ``CartStorage``. Calls wait the seed's latencies on the context's clock, and an add to
/// cart fails in 4 cases of 9, as the context's random source decides
/// (`Int.random(in: 1..<10) < 5`), with the seed's `Error adding to cart` (code 15).
public struct LiveProductAPI: ProductAPI {
  /// How long each call takes.
  public struct Latencies: Hashable, Sendable {
    /// Loading the product.
    public var product: Duration
    /// Loading the product when a cached copy will do.
    public var cachedProduct: Duration
    /// Loading the user.
    public var user: Duration
    /// Adding to the cart, once product and user are there.
    public var addToCart: Duration

    /// Creates latencies.
    ///
    /// - Parameters:
    ///   - product: Loading the product.
    ///   - cachedProduct: Loading the product when a cached copy will do.
    ///   - user: Loading the user.
    ///   - addToCart: Adding to the cart.
    public init(product: Duration, cachedProduct: Duration, user: Duration, addToCart: Duration) {
      self.product = product
      self.cachedProduct = cachedProduct
      self.user = user
      self.addToCart = addToCart
    }

    /// The seed's latencies: 3 s for the product, none when cached, 1 s for the user, none to
    /// add to the cart.
    public static let seed = Latencies(
      product: .seconds(3),
      cachedProduct: .zero,
      user: .seconds(1),
      addToCart: .zero
    )
  }

  /// The product the page shows.
  public let product: Product
  /// The signed-in user.
  public let user: User
  /// Where the cart is kept.
  public let cart: any CartStorage
  /// How long each call takes.
  public let latencies: Latencies

  /// Creates the API.
  ///
  /// - Parameters:
  ///   - product: The product the page shows, usually the catalog's featured product.
  ///   - user: The signed-in user; the seed's is `Richi`.
  ///   - cart: Where the cart is kept.
  ///   - latencies: How long each call takes.
  public init(
    product: Product,
    user: User = User(name: "Richi"),
    cart: any CartStorage,
    latencies: Latencies = .seed
  ) {
    self.product = product
    self.user = user
    self.cart = cart
    self.latencies = latencies
  }

  /// Loads the product: 3 s, or at once when `cached`.
  ///
  /// - Parameter cached: Whether a copy loaded before will do.
  /// - Returns: The catalog's product.
  public func getProduct(
    cached: Bool
  ) -> AsyncResult<ProductDetailContext, Product, ProductDetailError> {
    Self.wait(cached ? latencies.cachedProduct : latencies.product).map { [product] in product }
  }

  /// Loads the user: 1 s.
  ///
  /// - Returns: The signed-in user.
  public func getUser() -> AsyncResult<ProductDetailContext, User, ProductDetailError> {
    Self.wait(latencies.user).map { [user] in user }
  }

  /// Adds the product to the cart, failing in 4 cases of 9.
  ///
  /// - Parameters:
  ///   - product: The product to add.
  ///   - user: The owner of the cart.
  /// - Returns: The seed's confirmation and the cart's new size, or
  ///   `ProductDetailError.addToCartFailed`, or `ProductDetailError.cartUnavailable(reason:)`
  ///   when the cart cannot be kept.
  public func addToCart(
    product: Product,
    user: User
  ) -> AsyncResult<ProductDetailContext, CartResponse, ProductDetailError> {
    let cart = self.cart
    return Self.wait(latencies.addToCart).flatMap { _ in
      AsyncResult(operation: { context in
        guard await context.random.int(in: 1..<10) >= 5 else {
          return .failure(.addToCartFailed)
        }
        let item = CartItem(productID: product.id, title: product.title, user: user.name)
        do throws(DataFileError) {
          let count = try await cart.add(item)
          let message = CartResponse.message(adding: product, for: user)
          return .success(CartResponse(message: message, itemCount: count))
        } catch {
          return .failure(.cartUnavailable(reason: error.description))
        }
      })
    }
  }

  /// Waits `latency` on the context's clock; no wait at all when it is zero.
  private static func wait(
    _ latency: Duration
  ) -> AsyncResult<ProductDetailContext, Void, ProductDetailError> {
    guard latency > .zero else { return .pure(()) }
    return AsyncResult<ProductDetailContext, ProductDetailContext, ProductDetailError>.ask()
      .flatMap { context in .pure(()).delayed(by: latency, on: context.clock) }
  }
}

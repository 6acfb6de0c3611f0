public import ProductDetailFeature

/// Every dependency of the shop's effects, its children's included, injected when the system
/// starts.
///
/// The product page of a product gets its own ``ProductDetailContext`` from it, with
/// ``productDetail(for:)``: the same clock and random source, and the page's API for that
/// product.
public struct ShopContext: Sendable {
  /// The backend.
  public var api: any ShopAPI
  /// The clock the API waits its latencies on.
  public var clock: any Clock<Duration>
  /// The random source that decides whether an add to cart fails.
  public var random: RandomSource

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - api: The backend.
  ///   - clock: The clock the API waits its latencies on.
  ///   - random: The random source that decides whether an add to cart fails.
  public init(api: any ShopAPI, clock: any Clock<Duration>, random: RandomSource) {
    self.api = api
    self.clock = clock
    self.random = random
  }

  /// The context of the product detail page of `product`.
  ///
  /// - Parameter product: The product the page shows.
  /// - Returns: The page's API for `product`, with this context's clock and random source.
  public func productDetail(for product: Product) -> ProductDetailContext {
    ProductDetailContext(api: api.productAPI(for: product), clock: clock, random: random)
  }
}

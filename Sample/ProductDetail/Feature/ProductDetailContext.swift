/// Every dependency of the product detail page's effects, injected when the system starts.
///
/// The reducer never sees it; only the effects do. The app passes the live API, a clock that
/// `--speed` accelerates and a random source that `--seed` fixes; tests pass their own API, a
/// manual clock and a seeded source.
///
/// ```swift
/// let context = ProductDetailContext(
///   api: LiveProductAPI(product: product, cart: cartFile),
///   clock: ContinuousClock(),
///   random: RandomSource()
/// )
/// ```
public struct ProductDetailContext: Sendable {
  /// The backend.
  public var api: any ProductAPI
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
  public init(api: any ProductAPI, clock: any Clock<Duration>, random: RandomSource) {
    self.api = api
    self.clock = clock
    self.random = random
  }
}

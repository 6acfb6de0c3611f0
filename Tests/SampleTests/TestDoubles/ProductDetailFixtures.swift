import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive

extension Product {
  /// The seed's product.
  static let yeezy = Product(
    id: "yeezy-triple-white",
    title: "Yeezy Triple White",
    description: "A test description.",
    priceInCents: 22_000,
    currency: "EUR"
  )
}

extension ProductDetailContext {
  /// The live API's logic (latencies, the 4-in-9 failure) with a manual clock, a seeded random
  /// source and a cart in memory: no real time, no file.
  static func test(
    clock: ManualClock = ManualClock(),
    seed: UInt64 = 1,
    cart: InMemoryCart = InMemoryCart(),
    latencies: LiveProductAPI.Latencies = .seed
  ) -> ProductDetailContext {
    ProductDetailContext(
      api: LiveProductAPI(product: .yeezy, cart: cart, latencies: latencies),
      clock: clock,
      random: RandomSource(seed: seed)
    )
  }
}

extension LiveProductAPI.Latencies {
  /// No waiting at all.
  static let none = Self(product: .zero, cachedProduct: .zero, user: .zero, addToCart: .zero)
}

/// The system under test of the product detail page.
typealias ProductDetailTestSystem = TestSystem<
  ProductDetailState, ProductDetailEvent, ProductDetailError, ProductDetailContext
>

extension ProductDetailTestSystem {
  /// The page's harness, with the feature's reducer and feedback.
  convenience init(
    from state: ProductDetailState = ProductDetailState(),
    context: ProductDetailContext,
    clock: ManualClock
  ) {
    self.init(
      initialState: state,
      context: context,
      reduce: ProductDetail.reduce,
      feedback: ProductDetail.feedback,
      clock: clock
    )
  }
}

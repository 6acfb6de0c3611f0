import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive
import ShopFeature
import ShopLive

extension Product {
  /// A second product, found by `wh` with the seed's.
  static let court = Product(
    id: "court-classic-white",
    title: "Court Classic White",
    description: "A test description.",
    priceInCents: 9_000,
    currency: "EUR"
  )

  /// A third product, which `wh` does not find.
  static let trail = Product(
    id: "trail-runner-moss",
    title: "Trail Runner Moss",
    description: "A test description.",
    priceInCents: 14_000,
    currency: "EUR"
  )
}

extension Catalog {
  /// The shop's test catalog: the seed's product and two more.
  static let shop = Catalog(products: [.yeezy, .court, .trail])
}

extension ProductSummary {
  /// The summary the search makes of `product`.
  init(_ product: Product) {
    self.init(id: product.id, title: product.title)
  }
}

extension ShopContext {
  /// The live shop API's logic (latencies, search, the product page's 4-in-9 failure) over the
  /// test catalog, with a manual clock, a seeded random source and a cart in memory.
  static func test(
    clock: ManualClock,
    seed: UInt64 = 1,
    cart: InMemoryCart = InMemoryCart()
  ) -> ShopContext {
    ShopContext(
      api: LiveShopAPI(catalog: .shop, cart: cart),
      clock: clock,
      random: RandomSource(seed: seed)
    )
  }
}

extension ShopState {
  /// The list of `products` for the empty query, every row loaded, the first highlighted.
  static func listing(_ products: [Product]) -> ShopState {
    ShopState(
      search: SearchState(results: products.map(ProductSummary.init), answeredQuery: ""),
      rows: products.map { ProductRowState(summary: ProductSummary($0), status: .loaded($0)) },
      highlightedID: products.first?.id
    )
  }
}

/// The system under test of the shop.
typealias ShopTestSystem = TestSystem<ShopState, ShopEvent, ShopError, ShopContext>

extension ShopTestSystem {
  /// The shop's harness, with the composed feature.
  convenience init(from state: ShopState = ShopState(), context: ShopContext, clock: ManualClock) {
    self.init(initialState: state, context: context, feature: Shop.feature, clock: clock)
  }
}

import ArchitectureKit
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

  /// The list of `products`, with the page of `product` pushed over it, loaded and idle, as
  /// the stack's first screen (`#1`).
  static func onPage(of product: Product, over products: [Product]) -> ShopState {
    var state = listing(products)
    state.highlightedID = product.id
    state.path = [.product(.loaded(product))]
    return state
  }
}

extension ProductPageState {
  /// The page of `product` once its product has loaded, with nothing pending.
  static func loaded(_ product: Product) -> ProductPageState {
    ProductPageState(
      product: product,
      detail: ProductDetailState(screen: .productLoaded(product), requestCount: 1))
  }
}

extension ShopPath.State {
  /// The product page, to change in place in an expected state:
  /// `$0.path[id: 1]?.page.detail.request = nil`.
  ///
  /// A test's own case accessor: the library matches cases without one, but a test that
  /// changes a screen's state in place needs a writable path to it.
  var page: ProductPageState {
    get {
      switch self {
      case .product(let page): page
      }
    }
    set { self = .product(newValue) }
  }
}

/// The scope of the product detail feature of the page `id` on the shop's stack.
func pageScope(_ id: StackID) -> String {
  "path[\(id)].product.detail"
}

/// The system under test of the shop.
typealias ShopTestSystem = TestSystem<ShopState, ShopEvent, ShopError, ShopContext>

extension ShopTestSystem {
  /// The shop's harness, with the composed feature.
  convenience init(from state: ShopState = ShopState(), context: ShopContext, clock: ManualClock) {
    self.init(initialState: state, context: context, feature: Shop.feature, clock: clock)
  }

  /// Runs the page `id`'s load numbered `request` for its 3 s on `clock`, and receives
  /// `product`, which the page then shows.
  func load(
    _ product: Product,
    onPage id: StackID,
    request: Int = 1,
    clock: ManualClock,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    run(
      ProductDetailRequest.loadProduct(id: request), in: pageScope(id), fileID: fileID,
      filePath: filePath, line: line, column: column)
    await clock.advance(by: .seconds(3))
    await receive(
      .path(id, .product(.detail(.productLoaded(product)))), fileID: fileID, filePath: filePath,
      line: line, column: column
    ) {
      $0.path[id: id]?.page.detail.screen = .productLoaded(product)
      $0.path[id: id]?.page.detail.request = nil
    }
  }

  /// Presses `a` on the page `id`, loaded and idle: its add to cart starts, as the page's
  /// second request.
  func startAddingToCart(
    onPage id: StackID,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    send(
      .path(id, .product(.detail(.addToCart))), fileID: fileID, filePath: filePath, line: line,
      column: column
    ) {
      $0.path[id: id]?.page.detail.request = .addToCart(id: 2)
      $0.path[id: id]?.page.detail.requestCount = 2
    }
    expectStarted(
      ProductDetailRequest.addToCart(id: 2), in: pageScope(id), fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}

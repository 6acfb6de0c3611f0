public import ArchitectureKit
public import ProductDetailFeature
public import ProductDetailLive
public import ShopFeature

/// The shop's backend as the app runs it: the product detail sample's catalog, searched and
/// served with latencies, the product detail sample's live API for each product's page, and
/// the cart they add to.
///
/// The search matches every word of the query in a product's title, ignoring case. The pages
/// share one cart and one user, so the badge counts what every page added.
public struct LiveShopAPI: ShopAPI {
  /// How long each call takes.
  public struct Latencies: Hashable, Sendable {
    /// Answering a search.
    public var search: Duration
    /// Loading one product for its row.
    public var product: Duration
    /// The product page's calls.
    public var page: LiveProductAPI.Latencies

    /// Creates latencies.
    ///
    /// - Parameters:
    ///   - search: Answering a search.
    ///   - product: Loading one product for its row.
    ///   - page: The product page's calls.
    public init(search: Duration, product: Duration, page: LiveProductAPI.Latencies) {
      self.search = search
      self.product = product
      self.page = page
    }

    /// The shop's latencies: 0.3 s to search, 0.5 s to load a row's product, and the seed's
    /// latencies on the product page (3 s for the product, 1 s for the user).
    public static let seed = Latencies(
      search: .milliseconds(300),
      product: .milliseconds(500),
      page: .seed
    )
  }

  /// The products for sale.
  public let catalog: Catalog
  /// The signed-in user.
  public let user: User
  /// Where the cart is kept.
  public let cart: any CartStorage
  /// How long each call takes.
  public let latencies: Latencies

  /// Creates the API.
  ///
  /// - Parameters:
  ///   - catalog: The products for sale.
  ///   - user: The signed-in user; the seed's is `Richi`.
  ///   - cart: Where the cart is kept.
  ///   - latencies: How long each call takes.
  public init(
    catalog: Catalog,
    user: User = User(name: "Richi"),
    cart: any CartStorage,
    latencies: Latencies = .seed
  ) {
    self.catalog = catalog
    self.user = user
    self.cart = cart
    self.latencies = latencies
  }

  /// Finds the products whose title holds every word of `query`, ignoring case.
  ///
  /// - Parameter query: What the user typed; empty finds the whole catalog.
  /// - Returns: The matching products, in catalog order.
  public func search(_ query: String) -> AsyncResult<ShopContext, [ProductSummary], Never> {
    let found = Self.matches(of: query, in: catalog)
    return Self.wait(latencies.search).map { found }
  }

  /// Loads the product `id` from the catalog.
  ///
  /// - Parameter id: The product's identifier.
  /// - Returns: The product, or `nil` when the catalog does not have it.
  public func product(id: String) -> AsyncResult<ShopContext, Product?, Never> {
    let product = catalog.products.first { $0.id == id }
    return Self.wait(latencies.product).map { product }
  }

  /// The product detail sample's live API for `product`, with this API's user and cart.
  ///
  /// - Parameter product: The product of the page.
  /// - Returns: The page's API.
  public func productAPI(for product: Product) -> any ProductAPI {
    LiveProductAPI(product: product, user: user, cart: cart, latencies: latencies.page)
  }

  /// Empties the cart, at once.
  ///
  /// - Returns: Nothing once the cart is empty, or
  ///   `ProductDetailError.cartUnavailable(reason:)` when the cart cannot be kept.
  public func emptyCart() -> AsyncResult<ShopContext, Void, ProductDetailError> {
    let cart = self.cart
    return AsyncResult(operation: { _ in
      do throws(DataFileError) {
        try await cart.removeAll()
        return .success(())
      } catch {
        return .failure(.cartUnavailable(reason: error.description))
      }
    })
  }

  /// The products of `catalog` whose title holds every word of `query`, ignoring case.
  ///
  /// - Parameters:
  ///   - query: What the user typed; empty matches every product.
  ///   - catalog: The products to search.
  /// - Returns: The matches, in catalog order.
  public static func matches(of query: String, in catalog: Catalog) -> [ProductSummary] {
    let words = query.lowercased().split(separator: " ")
    return catalog.products
      .filter { product in
        let title = product.title.lowercased()
        return words.allSatisfy { title.contains($0) }
      }
      .map { ProductSummary(id: $0.id, title: $0.title) }
  }

  /// Waits `latency` on the context's clock; no wait at all when it is zero.
  private static func wait(_ latency: Duration) -> AsyncResult<ShopContext, Void, Never> {
    guard latency > .zero else { return .pure(()) }
    return AsyncResult<ShopContext, ShopContext, Never>.ask()
      .flatMap { context in .pure(()).delayed(by: latency, on: context.clock) }
  }
}

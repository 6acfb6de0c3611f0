public import ProductDetailFeature

/// The product detail page of one product of the shop: the product detail sample's page state,
/// unchanged, and the product it is about.
///
/// The page's own state does not say which product it shows: the product detail sample shows
/// one, chosen by its context. The shop keeps the product beside it, so the page's effects can
/// run with that product's API.
public struct ProductPageState: Hashable, Sendable {
  /// The product the page is about.
  public var product: Product
  /// The product detail page, as the product detail sample keeps it.
  public var page: ProductDetailState

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - product: The product the page is about.
  ///   - page: The page's state.
  public init(product: Product, page: ProductDetailState = ProductDetailState()) {
    self.product = product
    self.page = page
  }

  /// The page of `product` as it opens: loading its product, as the product detail sample's
  /// page does when it appears.
  ///
  /// - Parameter product: The product to show.
  /// - Returns: A page waiting for ``ProductDetailRequest/loadProduct(id:)``.
  public static func opening(_ product: Product) -> ProductPageState {
    var page = ProductDetailState()
    ProductDetail.reduce(&page, .loadProduct)
    return ProductPageState(product: product, page: page)
  }
}

/// A request of the product page, with the product whose API performs it.
///
/// Two pages make different requests even when their page requests are equal, so opening
/// another product cancels the work of the page it replaces.
public struct ProductPageRequest: Hashable, Sendable, CustomStringConvertible {
  /// The product the page is about.
  public var product: Product
  /// The page's request.
  public var request: ProductDetailRequest

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - product: The product the page is about.
  ///   - request: The page's request.
  public init(product: Product, request: ProductDetailRequest) {
    self.product = product
    self.request = request
  }

  /// The page's request and the product: `loadProduct(id: 1) of yeezy-triple-white`.
  public var description: String {
    "\(request) of \(product.id)"
  }
}

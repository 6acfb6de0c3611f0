public import ProductDetailFeature

/// A product detail page on the shop's stack: the product detail sample's page state,
/// unchanged, and the product it is about.
///
/// The page's own state does not say which product it shows: the product detail sample shows
/// one, chosen by its context. The shop keeps the product beside it, for the title bar and for
/// the page's context, made from it when the page is pushed.
public struct ProductPageState: Hashable, Sendable, Codable {
  /// The product the page is about.
  public var product: Product
  /// The product detail page, as the product detail sample keeps it.
  public var detail: ProductDetailState

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - product: The product the page is about.
  ///   - detail: The page's state.
  public init(product: Product, detail: ProductDetailState = ProductDetailState()) {
    self.product = product
    self.detail = detail
  }

  /// The page of `product` as it opens: loading its product, as the product detail sample's
  /// page does when it appears.
  ///
  /// - Parameter product: The product to show.
  /// - Returns: A page waiting for ``ProductDetailRequest/loadProduct(id:)``.
  public static func opening(_ product: Product) -> ProductPageState {
    var detail = ProductDetailState()
    ProductDetail.reduce(&detail, .loadProduct)
    return ProductPageState(product: product, detail: detail)
  }
}

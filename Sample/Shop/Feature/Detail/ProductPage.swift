public import ArchitectureKit
public import ProductDetailFeature

/// The product detail sample's page, bound to one product of the shop.
///
/// The page's reducer and its effects are the product detail sample's, unchanged:
/// ``ProductDetail/reduce(_:_:)`` and ``ProductDetail/effects(for:)``. Only the feedback that
/// joins them is written again here, because a composed child's context is projected from the
/// parent's context alone: the page's API must serve *this* product, which only the page's
/// state knows. The request therefore carries the product, and the effect runs with
/// ``ShopContext/productDetail(for:)``.
public enum ProductPage: Sendable {
  /// The page: the product detail sample's reducer, and its one feedback with the page's
  /// product in the request.
  public static var feature:
    Feature<ProductPageState, ProductDetailEvent, ProductDetailError, ShopContext>
  {
    Feature(
      reduce: { state, event in ProductDetail.reduce(&state.page, event) },
      feedback: [
        .react(
          request: { state in
            state.page.request.map { ProductPageRequest(product: state.product, request: $0) }
          },
          effects: { request in
            ProductDetail.effects(for: request.request)
              .local { $0.productDetail(for: request.product) }
          })
      ]
    )
  }
}

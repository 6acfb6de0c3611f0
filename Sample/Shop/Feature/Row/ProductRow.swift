public import ArchitectureKit
import ProductDetailFeature

/// One row of the shop's list as a feature: the shop runs one per listed product with
/// `forEach`, so each row's load is its own and a row that leaves the list has exactly its load
/// cancelled.
public enum ProductRow: Sendable {
  /// The row's reducer, in mutating form.
  ///
  /// - Parameters:
  ///   - state: The row, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout ProductRowState, _ event: ProductRowEvent) {
    switch event {
    case .loaded(let product?): state.status = .loaded(product)
    case .loaded(nil): state.status = .unavailable
    }
  }

  /// The row: its reducer and the feedback that loads its product.
  public static var feature: Feature<ProductRowState, ProductRowEvent, Never, ShopContext> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(
          request: \.request,
          effects: { request in
            switch request {
            case .loadProduct(let id):
              AsyncResult<ShopContext, ShopContext, Never>.ask()
                .flatMap { $0.api.product(id: id) }
                .map { ProductRowEvent.loaded($0) }
            }
          })
      ]
    )
  }
}

public import ProductDetailFeature

/// One row of the shop's list: a product the search found, loaded on its own.
///
/// The search answers with names only; each row then loads its product (its price) with a
/// request of its own, which lives and dies with the row.
public struct ProductRowState: Identifiable, Hashable, Sendable, Codable {
  /// Where the row's product stands.
  public enum Status: Hashable, Sendable, Codable {
    /// The product is loading.
    case loading
    /// The product arrived.
    case loaded(Product)
    /// The catalog no longer has the product.
    case unavailable
  }

  /// The product as the search found it.
  public var summary: ProductSummary
  /// Where the row's product stands.
  public var status: Status

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - summary: The product as the search found it.
  ///   - status: Where the row's product stands; a new row loads it.
  public init(summary: ProductSummary, status: Status = .loading) {
    self.summary = summary
    self.status = status
  }

  /// The product's identifier, which identifies the row.
  public var id: String {
    summary.id
  }

  /// The row's product, once loaded.
  public var product: Product? {
    if case .loaded(let product) = status { product } else { nil }
  }

  /// The load the feedback runs while the product is loading.
  public var request: ProductRowRequest? {
    status == .loading ? .loadProduct(id: summary.id) : nil
  }
}

/// What can happen to a row: its product's answer.
public enum ProductRowEvent: Hashable, Sendable, Codable {
  /// The product arrived, or `nil` when the catalog no longer has it.
  case loaded(Product?)
}

/// Work a row waits for.
public enum ProductRowRequest: Hashable, Sendable {
  /// Load the product `id`.
  case loadProduct(id: String)
}

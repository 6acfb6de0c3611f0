/// A product as the search finds it: what a row shows before the product itself is loaded.
public struct ProductSummary: Hashable, Sendable, Codable {
  /// The product's identifier in the catalog.
  public var id: String
  /// The product's name.
  public var title: String

  /// Creates a summary.
  ///
  /// - Parameters:
  ///   - id: The product's identifier in the catalog.
  ///   - title: The product's name.
  public init(id: String, title: String) {
    self.id = id
    self.title = title
  }
}

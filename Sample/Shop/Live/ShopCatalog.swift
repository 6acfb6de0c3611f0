import ProductDetailFeature
public import ProductDetailLive

/// The catalog the shop sells: the product detail sample's catalog file, checked for what a
/// list needs too.
public enum ShopCatalog: Sendable {
  /// Reads and checks the catalog at `path`, as the product detail sample does, and checks that
  /// no two products share an identifier, which identifies their rows.
  ///
  /// - Parameter path: The catalog file.
  /// - Returns: A catalog with at least one product and unique identifiers.
  /// - Throws: A ``DataFileError`` naming the file when it is missing, unreadable, not a
  ///   catalog, holds no product, or lists an identifier twice.
  public static func load(from path: String) throws(DataFileError) -> Catalog {
    let catalog = try Catalog.load(from: path)
    var seen: Set<String> = []
    for product in catalog.products where !seen.insert(product.id).inserted {
      throw DataFileError(
        role: "catalog",
        path: path,
        problem: .corrupt(reason: "the id \"\(product.id)\" is listed twice")
      )
    }
    return catalog
  }
}

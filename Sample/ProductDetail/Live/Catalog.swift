import Foundation
public import ProductDetailFeature

/// The products the live API sells, read from a JSON file.
///
/// The sample ships one as a package resource (`Resources/catalog.json`); `pdp --catalog PATH`
/// reads another:
///
/// ```json
/// { "products": [ { "id": "…", "title": "…", "description": "…",
///                   "priceInCents": 22000, "currency": "EUR" } ] }
/// ```
public struct Catalog: Codable, Hashable, Sendable {
  /// The products; the page shows the first.
  public var products: [Product]

  /// Creates a catalog.
  ///
  /// - Parameter products: The products; the page shows the first.
  public init(products: [Product]) {
    self.products = products
  }

  /// The product the page shows: the catalog's first.
  public var featuredProduct: Product? {
    products.first
  }

  /// The path of the catalog shipped with the sample, or `nil` if the resource is missing.
  public static var bundledPath: String? {
    Bundle.module.path(forResource: "catalog", ofType: "json")
  }

  /// Reads and checks the catalog at `path`.
  ///
  /// - Parameter path: The catalog file.
  /// - Returns: A catalog with at least one product.
  /// - Throws: A ``DataFileError`` naming the file when it is missing, unreadable, not a
  ///   catalog, or holds no product.
  public static func load(from path: String) throws(DataFileError) -> Catalog {
    let data = try DataFile.read(path, role: "catalog")
    let catalog = try JSONFile.decode(Catalog.self, from: data, path: path, role: "catalog")
    guard !catalog.products.isEmpty else {
      throw DataFileError(
        role: "catalog",
        path: path,
        problem: .corrupt(reason: "it lists no products")
      )
    }
    return catalog
  }
}

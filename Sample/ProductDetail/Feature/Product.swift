/// A product of the catalog, as the product detail page shows it.
public struct Product: Codable, Hashable, Sendable {
  /// The product's identifier in the catalog.
  public var id: String
  /// The name shown as the page's title.
  public var title: String
  /// A paragraph about the product, wrapped to the page's width.
  public var description: String
  /// The price in hundredths of the currency unit, so amounts stay exact.
  public var priceInCents: Int
  /// The ISO 4217 code of the price's currency, such as `EUR`.
  public var currency: String

  /// Creates a product.
  ///
  /// - Parameters:
  ///   - id: The product's identifier in the catalog.
  ///   - title: The name shown as the page's title.
  ///   - description: A paragraph about the product.
  ///   - priceInCents: The price in hundredths of the currency unit.
  ///   - currency: The ISO 4217 code of the price's currency.
  public init(id: String, title: String, description: String, priceInCents: Int, currency: String) {
    self.id = id
    self.title = title
    self.description = description
    self.priceInCents = priceInCents
    self.currency = currency
  }

  /// The price as people read it: `220.00 EUR`.
  public var formattedPrice: String {
    let cents = priceInCents.magnitude % 100
    return "\(priceInCents / 100).\(cents < 10 ? "0" : "")\(cents) \(currency)"
  }
}

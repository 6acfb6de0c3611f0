public import ProductDetailFeature

/// What can happen in the shop: its children's events, embedded, and the shop's own.
public enum ShopEvent: Hashable, Sendable {
  /// An event of the search.
  case search(SearchEvent)
  /// An event of the row of the product `id`.
  case row(id: String, ProductRowEvent)
  /// An event of the open product page.
  case detail(ProductDetailEvent)
  /// The user moved the highlight up; on a product page, to the previous product's page.
  case moveUp
  /// The user moved the highlight down; on a product page, to the next product's page.
  case moveDown
  /// The user opened the page of the product `id`.
  case open(id: String)
  /// The user left the product page for the list.
  case close
  /// The user started editing the query.
  case startSearch
  /// The user stopped editing the query, keeping it.
  case endSearch
}

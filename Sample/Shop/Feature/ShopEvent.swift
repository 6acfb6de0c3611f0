public import ArchitectureKit

/// What can happen in the shop: its children's events, embedded, and the shop's own.
///
/// It is `Codable`, so a journal of the shop (`shop --record`) holds the events themselves, and
/// a test replays them.
public enum ShopEvent: Hashable, Sendable, Codable {
  /// An event of the search.
  case search(SearchEvent)
  /// An event of the row of the product `id`.
  case row(id: String, ProductRowEvent)
  /// An event of the screen `id` of the stack.
  case path(StackID, ShopPath.Event)
  /// An event of the presented sheet.
  case destination(ShopDestination.Event)
  /// The user moved the highlight up; on a page, to the previous product's page, pushed over
  /// it.
  case moveUp
  /// The user moved the highlight down; on a page, to the next product's page, pushed over it.
  case moveDown
  /// The user opened the page of the product `id`.
  case open(id: String)
  /// The user opened the cart.
  case openCart
  /// The user started editing the query.
  case startSearch
  /// The user stopped editing the query, keeping it.
  case endSearch
}

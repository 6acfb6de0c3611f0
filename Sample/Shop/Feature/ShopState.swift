/// The state of the shop: its three children (the search, one row per listed product, the
/// open product page) and what the shop keeps itself (the highlighted row, the cart's badge,
/// where the keys go).
///
/// ```swift
/// let state = ShopState()  // the whole catalog loading, no row yet, an empty cart
/// ```
public struct ShopState: Hashable, Sendable {
  /// The search over the catalog.
  public var search: SearchState
  /// The listed products, one row each, in the search's order.
  public var rows: [ProductRowState]
  /// The identifier of the highlighted row; `nil` while the list is empty.
  public var highlightedID: String?
  /// The open product page; `nil` while the list shows.
  public var detail: ProductPageState?
  /// How many items the cart holds: the badge.
  public var cartCount: Int
  /// Whether the keys edit the query rather than move in the list.
  public var isEditingQuery: Bool

  /// Creates a state; the default waits for the whole catalog.
  ///
  /// - Parameters:
  ///   - search: The search over the catalog.
  ///   - rows: The listed products.
  ///   - highlightedID: The identifier of the highlighted row.
  ///   - detail: The open product page.
  ///   - cartCount: How many items the cart holds.
  ///   - isEditingQuery: Whether the keys edit the query.
  public init(
    search: SearchState = SearchState(),
    rows: [ProductRowState] = [],
    highlightedID: String? = nil,
    detail: ProductPageState? = nil,
    cartCount: Int = 0,
    isEditingQuery: Bool = false
  ) {
    self.search = search
    self.rows = rows
    self.highlightedID = highlightedID
    self.detail = detail
    self.cartCount = cartCount
    self.isEditingQuery = isEditingQuery
  }

  /// The highlighted row, if any.
  public var highlightedRow: ProductRowState? {
    rows.first { $0.id == highlightedID }
  }
}

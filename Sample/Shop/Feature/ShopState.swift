public import ArchitectureKit
public import ProductDetailFeature

/// The state of the shop: its children (the search, one row per listed product, the product
/// pages pushed over the list, the cart sheet) and what the shop keeps itself (the highlighted
/// row, the cart's contents, where the keys go).
///
/// It is `Codable`, its children's states and its stack of pages included, so a journal of the
/// shop (`shop --record`) keeps every state and replays in a test.
///
/// ```swift
/// let state = ShopState()  // the whole catalog loading, no row yet, no page, an empty cart
/// ```
public struct ShopState: Hashable, Sendable, Codable {
  /// The search over the catalog.
  public var search: SearchState
  /// The listed products, one row each, in the search's order.
  public var rows: [ProductRowState]
  /// The identifier of the highlighted row; `nil` while the list is empty.
  ///
  /// On a page, it is the product of the page on top.
  public var highlightedID: String?
  /// The pages pushed over the list, the top one showing; empty while the list shows.
  public var path: Stack<ShopPath.State>
  /// The sheet over the list or the pages, if one is open: the cart.
  @Presented public var destination: ShopDestination.State?
  /// How many items the cart holds, as the last answer of the cart said: the badge.
  public var cartCount: Int
  /// The products added to the cart since the shop started, oldest first; the cart may hold
  /// items added before, which only ``cartCount`` counts.
  public var addedProducts: [Product]
  /// Whether the keys edit the query rather than move in the list.
  public var isEditingQuery: Bool

  /// Creates a state; the default waits for the whole catalog.
  ///
  /// - Parameters:
  ///   - search: The search over the catalog.
  ///   - rows: The listed products.
  ///   - highlightedID: The identifier of the highlighted row.
  ///   - path: The pages pushed over the list.
  ///   - destination: The sheet over the list or the pages.
  ///   - cartCount: How many items the cart holds.
  ///   - addedProducts: The products added to the cart since the shop started.
  ///   - isEditingQuery: Whether the keys edit the query.
  public init(
    search: SearchState = SearchState(),
    rows: [ProductRowState] = [],
    highlightedID: String? = nil,
    path: Stack<ShopPath.State> = Stack(),
    destination: ShopDestination.State? = nil,
    cartCount: Int = 0,
    addedProducts: [Product] = [],
    isEditingQuery: Bool = false
  ) {
    self.search = search
    self.rows = rows
    self.highlightedID = highlightedID
    self.path = path
    self.destination = destination
    self.cartCount = cartCount
    self.addedProducts = addedProducts
    self.isEditingQuery = isEditingQuery
  }

  /// The highlighted row, if any.
  public var highlightedRow: ProductRowState? {
    rows.first { $0.id == highlightedID }
  }

  /// The page on top of the stack, the one that shows, if any.
  public var topPage: ProductPageState? {
    guard case .product(let page)? = path.last else { return nil }
    return page
  }

  /// The cart sheet, while it is open.
  public var cartSheet: CartSheetState? {
    guard case .cart(let sheet)? = destination else { return nil }
    return sheet
  }
}

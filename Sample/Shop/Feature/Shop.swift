public import ArchitectureKit
import ProductDetailFeature

/// The shop's system.
public typealias ShopSystem = System<ShopState, ShopEvent, ShopError, ShopContext>

/// The shop: a list of the catalog's products, a search over it, the product detail sample's
/// page for the chosen product, and a cart badge — one feature made of four.
///
/// - ``Search`` runs on ``ShopState/search`` with `scope`;
/// - ``ProductRow`` runs once per listed product on ``ShopState/rows`` with `forEach`: each
///   row loads its own product, and a row the search drops has exactly its load cancelled;
/// - ``ProductPage``, the product detail sample's page, runs on ``ShopState/detail`` with
///   `ifLet`: closing the page, or opening another product, cancels its work.
///
/// The shop's own reducer runs after the child that handled an event, so it reacts to what its
/// children did: it lists the search's new results, and it updates the cart badge when the
/// page has added to the cart (the delegate pattern).
///
/// ```swift
/// let shop = Shop.start(context: context)
/// shop.addUIBinding { render($0) }
/// shop.send(.open(id: "yeezy-triple-white"))
/// ```
public enum Shop: Sendable {
  /// The shop's own reducer, in mutating form; its children's reducers run before it.
  ///
  /// - Parameters:
  ///   - state: The shop's state, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout ShopState, _ event: ShopEvent) {
    switch event {
    case .search(.found):
      list(state.search.results, in: &state)
    case .search(.cleared):
      state.isEditingQuery = false
    case .detail(.addedToCart(_, let response)):
      state.cartCount = response.itemCount
    case .moveUp:
      moveHighlight(by: -1, in: &state)
    case .moveDown:
      moveHighlight(by: 1, in: &state)
    case .open(let id):
      guard let product = state.rows.first(where: { $0.id == id })?.product else { return }
      state.highlightedID = id
      state.isEditingQuery = false
      if state.detail?.product != product { state.detail = .opening(product) }
    case .close:
      state.detail = nil
    case .startSearch:
      state.isEditingQuery = state.detail == nil
    case .endSearch:
      state.isEditingQuery = false
    case .search, .row, .detail:
      break
    }
  }

  /// The shop and its children, composed.
  public static var feature: Feature<ShopState, ShopEvent, ShopError, ShopContext> {
    Feature(reduce: reduce)
      .scope(
        Search.feature, state: \.search, event: ShopEvent.search,
        extract: { if case .search(let event) = $0 { event } else { nil } },
        context: { $0 }
      )
      .forEach(
        ProductRow.feature, elements: \.rows, event: ShopEvent.row,
        extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
        context: { $0 }
      )
      .ifLet(
        ProductPage.feature, state: \.detail, event: ShopEvent.detail,
        extract: { if case .detail(let event) = $0 { event } else { nil } },
        context: { $0 }, error: ShopError.detail)
  }

  /// Starts the shop's system with `context`; the whole catalog starts loading at once.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - context: The dependencies of the effects.
  ///   - observers: Observers that see everything from the start.
  /// - Returns: The running system.
  @MainActor
  public static func start(
    from initialState: ShopState = ShopState(),
    context: ShopContext,
    observers: [(SystemActivity<ShopState, ShopEvent, ShopError>) -> Void] = []
  ) -> ShopSystem {
    ShopSystem(
      initialState: initialState, context: context, feature: feature, observers: observers)
  }

  /// Lists `results`, keeping the rows of products still found (and their loads), and the
  /// highlight when its product is still there.
  private static func list(_ results: [ProductSummary], in state: inout ShopState) {
    let previous = Dictionary(state.rows.map { ($0.id, $0) }) { first, _ in first }
    // Identifiers are unique in the list, as forEach requires, even if an answer repeats one.
    var listed: Set<String> = []
    state.rows = results.compactMap { summary in
      guard listed.insert(summary.id).inserted else { return nil }
      return previous[summary.id] ?? ProductRowState(summary: summary)
    }
    if state.highlightedRow == nil { state.highlightedID = state.rows.first?.id }
  }

  /// Moves the highlight; on a product page, the page follows it to the newly highlighted
  /// product, or closes when that product has not loaded yet.
  private static func moveHighlight(by offset: Int, in state: inout ShopState) {
    guard let index = state.rows.firstIndex(where: { $0.id == state.highlightedID }) else {
      state.highlightedID = state.rows.first?.id
      return
    }
    let row = state.rows[min(max(index + offset, 0), state.rows.count - 1)]
    state.highlightedID = row.id
    guard state.detail != nil else { return }
    if let product = row.product {
      if state.detail?.product != product { state.detail = .opening(product) }
    } else {
      state.detail = nil
    }
  }
}

public import ArchitectureKit
import ProductDetailFeature

/// The shop's system.
public typealias ShopSystem = System<ShopState, ShopEvent, ShopError, ShopContext>

/// The shop: a list of the catalog's products, a search over it, product pages pushed over the
/// list, and the cart in a sheet — one feature made of five.
///
/// - ``Search`` runs on ``ShopState/search`` with `scope`;
/// - ``ProductRow`` runs once per listed product on ``ShopState/rows`` with `forEach`: each
///   row loads its own product, and a row the search drops has exactly its load cancelled;
/// - ``ShopPath``'s screens run once per page on the stack ``ShopState/path`` with
///   `forEach(_:stack:…)`: opening a product pushes its page, with a context made from that
///   product; a page that closes pops itself, which cancels its work; a page under another
///   keeps its work going;
/// - ``ShopDestination`` runs the cart sheet in ``ShopState/destination`` with `presents`:
///   opening the cart presents it, and the sheet asks for a confirmation before it empties the
///   cart.
///
/// The shop's own reducer runs after the child that handled an event, so it reacts to what its
/// children did: it lists the search's new results, it counts what a page added to the cart,
/// wherever the page is on the stack, and it forgets the cart's items once the sheet has
/// emptied it (the delegate pattern).
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
    case .path(_, .product(.detail(.addedToCart(let product, let response)))):
      state.cartCount = response.itemCount
      state.addedProducts.append(product)
    case .path(_, .product(.closeTapped)):
      // The page has popped itself; the highlight follows the page now on top, if any.
      if let page = state.topPage { state.highlightedID = page.product.id }
    case .destination(.cart(.emptied)):
      state.cartCount = 0
      state.addedProducts = []
    case .moveUp:
      moveHighlight(by: -1, in: &state)
    case .moveDown:
      moveHighlight(by: 1, in: &state)
    case .open(let id):
      guard let product = state.rows.first(where: { $0.id == id })?.product else { return }
      state.isEditingQuery = false
      push(product, in: &state)
    case .openCart:
      guard state.destination == nil else { return }
      state.isEditingQuery = false
      state.destination = .cart(CartSheetState())
    case .startSearch:
      state.isEditingQuery = state.path.isEmpty && state.destination == nil
    case .endSearch:
      state.isEditingQuery = false
    case .search, .row, .path, .destination:
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
      .forEach(
        ShopPath.feature, stack: \.path, event: ShopEvent.path,
        context: { shop, _ in shop }, error: { $0 }
      )
      .presents(
        ShopDestination.feature, state: \.$destination, event: ShopEvent.destination,
        context: { shop, _ in shop }
      )
  }

  /// Starts the shop's system with `context`; the whole catalog starts loading at once.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - context: The dependencies of the effects.
  ///   - observers: Observers that see everything from the start.
  ///   - journal: A journal that records the session from its start, the catalog's first
  ///     search included, if any (`shop --record`).
  /// - Returns: The running system.
  @MainActor
  public static func start(
    from initialState: ShopState = ShopState(),
    context: ShopContext,
    observers: [(SystemActivity<ShopState, ShopEvent, ShopError>) -> Void] = [],
    journal: Journal<ShopState, ShopEvent>? = nil
  ) -> ShopSystem {
    ShopSystem(
      initialState: initialState, context: context, feature: feature, observers: observers,
      journal: journal)
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

  /// Pushes the page of `product` and highlights its row; nothing when its page is already on
  /// top.
  private static func push(_ product: Product, in state: inout ShopState) {
    state.highlightedID = product.id
    guard state.topPage?.product != product else { return }
    state.path.append(.product(.opening(product)))
  }

  /// Moves the highlight; on a page, pushes the page of the newly highlighted product over it,
  /// so the page below keeps its work (an add to cart goes on), or does nothing while that
  /// product has not loaded.
  private static func moveHighlight(by offset: Int, in state: inout ShopState) {
    guard let index = state.rows.firstIndex(where: { $0.id == state.highlightedID }) else {
      state.highlightedID = state.rows.first?.id
      return
    }
    let row = state.rows[min(max(index + offset, 0), state.rows.count - 1)]
    guard !state.path.isEmpty else {
      state.highlightedID = row.id
      return
    }
    if let product = row.product { push(product, in: &state) }
  }
}

import ProductDetailFeature
import SampleTerminal
import ShopFeature

/// Shows the shop: a full-screen drawing at a terminal, one line per change in a script.
@MainActor
final class ShopScreen {
  private static let spinnerFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

  private let terminal: Terminal
  private var state: ShopState
  private var lastPrinted: String?
  private var hint: String?
  private var spinnerFrame = 0

  init(terminal: Terminal, state: ShopState) {
    self.terminal = terminal
    self.state = state
  }

  /// Renders a new state (the system's UI binding).
  func show(_ state: ShopState) {
    if state != self.state { hint = nil }
    self.state = state
    switch terminal.mode {
    case .interactive:
      redraw()
    case .scripted:
      // Rows that load out of sight change the state, not the line: only what the line shows
      // is printed, so a script's output does not depend on which row loaded first.
      let line = Self.line(for: state)
      guard line != lastPrinted else { return }
      lastPrinted = line
      terminal.printLine(line)
    }
  }

  /// Shows a one-line hint under the screen; the state stays as it is.
  func showHint(_ hint: String) {
    switch terminal.mode {
    case .interactive:
      self.hint = hint
      redraw()
    case .scripted:
      Terminal.printError("shop: \(hint)")
    }
  }

  /// Advances the spinners while anything loads.
  func tick() {
    let isLoading =
      state.search.isSearching || state.detail?.page.request != nil
      || state.rows.contains { $0.status == .loading }
    guard isLoading else { return }
    spinnerFrame = (spinnerFrame + 1) % Self.spinnerFrames.count
    redraw()
  }

  /// Draws the screen again, after a resize.
  func redraw() {
    let width = terminal.width
    let textWidth = max(width - 4, 20)
    let badge = "Cart: \(state.cartCount) "
    let title = state.detail.map { " Shop › \($0.product.title)" } ?? " Shop"
    let padding = String(repeating: " ", count: max(1, width - title.count - badge.count))
    var lines = [ANSI.inverse(title + padding + badge), ""]
    if let detail = state.detail {
      lines += page(detail, width: textWidth)
    } else {
      lines += list(width: textWidth)
    }
    lines.append("")
    let help = ShopCommand.Focus(state).help
    lines += help.wrapped(toWidth: textWidth).map { "  " + ANSI.dim($0) }
    if let hint {
      lines += hint.wrapped(toWidth: textWidth).map { "  " + ANSI.yellow($0) }
    }
    terminal.draw(lines)
  }

  private var spinner: String {
    String(Self.spinnerFrames[spinnerFrame])
  }

  /// The search field and the rows around the highlight.
  private func list(width: Int) -> [String] {
    let search = state.search
    var field: String
    if state.isEditingQuery {
      field = "Search: " + ANSI.bold(search.query) + "▏"
    } else if search.query.isEmpty {
      field = ANSI.dim("Press / to search")
    } else {
      field = "Search: " + search.query
    }
    if search.isSearching { field += "  " + ANSI.cyan(spinner) }
    var lines = ["  " + field, ""]
    guard !state.rows.isEmpty else {
      let empty =
        search.answeredQuery == nil
        ? ANSI.cyan("\(spinner) Loading the catalog…") : ANSI.dim("No product matches.")
      return lines + ["  " + empty]
    }
    // The rows that fit, scrolled so the highlighted one shows.
    let visible = max(terminal.height - 9, 1)
    let highlighted = state.rows.firstIndex { $0.id == state.highlightedID } ?? 0
    let start = min(max(highlighted - visible + 1, 0), max(state.rows.count - visible, 0))
    for (index, row) in state.rows.enumerated().dropFirst(start).prefix(visible) {
      let isHighlighted = index == highlighted
      // The price is right-aligned; its width is counted before it is styled.
      let (price, priceWidth) =
        switch row.status {
        case .loading: (ANSI.cyan(spinner), 1)
        case .loaded(let product): (product.formattedPrice, product.formattedPrice.count)
        case .unavailable: (ANSI.dim("unavailable"), 11)
        }
      let title = String(row.summary.title.prefix(max(width - priceWidth - 3, 4)))
      let gap = String(repeating: " ", count: max(1, width - 2 - title.count - priceWidth))
      let text = title + gap + price
      lines.append(isHighlighted ? "  " + ANSI.bold("▸ " + text) : "    " + text)
    }
    return lines
  }

  /// The product page, as the product detail sample draws it.
  private func page(_ detail: ProductPageState, width: Int) -> [String] {
    var lines: [String] = []
    let page = detail.page
    if let product = page.product {
      lines.append("  " + ANSI.bold(product.title))
      lines.append("  " + product.formattedPrice)
      lines.append("")
      lines += product.description.wrapped(toWidth: width).map { "  " + $0 }
    }
    let status: [String] =
      switch (page.screen, page.request) {
      case (_, .addToCart?):
        [ANSI.cyan("\(spinner) Adding to your cart…")]
      case (.loading, _):
        [ANSI.cyan("\(spinner) Loading \(detail.product.title)…")]
      case (.start, _):
        [ANSI.dim("Opening the page…")]
      case (.productLoaded, _):
        []
      case (.addedToCart(_, let response), _):
        ("✓ " + response.message).wrapped(toWidth: width).map(ANSI.green)
      case (.addToCartFailed(_, let error), _):
        ("✗ " + error.description).wrapped(toWidth: width).map(ANSI.red)
          + [ANSI.dim("Press a to try again.")]
      case (.error(let error), _):
        ("✗ " + error.description).wrapped(toWidth: width).map(ANSI.red)
          + [ANSI.dim("Press r to reload.")]
      }
    // A blank line between the product and the status, when there is a status.
    return lines + (status.isEmpty || lines.isEmpty ? [] : [""]) + status.map { "  " + $0 }
  }

  /// The state on one line, for scripts: the page's state when one is open, otherwise where
  /// the list comes from, its size and its highlighted row; then the cart's badge.
  static func line(for state: ShopState) -> String {
    let cart = "cart: \(state.cartCount)"
    if let detail = state.detail {
      return "detail: \(line(for: detail.page)) · \(cart)"
    }
    let search = state.search
    let source =
      search.query.isEmpty && !state.isEditingQuery ? "catalog" : "search \"\(search.query)\""
    let progress = search.isSearching ? " (searching)" : ""
    var list: String
    if state.rows.isEmpty {
      list = search.answeredQuery == nil ? "loading" : "no products"
    } else {
      list = state.rows.count == 1 ? "1 product" : "\(state.rows.count) products"
      if let row = state.highlightedRow { list += " · ▸ " + line(for: row) }
    }
    return "\(source)\(progress): \(list) · \(cart)"
  }

  private static func line(for row: ProductRowState) -> String {
    switch row.status {
    case .loading: "\(row.summary.title) (loading)"
    case .loaded(let product): "\(product.title), \(product.formattedPrice)"
    case .unavailable: "\(row.summary.title) (unavailable)"
    }
  }

  private static func line(for page: ProductDetailState) -> String {
    let line =
      switch page.screen {
      case .start: "start"
      case .loading: "loading"
      case .productLoaded(let product):
        "productLoaded: \(product.title), \(product.formattedPrice)"
      case .addedToCart(_, let response):
        "addedToCart: \(response.message)"
      case .addToCartFailed(let product, let error):
        "addToCartFailed: \(product.title), \(product.formattedPrice) · error: \(error)"
      case .error(let error): "error: \(error)"
      }
    return page.isAddingToCart ? line + " (adding to cart)" : line
  }
}

import ArchitectureKit
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
      state.search.isSearching || state.topPage?.detail.request != nil
      || state.rows.contains { $0.status == .loading } || state.cartSheet?.isEmptying == true
    guard isLoading else { return }
    spinnerFrame = (spinnerFrame + 1) % Self.spinnerFrames.count
    redraw()
  }

  /// Draws the screen again, after a resize.
  ///
  /// The keys always show: the footer (a dialog, the keys, a hint) is laid out first, and the
  /// body gets the rows left, a page's description giving way before anything else.
  func redraw() {
    let width = terminal.width
    let textWidth = max(width - 4, 20)
    let badge = "Cart: \(state.cartCount) "
    let title = " " + titleBar
    let padding = String(repeating: " ", count: max(1, width - title.count - badge.count))
    let header = [ANSI.inverse(title + padding + badge), ""]
    var footer = [""]
    if let dialog = state.cartSheet?.confirmation {
      footer += self.dialog(dialog, width: textWidth) + [""]
    }
    footer += ShopCommand.Focus(state).help.wrapped(toWidth: textWidth).map { "  " + ANSI.dim($0) }
    if let hint {
      footer += hint.wrapped(toWidth: textWidth).map { "  " + ANSI.yellow($0) }
    }
    let room = terminal.height - header.count - footer.count
    let body: [String]
    if state.cartSheet != nil {
      body = cart(width: textWidth)
    } else if let page = state.topPage {
      body = self.page(page, width: textWidth, room: room)
    } else {
      body = list(width: textWidth, room: room)
    }
    terminal.draw(header + body, footer: footer)
  }

  private var spinner: String {
    String(Self.spinnerFrames[spinnerFrame])
  }

  /// Where the user is: the shop, the page on top (after `…` when others are under it), or the
  /// cart.
  private var titleBar: String {
    if state.cartSheet != nil { return "Shop › Cart" }
    guard let page = state.topPage else { return "Shop" }
    return (state.path.count > 1 ? "Shop › … › " : "Shop › ") + page.product.title
  }

  /// The search field and the rows around the highlight, in `room` rows.
  private func list(width: Int, room: Int) -> [String] {
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
    let visible = max(room - lines.count, 1)
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

  /// The product page, as the product detail sample draws it, in `room` rows: the description
  /// is cut, with `…`, so the title, the price and the page's status fit.
  private func page(_ page: ProductPageState, width: Int, room: Int) -> [String] {
    let detail = page.detail
    let status: [String] =
      switch (detail.screen, detail.request) {
      case (_, .addToCart?):
        [ANSI.cyan("\(spinner) Adding to your cart…")]
      case (.loading, _):
        [ANSI.cyan("\(spinner) Loading \(page.product.title)…")]
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
    var lines: [String] = []
    if let product = detail.product {
      lines.append(ANSI.bold(product.title))
      lines.append(product.formattedPrice)
      // What is left once the title, the price, the status and the blank lines are counted.
      let statusRows = status.isEmpty ? 0 : status.count + 1
      let descriptionRows = room - lines.count - statusRows - 1
      let description = product.description.wrapped(
        toWidth: width, maxLines: descriptionRows)
      if !description.isEmpty { lines += [""] + description }
    }
    // A blank line between the product and the status, when there is a status.
    lines += (status.isEmpty || lines.isEmpty ? [] : [""]) + status
    return lines.map { $0.isEmpty ? "" : "  " + $0 }
  }

  /// The cart sheet: what the cart holds, and how the emptying went.
  private func cart(width: Int) -> [String] {
    var lines: [String]
    if state.cartCount == 0 {
      lines = ["Your cart is empty."]
    } else {
      lines = ["Your cart holds \(Self.items(state.cartCount)):"]
      for product in state.addedProducts {
        let price = product.formattedPrice
        let title = String(product.title.prefix(max(width - price.count - 3, 4)))
        let gap = String(repeating: " ", count: max(1, width - 2 - title.count - price.count))
        lines.append("· " + title + gap + price)
      }
      let before = state.cartCount - state.addedProducts.count
      if before > 0 { lines.append(ANSI.dim("· \(Self.items(before)) added before")) }
    }
    if let sheet = state.cartSheet {
      if sheet.isEmptying { lines += ["", ANSI.cyan("\(spinner) Emptying your cart…")] }
      if let failure = sheet.failure {
        lines += [""] + ("✗ " + failure.description).wrapped(toWidth: width).map(ANSI.red)
      }
    }
    return lines.map { $0.isEmpty ? "" : "  " + $0 }
  }

  /// A dialog: its title, its message, and its buttons with their keys.
  private func dialog(
    _ dialog: DialogState<CartSheetEvent.Confirmation>, width: Int
  ) -> [String] {
    let buttons = dialog.buttons.map { button in
      (button.action == nil ? "n " : "y ") + button.title
    }
    let lines =
      dialog.title.wrapped(toWidth: width).map(ANSI.bold)
      + (dialog.message?.wrapped(toWidth: width) ?? [])
      + buttons.joined(separator: " · ").wrapped(toWidth: width).map(ANSI.yellow)
    return lines.map { "  " + $0 }
  }

  /// The state on one line, for scripts: the cart sheet when it is open, else the top page
  /// when one is open, else where the list comes from, its size and its highlighted row; then
  /// the cart's badge.
  static func line(for state: ShopState) -> String {
    let cart = "cart: \(state.cartCount)"
    if let sheet = state.cartSheet {
      return "cart sheet: \(line(for: sheet, in: state)) · \(cart)"
    }
    if let page = state.topPage {
      let depth = state.path.count > 1 ? " (\(state.path.count) open)" : ""
      return "detail\(depth): \(line(for: page.detail)) · \(cart)"
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

  private static func line(for sheet: CartSheetState, in state: ShopState) -> String {
    var line: String
    if state.cartCount == 0 {
      line = "empty"
    } else {
      var names = state.addedProducts.map(\.title)
      let before = state.cartCount - state.addedProducts.count
      if before > 0 { names.append("\(before) added before") }
      line = "\(items(state.cartCount)): " + names.joined(separator: ", ")
    }
    if sheet.isEmptying { line += " (emptying)" }
    if let failure = sheet.failure { line += " · error: \(failure)" }
    if let dialog = sheet.confirmation {
      line +=
        " · " + dialog.title + " " + dialog.buttons.map { "[\($0.title)]" }.joined(separator: " ")
    }
    return line
  }

  private static func items(_ count: Int) -> String {
    count == 1 ? "1 item" : "\(count) items"
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

import ProductDetailFeature
import SampleTerminal

/// Shows the product detail page: a full-screen drawing at a terminal, one line per state in a
/// script.
@MainActor
final class ProductDetailScreen {
  private static let spinnerFrames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

  private let terminal: Terminal
  private var state = ProductDetailState()
  private var lastPrinted: ProductDetailState?
  private var hint: String?
  private var spinnerFrame = 0

  init(terminal: Terminal) {
    self.terminal = terminal
  }

  /// Renders a new state (the system's UI binding).
  func show(_ state: ProductDetailState) {
    if state != self.state { hint = nil }
    self.state = state
    switch terminal.mode {
    case .interactive:
      redraw()
    case .scripted:
      // A step that changes nothing (an ignored key) renders nothing new.
      guard state != lastPrinted else { return }
      lastPrinted = state
      terminal.printLine(Self.line(for: state))
    }
  }

  /// Shows a one-line hint under the page; the state stays as it is.
  func showHint(_ hint: String) {
    switch terminal.mode {
    case .interactive:
      self.hint = hint
      redraw()
    case .scripted:
      Terminal.printError("pdp: \(hint)")
    }
  }

  /// Advances the spinner while a request runs.
  func tick() {
    guard state.request != nil else { return }
    spinnerFrame = (spinnerFrame + 1) % Self.spinnerFrames.count
    redraw()
  }

  /// Draws the page again, after a resize.
  ///
  /// The keys always show: the footer (the keys, a hint) is laid out first, and the
  /// description gives way, cut with `…`, when the window is too short for all of it.
  func redraw() {
    let width = terminal.width
    let textWidth = max(width - 4, 20)
    let header = [
      ANSI.inverse(" Product detail" + String(repeating: " ", count: max(0, width - 15))), "",
    ]
    var footer = ProductDetailCommand.help.wrapped(toWidth: textWidth).map { "  " + ANSI.dim($0) }
    if let hint {
      footer += hint.wrapped(toWidth: textWidth).map { "  " + ANSI.yellow($0) }
    }
    let status = status(width: textWidth)
    let statusRows = status.isEmpty ? 0 : status.count + 1
    var lines = header
    if let product = state.product {
      lines.append("  " + ANSI.bold(product.title))
      lines.append("  " + product.formattedPrice)
      // The rows left once the rest is counted: a blank line before and after the description.
      let room = terminal.height - lines.count - footer.count - statusRows - 2
      let description = product.description.wrapped(toWidth: textWidth, maxLines: room)
      if !description.isEmpty { lines += [""] + description.map { "  " + $0 } }
      lines.append("")
    }
    if !status.isEmpty {
      lines += status.map { "  " + $0 }
      lines.append("")
    }
    terminal.draw(lines, footer: footer)
  }

  /// The lines about the page's progress: a spinner, a confirmation or an error.
  private func status(width: Int) -> [String] {
    let spinner = String(Self.spinnerFrames[spinnerFrame])
    switch (state.screen, state.request) {
    case (_, .addToCart?):
      return [ANSI.cyan("\(spinner) Adding to your cart…")]
    case (.loading, _):
      return [ANSI.cyan("\(spinner) Loading the product…")]
    case (.start, _):
      return [ANSI.dim("Opening the page…")]
    case (.productLoaded, _):
      return []
    case (.addedToCart(_, let response), _):
      return ("✓ " + response.message).wrapped(toWidth: width).map(ANSI.green)
        + [ANSI.dim("Your cart holds \(Self.items(response.itemCount)).")]
    case (.addToCartFailed(_, let error), _):
      return ("✗ " + error.description).wrapped(toWidth: width).map(ANSI.red)
        + [ANSI.dim("Press a to try again.")]
    case (.error(let error), _):
      return ("✗ " + error.description).wrapped(toWidth: width).map(ANSI.red)
        + [ANSI.dim("Press r to reload.")]
    }
  }

  /// The state on one line, for scripts: the screen's name, its details, and the pending add.
  static func line(for state: ProductDetailState) -> String {
    let line =
      switch state.screen {
      case .start: "start"
      case .loading: "loading"
      case .productLoaded(let product):
        "productLoaded: \(product.title), \(product.formattedPrice)"
      case .addedToCart(_, let response):
        "addedToCart: \(response.message) (cart: \(items(response.itemCount)))"
      case .addToCartFailed(let product, let error):
        "addToCartFailed: \(product.title), \(product.formattedPrice) · error: \(error)"
      case .error(let error): "error: \(error)"
      }
    return state.isAddingToCart ? line + " (adding to cart)" : line
  }

  private static func items(_ count: Int) -> String {
    count == 1 ? "1 item" : "\(count) items"
  }
}

import ArchitectureKit
import Foundation
import ProductDetailFeature
import ProductDetailLive
import SampleTerminal
import ShopFeature
import ShopLive

/// The shop as a terminal app.
///
/// A list of the catalog, a search, the product detail pages of the chosen products, pushed
/// over the list, and the cart in a sheet. See ``ShopOptions/usage`` for the keys and the
/// command line.
@main
enum ShopApp {
  @MainActor
  static func main() async {
    let options: ShopOptions
    do {
      options = try ShopOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      Terminal.printError("shop: \(error)\nTry 'shop --help'.")
      exit(2)
    }
    if options.showsHelp {
      print(ShopOptions.usage)
      return
    }
    // Every file is checked before the screen changes, so problems print as plain messages.
    let mode = Terminal.Mode.detected
    let setup: Setup
    do {
      setup = try Setup(options: options, mode: mode)
    } catch {
      Terminal.printError("shop: \(error)")
      exit(1)
    }
    let terminal: Terminal
    do {
      terminal = try Terminal(mode: mode)
    } catch {
      Terminal.printError("shop: \(error)")
      exit(1)
    }
    await run(setup, in: terminal)
    terminal.restore()
  }

  @MainActor
  private static func run(_ setup: Setup, in terminal: Terminal) async {
    let initialState = ShopState(cartCount: setup.cartCount)
    let monitor = EffectMonitor<ShopState, ShopEvent, ShopError>()
    // The screen shows the state the shop starts from, then every step from the start, as an
    // observer: the catalog's first search, and the first row's load, may answer while the
    // system is made (an effect that finishes without suspending is reduced at once), and a
    // script prints the same lines either way. The monitor observes from the start too, so it
    // counts the catalog's first search.
    let screen = ShopScreen(terminal: terminal, state: initialState)
    screen.show(initialState)
    let render: (SystemActivity<ShopState, ShopEvent, ShopError>) -> Void = { activity in
      if case .step(_, _, let current) = activity { screen.show(current) }
    }
    let shop = Shop.start(
      from: initialState, context: setup.context, observers: [monitor.record, render],
      journal: setup.journal)

    let isScripted = terminal.mode == .scripted
    let spinner = Task {
      while !isScripted, (try? await Task.sleep(for: .milliseconds(100))) != nil {
        screen.tick()
      }
    }
    defer { spinner.cancel() }

    for await event in terminal.events {
      guard case .key(let key) = event else {
        screen.redraw()
        continue
      }
      // A script waits for the shop to settle before each key, so its output is the same on
      // every run; a person gets an answer at once.
      if isScripted { await monitor.waitUntilIdle() }
      let focus = ShopCommand.Focus(shop.state)
      guard let command = ShopCommand(key, in: focus) else {
        screen.showHint("Unknown key '\(key)'. Keys: \(focus.help)")
        continue
      }
      switch command {
      case .moveUp: move(by: -1, in: shop, on: screen)
      case .moveDown: move(by: 1, in: shop, on: screen)
      case .open:
        if let row = shop.state.highlightedRow, row.product != nil {
          shop.send(.open(id: row.id))
        } else {
          screen.showHint(openHint(for: shop.state))
        }
      case .startSearch: shop.send(.startSearch)
      case .type(let text): shop.send(.search(.typed(text)))
      case .erase: shop.send(.search(.erased))
      case .clearSearch: shop.send(.search(.cleared))
      case .endSearch: shop.send(.endSearch)
      case .addToCart:
        if let id = shop.state.path.ids.last, shop.state.topPage?.detail.canAddToCart == true {
          shop.send(.path(id, .product(.detail(.addToCart))))
        } else {
          screen.showHint(addToCartHint(for: shop.state.topPage?.detail))
        }
      case .reload:
        if let id = shop.state.path.ids.last {
          shop.send(.path(id, .product(.detail(.loadProduct))))
        }
      case .back:
        guard let id = shop.state.path.ids.last, let page = shop.state.topPage else { break }
        shop.send(.path(id, .product(.closeTapped)))
        // Closing a page cancels its work: an add under way is not left to vanish unsaid.
        if page.detail.isAddingToCart {
          screen.showHint("Adding \(page.product.title) to your cart was cancelled.")
        }
      case .openCart: shop.send(.openCart)
      case .emptyCart:
        if let hint = emptyCartHint(for: shop.state) {
          screen.showHint(hint)
        } else {
          shop.send(.destination(.cart(.emptyTapped)))
        }
      case .closeCart:
        // Closing the sheet would cancel its emptying half-way: the badge would not learn of it.
        if shop.state.cartSheet?.isEmptying == true {
          screen.showHint("Wait for your cart to be emptied.")
        } else {
          shop.send(.destination(.cart(.closeTapped)))
        }
      case .confirm:
        let action = shop.state.cartSheet?.confirmation?.buttons.lazy.compactMap(\.action).first
        shop.send(.destination(.cart(.confirmation(action))))
      case .cancel: shop.send(.destination(.cart(.confirmation(nil))))
      case .session(.quit):
        shop.stop()
        return
      case .session(.suspend):
        terminal.suspend()
        screen.redraw()
      case .session(.showKeys):
        // In a script, a line break with no action here is a separator, not a key press.
        if !isScripted {
          screen.showHint("Enter does nothing here. Keys: \(focus.help)")
        }
      }
    }
    // End of input: a script's last requests still finish, then the app quits as on `q`.
    if isScripted { await monitor.waitUntilIdle() }
    shop.stop()
  }

  /// Moves the highlight in the list; on a page, opens the previous or next product's page
  /// over it, or says why it cannot yet.
  @MainActor
  private static func move(by offset: Int, in shop: ShopSystem, on screen: ShopScreen) {
    let state = shop.state
    if !state.path.isEmpty,
      let index = state.rows.firstIndex(where: { $0.id == state.highlightedID }),
      state.rows.indices.contains(index + offset),
      state.rows[index + offset].product == nil
    {
      screen.showHint(openHint(for: state.rows[index + offset]))
      return
    }
    shop.send(offset < 0 ? .moveUp : .moveDown)
  }

  private static func openHint(for state: ShopState) -> String {
    if let row = state.highlightedRow { return openHint(for: row) }
    return state.search.answeredQuery == nil
      ? "Wait for the catalog to load." : "No product matches: press / to search again."
  }

  private static func openHint(for row: ProductRowState) -> String {
    row.status == .unavailable
      ? "\(row.summary.title) is no longer sold." : "Wait for \(row.summary.title) to load."
  }

  private static func addToCartHint(for page: ProductDetailState?) -> String {
    guard let page else { return "Open a product first." }
    if page.isAddingToCart { return "Already adding to your cart…" }
    if page.request != nil { return "Wait for the product to load, then press a." }
    return "There is no product to add: press r to reload."
  }

  private static func emptyCartHint(for state: ShopState) -> String? {
    if state.cartSheet?.isEmptying == true { return "Already emptying your cart…" }
    if state.cartCount == 0 { return "Your cart is already empty." }
    return nil
  }
}

/// Everything `shop` needs before it takes over the terminal, checked up front.
private struct Setup {
  let context: ShopContext
  let cartCount: Int
  /// The journal `--record` asked for: every step written to its file as it happens, with its
  /// state, so a session can be replayed in a test.
  let journal: Journal<ShopState, ShopEvent>?

  init(options: ShopOptions, mode: Terminal.Mode) throws {
    guard let catalogPath = options.catalogPath ?? Catalog.bundledPath else {
      throw UsageError("the bundled catalog is missing; pass --catalog PATH")
    }
    let catalog = try ShopCatalog.load(from: catalogPath)
    let (cart, cartCount) = try Self.cart(options: options, mode: mode)
    self.cartCount = cartCount
    journal = try options.journalPath.map { path throws(JournalError) in
      try Journal(writingTo: path, capacity: 0, states: .everyStep)
    }
    context = ShopContext(
      api: LiveShopAPI(catalog: catalog, cart: cart),
      clock: options.speed == 1 ? ContinuousClock() : AcceleratedClock(speed: options.speed),
      random: options.seed.map { RandomSource(seed: $0) } ?? RandomSource()
    )
  }

  /// The cart file `--cart` names, otherwise the user's cart file at a terminal, and a cart in
  /// memory for a script, so that a script prints the same on every run; with the number of
  /// items it holds, for the badge.
  private static func cart(
    options: ShopOptions,
    mode: Terminal.Mode
  ) throws -> (any CartStorage, Int) {
    let environment = ProcessInfo.processInfo.environment
    guard options.cartPath != nil || mode == .interactive else { return (InMemoryCart(), 0) }
    guard let path = options.cartPath ?? CartFile.defaultPath(environment: environment) else {
      throw UsageError("no place for the cart: set HOME or pass --cart PATH")
    }
    // A cart file that cannot be read stops the app before it could be overwritten; so does a
    // missing folder on a path the user typed, which is more likely a typo than a wish.
    let createsFolders = options.cartPath == nil
    let stored = try CartFile.load(from: path, createsFolders: createsFolders)
    return (CartFile(path: path, createsFolders: createsFolders), stored.items.count)
  }
}

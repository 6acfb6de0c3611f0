import ArchitectureKit
import Foundation
import ProductDetailFeature
import ProductDetailLive
import SampleTerminal

/// The seed's product detail page as a terminal app.
///
/// `r` reloads, `a` adds to the cart (again after a failure), `q` or Esc quits, Ctrl-Z
/// suspends. See ``ProductDetailOptions/usage`` for the command line.
@main
enum ProductDetailApp {
  @MainActor
  static func main() async {
    let options: ProductDetailOptions
    do {
      options = try ProductDetailOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
      Terminal.printError("pdp: \(error)\nTry 'pdp --help'.")
      exit(2)
    }
    if options.showsHelp {
      print(ProductDetailOptions.usage)
      return
    }
    // Every file is checked before the screen changes, so problems print as plain messages.
    let mode = Terminal.Mode.detected
    let setup: Setup
    do {
      setup = try Setup(options: options, mode: mode)
    } catch {
      Terminal.printError("pdp: \(error)")
      exit(1)
    }
    let terminal: Terminal
    do {
      terminal = try Terminal(mode: mode)
    } catch {
      Terminal.printError("pdp: \(error)")
      exit(1)
    }
    await run(setup, in: terminal)
    terminal.restore()
  }

  @MainActor
  private static func run(_ setup: Setup, in terminal: Terminal) async {
    let page = ProductDetail.start(context: setup.context, journal: setup.journal)
    let monitor = EffectMonitor(observing: page)
    if let file = setup.analytics {
      // The seed's analytics hook: a loop callback, after recording the page as first shown.
      let analytics = ProductDetailAnalytics(record: file.append)
      analytics.track(page.state)
      page.addLoopCallback(analytics.track)
    }
    let screen = ProductDetailScreen(terminal: terminal)
    page.addUIBinding(screen.show)
    // The seed loads the product when the page appears.
    page.send(.loadProduct)

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
      // A script waits for the page to settle before each key, so its output is the same on
      // every run; a person gets an answer at once.
      if isScripted { await monitor.waitUntilIdle() }
      switch ProductDetailCommand(key) {
      case .reload:
        page.send(.loadProduct)
      case .addToCart where !page.state.canAddToCart:
        screen.showHint(addToCartHint(for: page.state))
      case .addToCart:
        page.send(.addToCart)
      case .session(.quit):
        page.stop()
        return
      case .session(.suspend):
        terminal.suspend()
        screen.redraw()
      case .session(.showKeys):
        // In a script, Enter is a line break between keys, not a key press.
        if !isScripted {
          screen.showHint("Enter does nothing here. Keys: \(ProductDetailCommand.help)")
        }
      case nil:
        screen.showHint("Unknown key '\(key)'. Keys: \(ProductDetailCommand.help)")
      }
    }
    // End of input: a script's last request still finishes, then the app quits as on `q`.
    if isScripted { await monitor.waitUntilIdle() }
    page.stop()
  }

  private static func addToCartHint(for state: ProductDetailState) -> String {
    if state.isAddingToCart { return "Already adding to your cart…" }
    if state.request != nil { return "Wait for the product to load, then press a." }
    return "There is no product to add: press r to reload."
  }
}

/// Everything `pdp` needs before it takes over the terminal, checked up front.
private struct Setup {
  let context: ProductDetailContext
  let analytics: AnalyticsFile?
  /// The journal `--record` asked for: every step written to its file as it happens, with its
  /// state, so a session can be replayed in a test.
  let journal: Journal<ProductDetailState, ProductDetailEvent>?

  init(options: ProductDetailOptions, mode: Terminal.Mode) throws {
    guard let catalogPath = options.catalogPath ?? Catalog.bundledPath else {
      throw UsageError("the bundled catalog is missing; pass --catalog PATH")
    }
    let catalog = try Catalog.load(from: catalogPath)
    guard let product = catalog.featuredProduct else {
      throw UsageError("the catalog \(catalogPath) lists no products")
    }
    let cart = try Self.cart(options: options, mode: mode)
    analytics = try options.analyticsPath.map { path throws(DataFileError) in
      try AnalyticsFile(path: path)
    }
    journal = try options.journalPath.map { path throws(JournalError) in
      try Journal(writingTo: path, capacity: 0, states: .everyStep)
    }
    context = ProductDetailContext(
      api: LiveProductAPI(product: product, cart: cart),
      clock: options.speed == 1 ? ContinuousClock() : AcceleratedClock(speed: options.speed),
      random: options.seed.map { RandomSource(seed: $0) } ?? RandomSource()
    )
  }

  /// The cart file `--cart` names; otherwise the user's cart file at a terminal, and a cart in
  /// memory for a script, so that a script prints the same on every run.
  private static func cart(
    options: ProductDetailOptions,
    mode: Terminal.Mode
  ) throws -> any CartStorage {
    let environment = ProcessInfo.processInfo.environment
    guard options.cartPath != nil || mode == .interactive else { return InMemoryCart() }
    guard let path = options.cartPath ?? CartFile.defaultPath(environment: environment) else {
      throw UsageError("no place for the cart: set HOME or pass --cart PATH")
    }
    // A cart file that cannot be read stops the app before it could be overwritten; so does a
    // missing folder on a path the user typed, which is more likely a typo than a wish.
    let createsFolders = options.cartPath == nil
    _ = try CartFile.load(from: path, createsFolders: createsFolders)
    return CartFile(path: path, createsFolders: createsFolders)
  }
}

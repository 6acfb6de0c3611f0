import Foundation
import Testing

/// The samples at a terminal, as a person runs them: raw mode, a full-screen drawing, and the
/// terminal given back however the app ends.
@Suite(.timeLimit(.minutes(10)))
struct InteractiveEndToEndTests {
  static let enterScreen = "\u{1B}[?1049h"
  static let leaveScreen = "\u{1B}[?1049l"
  /// The start of a hint under the page: yellow text.
  static let enterHint = "\u{1B}[33mEnter does nothing here. Keys:"

  let terminal: PseudoTerminal
  let home: TemporaryDirectory

  init() throws {
    terminal = try PseudoTerminal(columns: 40)
    home = try TemporaryDirectory()
  }

  /// Launches the sample `name` (a `cart.json` argument names a file in `home`) and reads its
  /// screen until it shows `page`.
  func launch(_ name: String, _ arguments: [String], showing page: String) async throws
    -> InteractiveRun
  {
    let app = try InteractiveRun(
      launching: name,
      arguments.map { $0 == "cart.json" ? home.path($0) : $0 },
      on: terminal,
      home: home
    )
    _ = await terminal.read(until: page)
    return app
  }

  @Test func counterDrawsTheCountAndRestoresTheTerminalOnQuit() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    terminal.type("+")
    let screen = await terminal.read(until: "Count: \u{1B}[1m1")
    terminal.type("q")
    let end = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains("Count: \u{1B}[1m1"))
    #expect(end.contains("\u{1B}[?25h"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func counterRestoresTheTerminalOnCtrlC() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    terminal.type("\u{03}")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func counterRestoresTheTerminalOnSIGINT() async throws {
    let app = try InteractiveRun(launching: "counter", on: terminal, home: home)
    _ = await terminal.read(until: "Count: ")

    app.process.interrupt()
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(await app.status == 128 + SIGINT)
    #expect(terminal.isCooked)
  }

  @Test(arguments: [
    ("counter", [], "Count: "),
    ("pdp", ["--speed", "1000", "--cart", "cart.json"], "clean."),
    ("shop", ["--speed", "1000", "--cart", "cart.json"], "Press / to search"),
  ])
  func suspendsOnCtrlZAndComesBackOnContinue(
    app name: String,
    arguments: [String],
    page: String
  ) async throws {
    let app = try await launch(name, arguments, showing: page)

    terminal.type("\u{1A}")
    let suspended = await terminal.read(until: Self.leaveScreen)
    let isStopped = await app.waitUntilStopped()
    let wasCookedWhileStopped = terminal.isCooked
    app.continue()
    let resumed = await terminal.read(until: page)
    let isRawAgain = !terminal.isCooked
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(!suspended.contains("Unknown key"))
    #expect(isStopped)
    #expect(wasCookedWhileStopped)
    #expect(resumed.contains(Self.enterScreen))
    #expect(isRawAgain)
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test(arguments: [
    ("counter", [], "Count: "),
    ("pdp", ["--speed", "1000", "--cart", "cart.json"], "clean."),
  ])
  func showsTheKeysOnEnter(app name: String, arguments: [String], page: String) async throws {
    let app = try await launch(name, arguments, showing: page)

    terminal.type("\r")
    let screen = await terminal.read(until: Self.enterHint)
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains(Self.enterHint))
    #expect(await app.status == 0)
  }

  @Test func productPageKeepsTheCartInTheUserDataDirectoryByDefault() async throws {
    let app = try InteractiveRun(
      launching: "pdp",
      ["--speed", "1000", "--seed", "1"],
      on: terminal,
      home: home
    )
    _ = await terminal.read(until: "clean.")

    terminal.type("a")
    let screen = await terminal.read(until: "Your cart holds")
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains("Your cart holds"))
    #expect(await app.status == 0)
    #expect(FileManager.default.fileExists(atPath: home.path("data/ArchitectureKit/cart.json")))
  }

  @Test func productPageWrapsTheDescriptionToTheWindow() async throws {
    let app = try InteractiveRun(
      launching: "pdp",
      ["--speed", "1000", "--cart", home.path("cart.json")],
      on: terminal,
      home: home
    )

    let screen = await terminal.read(until: "clean.")
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(screen.contains("Yeezy Triple White"))
    // 40 columns, 2 of margin on each side: the catalog's description breaks here.
    #expect(screen.contains("  A Primeknit upper in triple white,"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func shopOpensTheHighlightedProductAndGoesBackToTheList() async throws {
    let app = try InteractiveRun(
      launching: "shop",
      ["--speed", "1000", "--cart", home.path("cart.json")],
      on: terminal,
      home: home
    )
    _ = await terminal.read(until: "220.00 EUR")

    terminal.type("\u{1B}[B")
    _ = await terminal.read(until: "\u{1B}[1m▸ Canvas High Top Black")
    terminal.type("\r")
    let page = await terminal.read(until: "A high-top in heavy black")
    terminal.type("\u{1B}")
    let list = await terminal.read(until: "Press / to search")
    terminal.type("q")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(page.contains("Shop › Canvas High Top Black"))
    #expect(page.contains("Cart: 0"))
    #expect(list.contains("Trail Runner Moss"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }

  @Test func shopShowsThePagesKeysRatherThanAllTheDescriptionOnASmallTerminal() async throws {
    let small = try PseudoTerminal(columns: 40, rows: 12)
    let app = try InteractiveRun(
      launching: "shop",
      ["--speed", "1000", "--cart", home.path("cart.json")],
      on: small,
      home: home
    )
    _ = await small.read(until: "220.00 EUR")

    small.type("\r")
    var frame = await small.read(until: "A Primeknit upper")
    // The rest of the frame that draws the description: the page's keys, to the last one.
    frame = String(frame[try #require(frame.range(of: "A Primeknit upper")).lowerBound...])
    if !frame.contains("suspend") { frame += await small.read(until: "suspend") }
    small.type("q")
    _ = await small.read(until: "Press / to search")
    small.type("q")
    _ = await small.read(until: Self.leaveScreen)

    #expect(frame.contains("…"))
    #expect(frame.contains("a add to cart"))
    #expect(frame.contains("Ctrl-Z suspend"))
    #expect(await app.status == 0)
    #expect(small.isCooked)
  }

  @Test func shopEmptiesTheCartFromItsSheetOnceConfirmed() async throws {
    let app = try InteractiveRun(
      launching: "shop",
      ["--speed", "1000", "--seed", "1", "--cart", home.path("cart.json")],
      on: terminal,
      home: home
    )
    _ = await terminal.read(until: "220.00 EUR")

    terminal.type("\r")
    _ = await terminal.read(until: "A Primeknit upper")
    terminal.type("a")
    _ = await terminal.read(until: "Cart: 1")
    terminal.type("c")
    let sheet = await terminal.read(until: "Your cart holds 1 item:")
    terminal.type("e")
    // Each read ends at the last thing its screen draws: what comes after the marker may come
    // in a later chunk of the terminal's output, which this read would not see.
    let question = await terminal.read(until: "y Empty · n Keep")
    terminal.type("y")
    let emptied = await terminal.read(until: "Your cart is empty.")
    terminal.type("c")
    let page = await terminal.read(until: "A Primeknit upper")
    terminal.type("\u{03}")
    _ = await terminal.read(until: Self.leaveScreen)

    #expect(sheet.contains("Shop › Cart"))
    #expect(question.contains("Empty the cart?"))
    #expect(emptied.contains("Cart: 0"))
    #expect(page.contains("Shop › Yeezy Triple White"))
    #expect(page.contains("Cart: 0"))
    #expect(await app.status == 0)
    #expect(terminal.isCooked)
  }
}

import Foundation
import Testing

/// The `pdp` executable, driven by a script on standard input with fast, seeded latencies and
/// failures.
@Suite(.timeLimit(.minutes(10)))
struct ProductDetailEndToEndTests {
  let home: TemporaryDirectory
  let cart: String

  init() throws {
    home = try TemporaryDirectory()
    cart = home.path("cart.json")
  }

  /// Runs `pdp --speed 1000` with the test's cart and `arguments`.
  func pdp(_ input: String, _ arguments: String...) async throws -> ScriptedRun {
    try await ScriptedRun.run(
      "pdp",
      ["--speed", "1000", "--cart", cart] + arguments,
      input: input,
      home: home
    )
  }

  @Test func loadsTheProductAddsItToTheCartAndQuits() async throws {
    let run = try await pdp("aq", "--seed", "1")

    #expect(
      run.lines == [
        "start",
        "loading",
        "productLoaded: Yeezy Triple White, 220.00 EUR",
        "productLoaded: Yeezy Triple White, 220.00 EUR (adding to cart)",
        "addedToCart: Product: Yeezy Triple White added to cart for user: Richi (cart: 1 item)",
      ]
    )
    #expect(run.errors.isEmpty)
    #expect(run.status == 0)
    let stored = try String(contentsOfFile: cart, encoding: .utf8)
    #expect(stored.contains(#""user" : "Richi""#))
  }

  @Test func keepsTheProductBesideTheSeedErrorWhenAddingToTheCartFails() async throws {
    // The first roll of seed 3 is 2, below 5: the seed's failure.
    let run = try await pdp("aq", "--seed", "3")

    #expect(
      run.lines.last
        == "addToCartFailed: Yeezy Triple White, 220.00 EUR · error: Error adding to cart (code 15)"
    )
    #expect(run.errors.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: cart))
  }

  @Test func retriesTheAddWithAAfterAFailure() async throws {
    // Seed 3 rolls 2 (the seed's failure), then 7 (a success).
    let run = try await pdp("aaq", "--seed", "3")

    #expect(
      run.lines == [
        "start",
        "loading",
        "productLoaded: Yeezy Triple White, 220.00 EUR",
        "productLoaded: Yeezy Triple White, 220.00 EUR (adding to cart)",
        "addToCartFailed: Yeezy Triple White, 220.00 EUR · error: Error adding to cart (code 15)",
        "productLoaded: Yeezy Triple White, 220.00 EUR (adding to cart)",
        "addedToCart: Product: Yeezy Triple White added to cart for user: Richi (cart: 1 item)",
      ]
    )
    #expect(run.errors.isEmpty)
    #expect(run.status == 0)
  }

  @Test func appendsOneAnalyticsEventPerPageChange() async throws {
    let analytics = home.path("analytics.log")
    try "earlier\n".write(toFile: analytics, atomically: true, encoding: .utf8)

    let run = try await pdp("araq", "--seed", "1", "--analytics", analytics)

    #expect(run.status == 0)
    let lines = try String(contentsOfFile: analytics, encoding: .utf8).split(separator: "\n")
    #expect(
      lines == [
        "earlier", "pdpShown", "pdpLoading", "productLoaded", "pdpAddedToCart", "pdpLoading",
        "productLoaded", "pdpAddedToCart",
      ]
    )
  }

  @Test func addsToTheCartAlreadyInTheFile() async throws {
    _ = try await pdp("aq", "--seed", "1")
    let run = try await pdp("aq", "--seed", "1")

    #expect(run.lines.last?.hasSuffix("(cart: 2 items)") == true)
  }

  @Test func startsEveryScriptedRunWithAnEmptyCartUnlessToldWhichCart() async throws {
    func run() async throws -> ScriptedRun {
      try await ScriptedRun.run("pdp", ["--speed", "1000", "--seed", "1"], input: "a", home: home)
    }

    let first = try await run()
    let second = try await run()

    #expect(first.status == 0)
    #expect(first.lines.last?.hasSuffix("(cart: 1 item)") == true)
    #expect(second.output == first.output)
    #expect(!FileManager.default.fileExists(atPath: home.path("data/ArchitectureKit/cart.json")))
  }

  @Test func hintsAtAnUnknownKeyAndKeepsThePage() async throws {
    let run = try await pdp("xq", "--seed", "1")

    #expect(run.lines == ["start", "loading", "productLoaded: Yeezy Triple White, 220.00 EUR"])
    #expect(
      run.errors
        == "pdp: Unknown key 'x'. Keys: r reload · a add to cart · q or Esc quit · Ctrl-Z suspend\n"
    )
    #expect(run.status == 0)
  }

  @Test(arguments: ["0.1", "1000", "2.5"])
  func acceptsASpeedInItsRange(speed: String) async throws {
    let run = try await ScriptedRun.run("pdp", ["--speed", speed, "--help"], input: "", home: home)

    #expect(run.status == 0)
    #expect(run.output.contains("--speed N         a number from 0.1 to 1000"))
  }

  @Test func helpNamesEveryKeyEscAndCtrlZIncluded() async throws {
    let run = try await ScriptedRun.run("pdp", ["--help"], input: "", home: home)

    #expect(run.status == 0)
    #expect(run.output.contains("q or Esc quit"))
    #expect(run.output.contains("Ctrl-Z suspend"))
  }

  @Test func finishesTheLastRequestAndQuitsAtTheEndOfInput() async throws {
    let run = try await pdp("a", "--seed", "1")

    #expect(run.lines.count == 5)
    #expect(run.lines.last?.hasPrefix("addedToCart:") == true)
    #expect(run.status == 0)
  }

  @Test func reportsAMissingCatalog() async throws {
    let catalog = home.path("missing.json")
    let run = try await pdp("q", "--catalog", catalog)

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.errors == "pdp: The catalog file \(catalog) does not exist.\n")
  }

  @Test(
    arguments: [
      ("{\"products\": [", "it is not valid JSON"),
      ("", "it is empty"),
      ("{\"products\": []}", "it lists no products"),
      ("{\"products\": [{\"id\": \"x\"}]}", "\"products[0].title\" is missing"),
      ("{\"products\": {}}", "\"products\" should be a list"),
    ]
  )
  func reportsACorruptCatalogAndLeavesItAlone(contents: String, problem: String) async throws {
    let catalog = home.path("catalog.json")
    try contents.write(toFile: catalog, atomically: true, encoding: .utf8)

    let run = try await pdp("q", "--catalog", catalog)

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors
        == "pdp: The catalog file \(catalog) is not a valid catalog: \(problem). "
        + "It was left untouched.\n"
    )
    #expect(try String(contentsOfFile: catalog, encoding: .utf8) == contents)
  }

  @Test(arguments: ["not json", "{\"items\": [{\"title\": 1}]}", ""])
  func reportsACorruptCartAndNeverOverwritesIt(contents: String) async throws {
    try contents.write(toFile: cart, atomically: true, encoding: .utf8)

    let run = try await pdp("aq", "--seed", "1")

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.errors.hasPrefix("pdp: The cart file \(cart) is not a valid cart: "))
    #expect(run.errors.hasSuffix(" It was left untouched.\n"))
    #expect(try String(contentsOfFile: cart, encoding: .utf8) == contents)
  }

  @Test func reportsAnUnreadableCart() async throws {
    try FileManager.default.createDirectory(atPath: cart, withIntermediateDirectories: true)

    let run = try await pdp("aq", "--seed", "1")

    #expect(run.status == 1)
    #expect(run.errors.hasPrefix("pdp: The cart file \(cart) cannot be read: "))
  }

  @Test func refusesACartInAFolderThatDoesNotExist() async throws {
    let cart = home.path("typo/cart.json")
    let run = try await ScriptedRun.run(
      "pdp", ["--speed", "1000", "--seed", "1", "--cart", cart], input: "aq", home: home)

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors
        == "pdp: The cart file \(cart) cannot be created: the folder \(home.path("typo")) does "
        + "not exist.\n"
    )
    #expect(!FileManager.default.fileExists(atPath: home.path("typo")))
  }

  @Test func reportsAnAnalyticsFileItCannotWrite() async throws {
    let analytics = home.path("folder")
    try FileManager.default.createDirectory(atPath: analytics, withIntermediateDirectories: true)

    let run = try await pdp("q", "--analytics", analytics)

    #expect(run.status == 1)
    #expect(run.errors.hasPrefix("pdp: The analytics file \(analytics) cannot be written: "))
  }

  @Test(
    arguments: [
      (["--speed", "0"], "pdp: --speed needs a number from 0.1 to 1000, not '0'"),
      (["--speed", "1e9"], "pdp: --speed needs a number from 0.1 to 1000, not '1e9'"),
      (["--speed", "0.05"], "pdp: --speed needs a number from 0.1 to 1000, not '0.05'"),
      (["--speed", "nan"], "pdp: --speed needs a number from 0.1 to 1000, not 'nan'"),
      (["--speed", "2", "--speed", "3"], "pdp: option --speed is given twice"),
      (["--seed", "1", "--seed=1"], "pdp: option --seed is given twice"),
      (["--cart", "a.json", "--cart", "b.json"], "pdp: option --cart is given twice"),
      (["-h", "--help"], "pdp: option --help is given twice"),
      (["--seed", "soon"], "pdp: --seed needs a whole number from 0 up, not 'soon'"),
      (["--cart"], "pdp: option --cart needs a value"),
      (["--colour"], "pdp: unknown argument '--colour'"),
    ]
  )
  func rejectsABadCommandLine(arguments: [String], message: String) async throws {
    let run = try await ScriptedRun.run("pdp", arguments, input: "q", home: home)

    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.errors == message + "\nTry 'pdp --help'.\n")
  }
}

import ArchitectureKitTestSupport
import Foundation
import ProductDetailFeature
import ShopFeature
import Testing

/// `shop --record FILE`: the session's journal, scripted or at a terminal, read back and
/// replayed.
extension ShopEndToEndTests {
  @MainActor
  @Test func recordsAScriptedSessionStepByStepThatReplays() async throws {
    let journal = home.path("session.jsonl")
    // Search "wh", open the second match, add it, open the cart, empty it once asked, close the
    // sheet, close the page, quit.
    let script = "/wh\r" + Self.down + "\raceyqqq"

    let run = try await shop(script, "--seed", "1", "--record", journal)

    #expect(run.status == 0)
    let recorded = try RecordedJournal(contentsOf: journal)
    // The catalog's rows load at once, each on its own: they answer in any order.
    #expect(recorded.origins.first == #"#1 search: find(query: "")"#)
    #expect(
      recorded.origins[1...6].sorted() == [
        #"#2 rows[yeezy-triple-white]: loadProduct(id: "yeezy-triple-white")"#,
        #"#3 rows[canvas-high-top-black]: loadProduct(id: "canvas-high-top-black")"#,
        #"#4 rows[trail-runner-moss]: loadProduct(id: "trail-runner-moss")"#,
        #"#5 rows[court-classic-white]: loadProduct(id: "court-classic-white")"#,
        #"#6 rows[wool-slip-on-grey]: loadProduct(id: "wool-slip-on-grey")"#,
        #"#7 rows[suede-chukka-sand]: loadProduct(id: "suede-chukka-sand")"#,
      ])
    let page = "path[#1].product.detail"
    let expected = [
      "8 from the app: .startSearch",
      #"9 from the app: .search(.typed("w"))"#,
      #"10 from #8 search: find(query: "w"): .search(.found(["#,
      #"11 from the app: .search(.typed("h"))"#,
      #"12 from #9 search: find(query: "wh"): .search(.found(["#,
      "13 from the app: .endSearch",
      "14 from the app: .moveDown",
      #"15 from the app: .open(id: "court-classic-white")"#,
      "16 from #10 \(page): loadProduct(id: 1): .path(#1, .product(.detail(.productLoaded(",
      "17 from the app: .path(#1, .product(.detail(.addToCart)))",
      "18 from #11 \(page): addToCart(id: 2): .path(#1, .product(.detail(.addedToCart(",
      "19 from the app: .openCart",
      "20 from the app: .destination(.cart(.emptyTapped))",
      "21 from the app: .destination(.cart(.confirmation(.empty)))",
      "22 from #12 destination.cart: emptyCart: .destination(.cart(.emptied))",
      "23 from the app: .destination(.cart(.closeTapped))",
      "24 from the app: .path(#1, .product(.closeTapped))",
    ]
    #expect(RecordedJournal.cut(recorded.steps.dropFirst(7), like: expected) == expected)
    #expect(recorded.effects.count == 12)
    #expect(recorded.effects.allSatisfy { $0.hasSuffix(": finished") })
    let replay = try Replay(journalAt: journal)
    let state = try replay.run(feature: Shop.feature, context: .test(clock: ManualClock()))
    #expect(replay.steps == 1...24)
    #expect(state.cartCount == 0)
    #expect(state.path.isEmpty)
  }

  @MainActor
  @Test func aSessionKilledMidwayKeepsEveryStepItShowed() async throws {
    let terminal = try PseudoTerminal(columns: 60)
    let run = try RecordingRun(launching: "shop", ["--seed", "1"], on: terminal, home: home)
    _ = await terminal.read(until: "220.00 EUR")
    // Open the first product, add it, go back to the list, open the cart.
    let keys = [
      ("\r", "A Primeknit upper"), ("a", "Cart: 1"), ("\u{1B}", "Press / to search"),
      ("c", "Your cart holds 1 item:"),
    ]
    for (key, shown) in keys {
      terminal.type(key)
      _ = await terminal.read(until: shown)
    }

    // The sheet over the list showed: every step up to it was written before it showed.
    let replay = try await run.kill()
    let state = try replay.run(feature: Shop.feature, context: .test(clock: ManualClock()))

    #expect(replay.steps?.lowerBound == 1)
    #expect(state.cartSheet == CartSheetState())
    #expect(state.path.isEmpty)
    #expect(state.addedProducts.map(\.title) == ["Yeezy Triple White"])
    #expect(state.cartCount == 1)
  }

  @Test func reportsAJournalFileItCannotWrite() async throws {
    let folder = home.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

    let run = try await shop("q", "--record", folder)

    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.errors.hasPrefix("shop: The journal file \(folder) cannot be written: "))
  }
}

import ArchitectureKit
import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive
import ShopFeature
import Testing

/// The shop's journal: one record per step, with where each event came from — the app, or
/// which child's effect — and every effect's life, through the search, the rows, a page on the
/// stack and the cart sheet.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ShopJournalTests {
  let clock = ManualClock()
  let cart = InMemoryCart()

  /// A session of the shop on the test catalog, recorded from its start: the catalog listed, a
  /// search typed faster than it answers, the second product opened and added to the cart, the
  /// cart emptied from its sheet after the confirmation, the sheet and the page closed.
  ///
  /// The API waits on the manual clock. After each advance the session waits until the shop
  /// shows what the woken effects answered, so the app's next events follow those answers in
  /// the journal, as a user's would.
  func recordSession(into journal: Journal<ShopState, ShopEvent>) async -> ShopSystem {
    let shop = Shop.start(context: .test(clock: clock, seed: 1, cart: cart), journal: journal)
    await clock.advance(by: .milliseconds(300))
    await shop.settle { $0.search.answeredQuery == "" }
    shop.send(.startSearch)
    shop.send(.search(.typed("w")))
    shop.send(.search(.typed("h")))
    await clock.advance(by: .milliseconds(300))
    await shop.settle { $0.search.answeredQuery == "wh" }
    await clock.advance(by: .milliseconds(200))
    await shop.settle { $0.rows.allSatisfy { $0.product != nil } }
    shop.send(.endSearch)
    shop.send(.moveDown)
    shop.send(.open(id: Product.court.id))
    await clock.advance(by: .seconds(3))
    await shop.settle { $0.topPage?.detail.request == nil }
    shop.send(.path(1, .product(.detail(.addToCart))))
    await clock.advance(by: .seconds(1))
    await shop.settle { $0.cartCount == 1 }
    shop.send(.openCart)
    shop.send(.destination(.cart(.emptyTapped)))
    shop.send(.destination(.cart(.confirmation(.empty))))
    await shop.settle { $0.cartSheet?.isEmptying == false }
    shop.send(.destination(.cart(.closeTapped)))
    shop.send(.path(1, .product(.closeTapped)))
    shop.stop()
    return shop
  }

  @Test func recordsEachStepWithTheChildEffectItCameFrom() async throws {
    let journal = Journal<ShopState, ShopEvent>()
    _ = await recordSession(into: journal)

    let expected = [
      #"1 from #1 search: find(query: ""): .search(.found([ProductSummary(id: "yeezy-triple-white""#,
      "2 from the app: .startSearch",
      #"3 from the app: .search(.typed("w"))"#,
      #"4 from the app: .search(.typed("h"))"#,
      #"5 from #6 search: find(query: "wh"): .search(.found([ProductSummary(id: "yeezy-triple-white""#,
      #"6 from #2 rows[yeezy-triple-white]: loadProduct(id: "yeezy-triple-white"): .row(id: "yeezy-"#,
      #"7 from #3 rows[court-classic-white]: loadProduct(id: "court-classic-white"): .row(id: "court-"#,
      "8 from the app: .endSearch",
      "9 from the app: .moveDown",
      #"10 from the app: .open(id: "court-classic-white")"#,
      "11 from #7 path[#1].product.detail: loadProduct(id: 1): "
        + ".path(#1, .product(.detail(.productLoaded(Product(id: \"court-classic-white\"",
      "12 from the app: .path(#1, .product(.detail(.addToCart)))",
      "13 from #8 path[#1].product.detail: addToCart(id: 2): "
        + ".path(#1, .product(.detail(.addedToCart(Product(id: \"court-classic-white\"",
      "14 from the app: .openCart",
      "15 from the app: .destination(.cart(.emptyTapped))",
      "16 from the app: .destination(.cart(.confirmation(.empty)))",
      "17 from #9 destination.cart: emptyCart: .destination(.cart(.emptied))",
      "18 from the app: .destination(.cart(.closeTapped))",
      "19 from the app: .path(#1, .product(.closeTapped))",
    ]
    let recorded = try RecordedJournal(lines: journal.lines)
    #expect(RecordedJournal.cut(recorded.steps, like: expected) == expected)
    #expect(
      recorded.effects == [
        #"#1 search: find(query: ""): finished"#,
        #"#2 rows[yeezy-triple-white]: loadProduct(id: "yeezy-triple-white"): finished"#,
        #"#3 rows[court-classic-white]: loadProduct(id: "court-classic-white"): finished"#,
        // The search for "w" never answers: "wh" replaced it; the row "wh" drops, its load.
        #"#4 rows[trail-runner-moss]: loadProduct(id: "trail-runner-moss"): cancelled"#,
        #"#5 search: find(query: "w"): cancelled"#,
        #"#6 search: find(query: "wh"): finished"#,
        "#7 path[#1].product.detail: loadProduct(id: 1): finished",
        "#8 path[#1].product.detail: addToCart(id: 2): finished",
        "#9 destination.cart: emptyCart: finished",
      ])
    #expect(recorded.events == "codable")
    #expect(journal.lines.last?.hasPrefix(#"{"kind":"stopped""#) == true)
  }

  @Test func recordsTheChangesOfEachStepByChildName() async throws {
    let journal = Journal<ShopState, ShopEvent>()
    _ = await recordSession(into: journal)

    let page = "path[#1].product.detail"
    #expect(
      try RecordedJournal(lines: journal.lines).changedPaths == [
        ["search.results", "search.answeredQuery", "rows", "highlightedID"],
        ["isEditingQuery"],
        ["search.query"],
        ["search.query"],
        ["search.results", "search.answeredQuery", "rows"],
        ["rows[yeezy-triple-white].status"],
        ["rows[court-classic-white].status"],
        ["isEditingQuery"],
        ["highlightedID"],
        ["path"],
        ["\(page).screen", "\(page).request"],
        ["\(page).request", "\(page).requestCount"],
        ["\(page).screen", "\(page).request", "cartCount", "addedProducts"],
        ["destination"],
        ["destination.cart.confirmation"],
        ["destination.cart.confirmation", "destination.cart.isEmptying"],
        ["destination.cart.isEmptying", "cartCount", "addedProducts"],
        ["destination"],
        ["path"],
      ])
  }

  @Test func aRecordedSessionReplaysStateByState() async throws {
    let journal = Journal<ShopState, ShopEvent>(states: .everyStep)
    let shop = await recordSession(into: journal)

    let replay = try Replay(journal: journal.lines.joined(separator: "\n"))
    let state = try replay.run(feature: Shop.feature, context: .test(clock: ManualClock()))

    #expect(replay.steps == 1...19)
    #expect(state == shop.state)
    #expect(state.cartCount == 0)
    #expect(state.path.isEmpty)
  }
}

extension ShopSystem {
  /// Returns once the state satisfies `isSettled`, at once if it does already; the suite's time
  /// limit ends a wait for a state that never comes.
  func settle(until isSettled: (ShopState) -> Bool) async {
    for await state in states where isSettled(state) { return }
  }
}

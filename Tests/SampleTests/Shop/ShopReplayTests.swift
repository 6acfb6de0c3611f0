import ArchitectureKit
import ArchitectureKitTestSupport
import Foundation
import ProductDetailFeature
import ShopFeature
import Testing

/// The shop's recorded sessions, replayed: `shop --record` journals become tests, through the
/// search, a page on the stack, the cart sheet and its confirmation.
@MainActor
struct ShopReplayTests {
  /// `printf '/wh\r\033[B\raceyqqq' | shop --speed 1000 --seed 1 --record
  /// shop-empty-the-cart.jsonl`: the catalog lists, the user searches "wh", opens the second
  /// match, adds it to the cart, opens the cart, empties it once asked, closes the sheet and the
  /// page, and quits.
  static let emptyTheCart = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Fixtures/Journals/shop-empty-the-cart.jsonl").path

  /// The step of the add's answer, with the page's product and the badge.
  static let addedToCart = 18

  /// The step of the question, "Empty the cart?".
  static let askedToEmpty = 20

  @Test func theRecordedEmptiedCartReplaysStateByState() throws {
    let replay = try Replay(journalAt: Self.emptyTheCart)

    let state = try replay.run(feature: Shop.feature, context: .test(clock: ManualClock()))

    #expect(replay.steps == 1...24)
    #expect(replay.warnings.isEmpty)
    #expect(state.search.query == "wh")
    #expect(state.rows.map(\.summary.title) == ["Yeezy Triple White", "Court Classic White"])
    #expect(state.highlightedID == "court-classic-white")
    #expect(state.path.isEmpty)
    #expect(state.destination == nil)
    #expect(state.cartCount == 0)
  }

  @Test func replaysUpToTheQuestionWithThePageUnderTheSheet() throws {
    let replay = try Replay(journalAt: Self.emptyTheCart)

    let asking = try replay.run(
      feature: Shop.feature, context: .test(clock: ManualClock()), throughStep: Self.askedToEmpty)

    #expect(asking.cartSheet?.confirmation == CartSheet.emptyConfirmation)
    #expect(asking.path.ids == [1])
    #expect(asking.topPage?.product.title == "Court Classic White")
    #expect(asking.cartCount == 1)
  }

  @Test func aChangedReducerFailsAtTheStepItChangesWithTheDiff() throws {
    // A regression: a second handler of the page's delegate event lists each add twice.
    let listsAddsTwice = Shop.feature.scope(
      Feature<[Product], Product, Never, ShopContext>(reduce: { $0.append($1) }),
      state: \.addedProducts,
      event: { _ in .openCart },  // never sent: the handler has no effects
      extract: { event in
        guard case .path(_, .product(.detail(.addedToCart(let product, _)))) = event else {
          return nil
        }
        return product
      },
      context: { $0 })

    let error = #expect(throws: ReplayError.self) {
      try Replay(journalAt: Self.emptyTheCart).run(
        feature: listsAddsTwice, context: .test(clock: ManualClock()))
    }

    guard case .diverged(let step, let event, let difference) = error else {
      Issue.record("expected a divergence, got \(String(describing: error))")
      return
    }
    #expect(step == Self.addedToCart)
    #expect(event.hasPrefix(".path(#1, .product(.detail(.addedToCart(Product(id: \"court-"))
    #expect(event.hasSuffix(" from #11 path[#1].product.detail: addToCart(id: 2)"))
    // The product is listed once more than the journal says, and nothing else differs.
    #expect(difference.contains("    addedProducts: [\n      Product(\n        id: \"court-"))
    #expect(difference.contains("\n+     Product(\n+       id: \"court-classic-white\"\n"))
    #expect(!difference.contains("\n−"))
  }
}

import ArchitectureKitTestSupport
import Foundation
import ProductDetailFeature
import Testing

/// The product page's recorded sessions, replayed: `pdp --record` journals become tests.
@MainActor
struct ProductDetailReplayTests {
  /// `printf 'aq' | pdp --speed 1000 --seed 3 --record pdp-failed-add-to-cart.jsonl`: the page
  /// loads, the user adds to the cart, the add fails (the seed's failure), the user quits.
  static let failedAddToCart = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Fixtures/Journals/pdp-failed-add-to-cart.jsonl").path

  @Test func theRecordedFailedAddToCartReplaysStateByState() throws {
    let replay = try Replay(journalAt: Self.failedAddToCart)

    let state = try replay.run(feature: ProductDetail.feature, context: .test())

    #expect(replay.steps == 1...4)
    #expect(replay.warnings.isEmpty)
    guard case .addToCartFailed(let product, .addToCartFailed) = state.screen else {
      Issue.record("the replay ended on \(state.screen)")
      return
    }
    #expect(product.title == "Yeezy Triple White")
    #expect(state.request == nil)
  }

  @Test func replaysUpToAStep() throws {
    let replay = try Replay(journalAt: Self.failedAddToCart)

    let adding = try replay.run(feature: ProductDetail.feature, context: .test(), throughStep: 3)

    #expect(adding.isAddingToCart)
    #expect(adding.request == .addToCart(id: 2))
  }

  @Test func aChangedReducerFailsAtTheStepItChangesWithTheDiff() throws {
    // A regression: a failed add shows the product as if nothing happened.
    let forgetful = Feature(
      reduce: { (state: inout ProductDetailState, event: ProductDetailEvent) in
        if case .failed = event, let product = state.product {
          state.screen = .productLoaded(product)
          state.request = nil
        } else {
          ProductDetail.reduce(&state, event)
        }
      },
      feedback: ProductDetail.feedback)

    let error = #expect(throws: ReplayError.self) {
      try Replay(journalAt: Self.failedAddToCart).run(feature: forgetful, context: .test())
    }

    guard case .diverged(let step, let event, let difference) = error else {
      Issue.record("expected a divergence, got \(String(describing: error))")
      return
    }
    #expect(step == 4)
    #expect(event == ".failed(Error adding to cart (code 15)) from #2 addToCart(id: 2)")
    #expect(difference.contains("−   screen: .addToCartFailed("))
    #expect(difference.contains("+   screen: .productLoaded("))
  }
}

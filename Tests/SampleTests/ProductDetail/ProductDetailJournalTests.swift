import ArchitectureKitTestSupport
import Foundation
import ProductDetailFeature
import Testing

/// The product page printed, recorded and redacted: the code of the "Debugging and Replay"
/// article, run.
@MainActor
struct ProductDetailJournalTests {
  /// Sends the events of a failed add, one at a time, each once the page is idle.
  func failAnAdd(on page: ProductDetailSystem) async {
    page.send(.loadProduct)
    for await state in page.states where state.request == nil { break }
    page.send(.addToCart)
    for await state in page.states where state.request == nil { break }
  }

  @Test func printsEachStepsChanges() async {
    var lines: [String] = []
    // Seed 3 rolls 2: the add fails.
    let page = ProductDetail.start(context: .test(seed: 3, latencies: .none))
    page.printChanges { line in lines.append(line) }
    await failAnAdd(on: page)

    // The lines that show the product itself are long: leave them out.
    #expect(
      lines.filter { !$0.contains("Yeezy") } == [
        "step 1: .loadProduct",
        "  screen: .start → .loading",
        "  request: nil → .loadProduct(id: 1)",
        "  requestCount: 0 → 1",
        "  started #1 loadProduct(id: 1)",
        "  request: .loadProduct(id: 1) → nil",
        "step 3: .addToCart",
        "  request: nil → .addToCart(id: 2)",
        "  requestCount: 1 → 2",
        "  started #2 addToCart(id: 2)",
        "step 4: .failed(Error adding to cart (code 15)) from #2 addToCart(id: 2)",
        "  request: .addToCart(id: 2) → nil",
      ])
  }

  @Test func keepsTheLastStepsForABugReport() async throws {
    let folder = try TemporaryDirectory()
    let reportPath = folder.path("report.jsonl")
    let context = ProductDetailContext.test(seed: 3, latencies: .none)

    let journal = Journal<ProductDetailState, ProductDetailEvent>(
      capacity: 500, states: .everyStep)
    let page = ProductDetail.start(context: context, journal: journal)
    await failAnAdd(on: page)
    // The user taps "Report a problem":
    try journal.write(toFile: reportPath)

    let replay = try Replay(journalAt: reportPath)
    let state = try replay.run(feature: ProductDetail.feature, context: .test())
    #expect(state == page.state)
  }

  @Test func keepsTheUsersNameOutOfTheJournal() async throws {
    let context = ProductDetailContext.test(seed: 1, latencies: .none)

    // The cart's answer names the user: keep it out.
    let redaction = JournalRedaction<ProductDetailState, ProductDetailEvent>(
      events: { event in
        guard case .addedToCart(let product, var response) = event else { return event }
        response.message = "(redacted)"
        return .addedToCart(product, response)
      },
      states: { state in
        guard case .addedToCart(let product, var response) = state.screen else { return state }
        response.message = "(redacted)"
        var state = state
        state.screen = .addedToCart(product, response)
        return state
      }
    )
    let journal = Journal(states: .everyStep, redaction: redaction)
    let page = ProductDetail.start(context: context, journal: journal)
    page.send(.loadProduct)
    for await state in page.states where state.request == nil { break }
    page.send(.addToCart)
    for await state in page.states where state.request == nil { break }

    let text = journal.lines.joined(separator: "\n")
    #expect(!text.contains("Richi"))
    #expect(text.contains("(redacted)"))
    if case .addedToCart(_, let response) = page.state.screen {
      #expect(response.message.hasSuffix("for user: Richi"))
    } else {
      Issue.record("the add did not succeed: \(page.state.screen)")
    }
  }
}

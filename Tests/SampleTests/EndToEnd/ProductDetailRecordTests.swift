import ArchitectureKitTestSupport
import Foundation
import ProductDetailFeature
import Testing

/// `pdp --record FILE`: the session's journal, scripted or at a terminal, replayed.
@Suite(.timeLimit(.minutes(10)))
@MainActor
struct ProductDetailRecordTests {
  let home: TemporaryDirectory

  init() throws {
    home = try TemporaryDirectory()
  }

  @Test func recordsAScriptedSessionThatReplays() async throws {
    let journal = home.path("session.jsonl")

    let run = try await ScriptedRun.run(
      "pdp", ["--speed", "1000", "--seed", "3", "--record", journal], input: "aaq", home: home)

    #expect(run.status == 0)
    let replay = try Replay(journalAt: journal)
    #expect(replay.steps == 1...6)
    let state = try replay.run(feature: ProductDetail.feature, context: .test())
    #expect(state.screen.isAddedToCart)
  }

  @Test func aSessionKilledMidwayKeepsEveryStepItShowed() async throws {
    let terminal = try PseudoTerminal(columns: 60)
    let run = try RecordingRun(launching: "pdp", ["--seed", "3"], on: terminal, home: home)
    _ = await terminal.read(until: "clean.")
    terminal.type("a")
    _ = await terminal.read(until: "Press a to try again")

    // What the page showed was written as it happened.
    let replay = try await run.kill()

    #expect(replay.steps == 1...4)
    let state = try replay.run(feature: ProductDetail.feature, context: .test())
    #expect(state.screen.isAddToCartFailed)
  }

  @Test func reportsAJournalFileItCannotWrite() async throws {
    let folder = home.path("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

    let run = try await ScriptedRun.run("pdp", ["--record", folder], input: "q", home: home)

    #expect(run.status == 1)
    #expect(run.errors.hasPrefix("pdp: The journal file \(folder) cannot be written: "))
  }
}

extension ProductDetailState.Screen {
  var isAddedToCart: Bool {
    if case .addedToCart = self { true } else { false }
  }

  var isAddToCartFailed: Bool {
    if case .addToCartFailed = self { true } else { false }
  }
}

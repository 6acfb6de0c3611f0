import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

@testable import App

/// Navigation where code is on the main actor by default, with a feature kept both ways a
/// `Feature` can be kept: in a `static let` of a main-actor type, and as a computed
/// `static var` of a nonisolated namespace.
///
/// A `static let` in a nonisolated namespace does not compile: `Feature` is not `Sendable`
/// ("static property 'feature' is not concurrency-safe because non-'Sendable' type
/// 'Feature<…>' may have shared mutable state"). The main-actor `static let` serves the
/// main-actor runtimes; only the computed one can be handed to a `BackgroundSystem`.
@Suite(.timeLimit(.minutes(10)))
struct ReaderTests {
  static let context = Reader.Context(fetch: { slug in "The text of \(slug)." })

  @Test func theMainActorsStoredFeatureRunsInATestSystem() async {
    let system = TestSystem(
      initialState: Reader.State(), context: Self.context, feature: ReaderScreen.feature)
    system.send(.open("swift")) { $0.path.append(Reader.Article.State(slug: "swift")) }
    system.expectStarted("swift", in: "path[#1]")
    system.run("swift", in: "path[#1]")
    await system.receive(.path(1, .loaded("The text of swift."))) {
      $0.path[id: 1]?.text = "The text of swift."
    }
    system.send(.settingsTapped) { $0.destination = .settings(Reader.Settings.State()) }
    system.send(.destination(.settings(.biggerTapped))) {
      $0.destination = .settings(Reader.Settings.State(fontSize: 16))
    }
    system.send(.destination(.settings(.closeTapped))) { $0.destination = nil }
    system.send(.path(1, .doneTapped)) { $0.path.removeLast() }
    await system.finish()
  }

  @Test func theMainActorsStoredFeatureRunsInASystem() async {
    let system = System(
      initialState: Reader.State(), context: Self.context, feature: ReaderScreen.feature)
    defer { system.stop() }
    await system.send(.open("swift"), while: { $0.path.first?.text == nil })
    #expect(system.state.path.first?.text == "The text of swift.")
  }

  @Test func theComputedFeatureRunsOffTheMainActor() async {
    let system = await BackgroundSystem(
      initialState: Reader.State(), context: Self.context, feature: Reader.feature)
    await system.send(.open("swift"), while: { $0.path.first?.text == nil })
    await system.send(.path(1, .doneTapped))
    #expect(await system.state.path.isEmpty)
    await system.stop()
  }
}

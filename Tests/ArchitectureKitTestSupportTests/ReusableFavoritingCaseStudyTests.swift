import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// TCA's Reusable Favoriting case study: a list of episodes with a favorite button each.
///
/// A tap toggles the choice at once and saves it in the background. Tapping again while the
/// save runs cancels it and saves the new choice; a failed save shows an alert, and dismissing
/// it puts the choice back.
///
/// Each row is a child of a `forEach`, with its own event-triggered save (`.cancelPrevious`:
/// TCA's `cancelInFlight`) and its alert (`dialog`). A row deleted while its save runs takes
/// the save with it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ReusableFavoritingCaseStudyTests {
  struct Episode: Identifiable, Equatable, Sendable {
    let id: Int
    var isFavorite = false
    var title = "Functions"
    @Presented var alert: DialogState<Never>?
  }

  struct FavoriteError: Error, Equatable {}

  enum EpisodeEvent: Equatable, Sendable {
    case favoriteButtonTapped
    case favoriteResponse(Result<Bool, FavoriteError>)
    case alert(Never?)
  }

  /// What a row saves: its episode and the choice.
  struct Favoriting: Equatable, Sendable {
    let id: Int
    let isFavorite: Bool
  }

  /// The favoriting service: saves a choice and answers the choice saved.
  typealias Favorite = @Sendable (_ id: Int, _ isFavorite: Bool) async throws -> Bool

  nonisolated static var episode: Feature<Episode, EpisodeEvent, Never, Favorite> {
    Feature(
      reduce: { episode, event in
        switch event {
        case .favoriteButtonTapped: episode.isFavorite.toggle()
        case .favoriteResponse(.success(let isFavorite)): episode.isFavorite = isFavorite
        case .favoriteResponse(.failure): episode.alert = .alert(title: "Favoriting failed.")
        case .alert: episode.isFavorite.toggle()
        }
      },
      feedback: [
        .react(
          on: { event, episode in
            event == .favoriteButtonTapped
              ? Favoriting(id: episode.id, isFavorite: episode.isFavorite) : nil
          },
          policy: .cancelPrevious,
          effect: .run { favoriting, favorite in
            do {
              let saved = try await favorite(favoriting.id, favoriting.isFavorite)
              return .favoriteResponse(.success(saved))
            } catch {
              return .favoriteResponse(.failure(FavoriteError()))
            }
          })
      ]
    )
    .dialog(\.$alert, event: EpisodeEvent.alert)
  }

  struct Episodes: Equatable {
    var episodes: [Episode]
  }

  enum Event: Equatable, Sendable {
    case episode(Int, EpisodeEvent)
    case delete(Int)
  }

  nonisolated static var episodes: Feature<Episodes, Event, Never, Favorite> {
    Feature(reduce: { state, event in
      if case .delete(let id) = event { state.episodes.removeAll { $0.id == id } }
    })
    .forEach(Self.episode, elements: \.episodes, event: Event.episode, context: { $0 })
  }

  func makeSystem(favorite: @escaping Favorite, clock: ManualClock) -> TestSystem<
    Episodes, Event, Never, Favorite
  > {
    TestSystem(
      initialState: Episodes(episodes: (0..<3).map { Episode(id: $0) }), context: favorite,
      feature: Self.episodes, clock: clock, effects: .automatic)
  }

  @Test func aTapSavesTheChoiceAndASecondTapReplacesTheSaveInFlight() async {
    let clock = ManualClock()
    let system = makeSystem(
      favorite: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        return isFavorite
      },
      clock: clock)
    system.send(.episode(0, .favoriteButtonTapped)) { $0.episodes[0].isFavorite = true }
    await clock.advance(by: .seconds(1))
    await system.receive(.episode(0, .favoriteResponse(.success(true))))

    system.send(.episode(1, .favoriteButtonTapped)) { $0.episodes[1].isFavorite = true }
    system.send(.episode(1, .favoriteButtonTapped)) { $0.episodes[1].isFavorite = false }
    system.expectCancelled(Favoriting(id: 1, isFavorite: true), in: "episodes[1]")
    await clock.advance(by: .seconds(1))
    await system.receive(.episode(1, .favoriteResponse(.success(false))))
    await system.finish()
  }

  @Test func aFailedSaveShowsAnAlertWhoseDismissalPutsTheChoiceBack() async {
    let system = makeSystem(favorite: { _, _ in throw FavoriteError() }, clock: ManualClock())
    system.send(.episode(0, .favoriteButtonTapped)) { $0.episodes[0].isFavorite = true }
    await system.receive(.episode(0, .favoriteResponse(.failure(FavoriteError())))) {
      $0.episodes[0].alert = .alert(title: "Favoriting failed.")
    }
    system.send(.episode(0, .alert(nil))) {
      $0.episodes[0].alert = nil
      $0.episodes[0].isFavorite = false
    }
    await system.finish()
  }

  /// In the app: the service's every save waits until the test answers it, or until it is
  /// cancelled.
  @Test func aRowDeletedWhileItSavesTakesTheSaveWithIt() async {
    let asked = Recorder<Favoriting>()
    let cancelled = Recorder<Favoriting>()
    let answered = Gate()
    let system = System(
      initialState: Episodes(episodes: (0..<3).map { Episode(id: $0) }),
      context: { id, isFavorite in
        asked.record(Favoriting(id: id, isFavorite: isFavorite))
        guard await answered.opens() else {
          cancelled.record(Favoriting(id: id, isFavorite: isFavorite))
          throw CancellationError()
        }
        return isFavorite
      },
      feature: Self.episodes)
    let finished = Recorder<String>()
    system.addObserver { activity in
      if case .effectFinished(let request) = activity { finished.record("\(request)") }
    }
    system.send(.episode(1, .favoriteButtonTapped))
    system.send(.episode(2, .favoriteButtonTapped))
    await asked.wait(count: 2)
    system.send(.delete(1))
    await cancelled.wait()
    #expect(cancelled.values == [Favoriting(id: 1, isFavorite: true)])
    let rowTwosSave = "episodes[2]: \(Favoriting(id: 2, isFavorite: true))"
    #expect(system.runningRequests.map(\.description) == [rowTwosSave])
    // The other row's save goes on, and its answer reaches its row.
    answered.open()
    await finished.wait()
    #expect(finished.values == [rowTwosSave])
    #expect(system.state.episodes.map(\.id) == [0, 2])
    #expect(system.state.episodes.map(\.isFavorite) == [false, true])
    #expect(system.runningRequests.isEmpty)
  }
}

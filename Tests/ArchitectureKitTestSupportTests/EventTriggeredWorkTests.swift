import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// TCA's Search case study without its bookkeeping: the search starts on the debounced event,
/// its trigger reads the query from the state, and clearing the query cancels the search in
/// flight — no state field exists only to keep the work alive or to cancel it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct EventTriggeredWorkTests {
  struct State: Equatable {
    var searchQuery = ""
    var results: [String] = []
  }

  enum Event: Equatable, Sendable {
    case searchQueryChanged(String)
    case searchQueryChangeDebounced
    case searchResponse([String])
  }

  /// The weather client's search: a second on the clock, then the places whose name has the
  /// query in it.
  struct Context: Sendable {
    let clock: ManualClock
    func search(_ query: String) async throws(CancellationError) -> [String] {
      do { try await clock.sleep(for: .seconds(1)) } catch { throw CancellationError() }
      return ["Sanaa", "Seattle", "Sydney"].filter { $0.contains(query) }
    }
  }

  nonisolated static var search: Feature<State, Event, CancellationError, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .searchQueryChanged(let query):
          state.searchQuery = query
          if query.isEmpty { state.results = [] }
        case .searchQueryChangeDebounced: break
        case .searchResponse(let results): state.results = results
        }
      },
      feedback: [
        .react(
          on: { event, state in
            event == .searchQueryChangeDebounced && !state.searchQuery.isEmpty
              ? state.searchQuery : nil
          },
          policy: .cancelPrevious,
          until: { _, state in state.searchQuery.isEmpty },
          effect: .run { query, context throws(CancellationError) in
            .searchResponse(try await context.search(query))
          })
      ])
  }

  func makeSystem() -> (TestSystem<State, Event, CancellationError, Context>, ManualClock) {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: State(), context: Context(clock: clock), feature: Self.search, clock: clock,
      effects: .automatic)
    return (system, clock)
  }

  @Test func aDebouncedQuerySearchesWithTheQueryInTheState() async {
    let (system, clock) = makeSystem()
    system.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    system.send(.searchQueryChangeDebounced)
    await clock.advance(by: .seconds(1))
    await system.receive(.searchResponse(["Sanaa", "Seattle", "Sydney"])) {
      $0.results = ["Sanaa", "Seattle", "Sydney"]
    }
    await system.finish()
  }

  @Test func clearingTheQueryCancelsTheSearchInFlight() async {
    let (system, clock) = makeSystem()
    system.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    system.send(.searchQueryChangeDebounced)
    system.send(.searchQueryChanged("")) { $0.searchQuery = "" }
    system.expectCancelled("S")
    await clock.advance(by: .seconds(1))
    await system.finish()
  }

  @Test func aNewDebouncedQueryCancelsThePreviousSearch() async {
    let (system, clock) = makeSystem()
    system.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    system.send(.searchQueryChangeDebounced)
    system.send(.searchQueryChanged("Se")) { $0.searchQuery = "Se" }
    system.send(.searchQueryChangeDebounced)
    system.expectCancelled("S")
    await clock.advance(by: .seconds(1))
    await system.receive(.searchResponse(["Seattle"])) { $0.results = ["Seattle"] }
    await system.finish()
  }

  @Test func anEventTheTriggerIgnoresLeavesTheSearchRunning() async {
    let (system, clock) = makeSystem()
    system.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    system.send(.searchQueryChangeDebounced)
    system.send(.searchQueryChanged("Sy")) { $0.searchQuery = "Sy" }
    await clock.advance(by: .seconds(1))
    await system.receive(.searchResponse(["Sanaa", "Seattle", "Sydney"])) {
      $0.results = ["Sanaa", "Seattle", "Sydney"]
    }
    await system.finish()
  }
}

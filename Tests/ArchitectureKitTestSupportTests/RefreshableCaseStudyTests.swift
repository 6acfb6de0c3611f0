import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// TCA's Refreshable case study: a counter, and a fact about its number fetched when the user
/// pulls to refresh; a button cancels the fetch.
///
/// The view keeps its spinner while the fetch runs with
/// `.refreshable { await system.attach(.refresh) }`: the call returns when the fetch ends, and
/// SwiftUI cancelling the refresh's task (the list left the screen) cancels the fetch. The fetch
/// is event-triggered work that the cancel button's event ends: no state field exists only to
/// keep it alive or to cancel it.
///
/// The tests wait for the refresh's task as SwiftUI does, through `awaitEnd(of:)`, which
/// cancels it past its failsafe: a refresh that never ends fails its test instead of hanging it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct RefreshableCaseStudyTests {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }

  struct FactError: Error, Equatable {}

  enum Event: Equatable, Sendable {
    case cancelButtonTapped
    case decrementButtonTapped
    case incrementButtonTapped
    case factResponse(Result<String, FactError>)
    case refresh
  }

  struct Context: Sendable {
    let fetch: @Sendable (Int) async throws -> String
  }

  nonisolated static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .cancelButtonTapped, .factResponse(.failure): break
        case .decrementButtonTapped: state.count -= 1
        case .incrementButtonTapped: state.count += 1
        case .factResponse(.success(let fact)): state.fact = fact
        case .refresh: state.fact = nil
        }
      },
      feedback: [
        .react(
          on: { event, state in event == .refresh ? state.count : nil },
          policy: .cancelPrevious,
          until: { event, _ in event == .cancelButtonTapped },
          effect: .run { count, context in
            do {
              return .factResponse(.success(try await context.fetch(count)))
            } catch {
              return .factResponse(.failure(FactError()))
            }
          })
      ])
  }

  /// The fact service as a test controls it: each fetch waits until the test answers, or until
  /// its task is cancelled.
  final class FactServer: Sendable {
    /// The numbers asked about, in order.
    let asked = Recorder<Int>()
    private let answered = Gate()

    func fetch(_ count: Int) async throws -> String {
      asked.record(count)
      guard await answered.opens() else { throw CancellationError() }
      return "\(count) is a good number."
    }

    func answer() {
      answered.open()
    }
  }

  // MARK: In a test, as TCA's RefreshableTests

  /// A test's system at count 0, whose effects run as they start, fetching with `fetch`: by
  /// default a fact service that answers only when told (these tests never tell it).
  func makeTestSystem(
    fetch: @escaping @Sendable (Int) async throws -> String = FactServer().fetch
  ) -> TestSystem<State, Event, Never, Context> {
    TestSystem(
      initialState: State(), context: Context(fetch: fetch), feature: Self.feature,
      effects: .automatic)
  }

  @Test func theFactArrivesAfterARefresh() async {
    let system = makeTestSystem(fetch: { "\($0) is a good number." })
    system.send(.incrementButtonTapped) { $0.count = 1 }
    system.send(.refresh)
    await system.receive(.factResponse(.success("1 is a good number."))) {
      $0.fact = "1 is a good number."
    }
    await system.finish()
  }

  @Test func aFailedFetchLeavesTheFactOut() async {
    let system = makeTestSystem(fetch: { _ in throw FactError() })
    system.send(.incrementButtonTapped) { $0.count = 1 }
    system.send(.refresh)
    await system.receive(.factResponse(.failure(FactError())))
    await system.finish()
  }

  @Test func theCancelButtonCancelsTheFetch() async {
    let system = makeTestSystem()
    system.send(.incrementButtonTapped) { $0.count = 1 }
    system.send(.refresh)
    system.send(.cancelButtonTapped)
    system.expectCancelled(1)
    await system.finish()
  }

  @Test func theRefreshsTaskCancelledCancelsTheFetch() async {
    let system = makeTestSystem()
    let refresh = system.attach(.refresh)
    refresh.cancel()
    system.expectCancelled(0)
    await system.finish()
  }

  /// The first mistake this port made: the request is the count, an `Int`, and `"1"` reads
  /// the same in the list of requests; the failure says why it does not match.
  @Test func aRequestExpectedWithAnotherTypeSaysSo() async {
    let server = FactServer()
    let system = TestSystem(
      initialState: State(count: 1), context: Context(fetch: server.fetch),
      feature: Self.feature, effects: .manual)
    system.send(.refresh)
    let failures = await capturingFailures {
      system.expectStarted("1")
      system.run("1")
    }
    let hint =
      #"The request 1 is of type Int, the expected "1" of type String: a request matches only "#
      + "a value of its own type."
    #expect(
      failures == [
        #"Expected the request 1 to have started; started: ["1"]. "# + hint,
        #"No effect waits for the test with the request 1; waiting: ["1"]. "# + hint,
      ])
    system.expectStarted(1)
    system.send(.cancelButtonTapped)
    system.expectCancelled(1)
    await system.finish()
  }

  // MARK: In the app

  /// The app's system at count 1, and the fact service it fetches from.
  func makeApp() -> (System<State, Event, Never, Context>, FactServer) {
    let server = FactServer()
    let system = System(
      initialState: State(count: 1), context: Context(fetch: server.fetch),
      feature: Self.feature)
    return (system, server)
  }

  @Test func theSpinnerStaysUntilTheFactArrives() async {
    let (system, server) = makeApp()
    var spinning = true
    let refresh = Task {
      await system.attach(.refresh)
      spinning = false
    }
    await server.asked.wait()
    #expect(spinning)
    server.answer()
    #expect(await awaitEnd(of: refresh), "the refresh never ended")
    #expect(system.state.fact == "1 is a good number.")
    #expect(system.runningRequests.isEmpty)
  }

  @Test func endingTheRefreshCancelsTheFetch() async {
    let (system, server) = makeApp()
    var cancelled: [String] = []
    system.addObserver { activity in
      if case .effectCancelled(let request) = activity { cancelled.append("\(request)") }
    }
    let refresh = Task { await system.attach(.refresh) }
    await server.asked.wait()
    refresh.cancel()
    #expect(await awaitEnd(of: refresh), "the refresh never ended")
    #expect(cancelled == ["1"])
    // The answer comes too late: the fetch it would have ended is gone.
    server.answer()
    system.send(.incrementButtonTapped)
    #expect(system.state == State(count: 2, fact: nil))
    #expect(system.runningRequests.isEmpty)
  }

  @Test func theCancelButtonEndsTheRefresh() async {
    let (system, server) = makeApp()
    let refresh = Task { await system.attach(.refresh) }
    await server.asked.wait()
    system.send(.cancelButtonTapped)
    #expect(await awaitEnd(of: refresh), "the refresh never ended")
    #expect(system.state.fact == nil)
    #expect(system.runningRequests.isEmpty)
  }

  @Test func aSecondPullRestartsTheFetchForTheNewCount() async {
    let (system, server) = makeApp()
    let first = Task { await system.attach(.refresh) }
    await server.asked.wait()
    system.send(.incrementButtonTapped)
    let second = Task { await system.attach(.refresh) }
    await server.asked.wait(count: 2)
    #expect(await awaitEnd(of: first), "the refresh never ended")
    #expect(system.runningRequests.map(\.description) == ["2"])
    server.answer()
    #expect(await awaitEnd(of: second), "the refresh never ended")
    #expect(system.state == State(count: 2, fact: "2 is a good number."))
    #expect(server.asked.values == [1, 2])
  }
}

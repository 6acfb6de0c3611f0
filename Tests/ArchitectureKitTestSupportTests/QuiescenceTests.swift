import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// A ``TestSystem`` knows when nothing can happen without the test.
///
/// Also while its effects wait on what the test controls: a stream it yields into, a
/// continuation in a fake backend, an actor, a task group's children asleep on the clock. Such
/// waits never stall a wait of the
/// harness (each of these tests would otherwise run into the five-second failsafe and fail).
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct QuiescenceTests {
  /// How many times each scenario runs in a row.
  nonisolated static let runs = 50

  // MARK: A fake socket

  /// A socket the test feeds: messages are yielded into a stream the effect iterates.
  struct Socket: Sendable {
    let messages: AsyncStream<String>
    let input: AsyncStream<String>.Continuation

    init() {
      (messages, input) = AsyncStream.makeStream(of: String.self)
    }
  }

  enum SocketEvent: Equatable, Sendable {
    case connect, disconnect
    case received(String)
  }

  struct SocketState: Equatable {
    var isConnected = false
    var received: [String] = []
  }

  nonisolated static func socketFeature() -> Feature<SocketState, SocketEvent, Never, Socket> {
    Feature(
      reduce: { state, event in
        switch event {
        case .connect: state.isConnected = true
        case .disconnect: state.isConnected = false
        case .received(let message): state.received.append(message)
        }
      },
      feedback: [
        .react(
          request: { $0.isConnected ? "socket" : nil },
          effect: .stream { _, socket, send in
            for await message in socket.messages { await send(.received(message)) }
          })
      ])
  }

  @Test(arguments: 0..<runs)
  func aFakeSocketsMessagesArriveWithoutAFailsafe(_ run: Int) async {
    let socket = Socket()
    let system = TestSystem(
      initialState: SocketState(), context: socket, feature: Self.socketFeature())
    system.send(.connect) { $0.isConnected = true }
    system.expectStarted("socket")
    system.run("socket")
    await system.settle()
    socket.input.yield("a")
    await system.receive(.received("a")) { $0.received = ["a"] }
    socket.input.yield("b")
    socket.input.yield("c")
    await system.receive(.received("b")) { $0.received = ["a", "b"] }
    await system.receive(.received("c")) { $0.received = ["a", "b", "c"] }
    await system.settle()
    system.send(.disconnect) { $0.isConnected = false }
    system.expectCancelled("socket")
    await system.finish()
  }

  // MARK: A gated fake backend

  /// A backend whose answers the test gives: each search waits on a continuation until the
  /// test answers it.
  actor Backend {
    private var waiting: [String: CheckedContinuation<[String], Never>] = [:]

    func search(_ query: String) async -> [String] {
      await withCheckedContinuation { waiting[query] = $0 }
    }

    /// Whether a search for `query` waits for its answer.
    func isWaiting(for query: String) -> Bool { waiting[query] != nil }

    func answer(_ query: String, with results: [String]) {
      waiting.removeValue(forKey: query)?.resume(returning: results)
    }
  }

  struct SearchContext: Sendable {
    let backend: Backend
    let clock: ManualClock
  }

  struct SearchState: Equatable {
    var query = ""
    var results: [String] = []
  }

  enum SearchEvent: Equatable, Sendable {
    case typed(String)
    case found([String])
  }

  nonisolated static func searchFeature() -> Feature<SearchState, SearchEvent, Never, SearchContext>
  {
    Feature(
      reduce: { state, event in
        switch event {
        case .typed(let query): state.query = query
        case .found(let results): state.results = results
        }
      },
      feedback: [
        Feedback.react(
          request: { $0.query.isEmpty ? nil : $0.query },
          effect: .run { query, context in .found(await context.backend.search(query)) }
        )
        .debounced(for: .milliseconds(300), clock: \.clock)
      ])
  }

  @Test(arguments: 0..<runs)
  func aDebouncedSearchAgainstAGatedBackendNeverStalls(_ run: Int) async {
    let context = SearchContext(backend: Backend(), clock: ManualClock())
    let system = TestSystem(
      initialState: SearchState(), context: context, feature: Self.searchFeature(),
      clock: context.clock)
    system.send(.typed("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    // The debounce sleeps, then the search waits for the backend: the advance ends there.
    await context.clock.advance(by: .milliseconds(300))
    #expect(await context.backend.isWaiting(for: "a"))
    await context.backend.answer("a", with: ["apple"])
    await system.receive(.found(["apple"])) { $0.results = ["apple"] }
    await system.finish()
  }

  // MARK: A task group whose child sleeps on the clock

  @Test(arguments: 0..<runs)
  func aTaskGroupsChildAsleepOnTheClockIsWokenByAnAdvance(_ run: Int) async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: [Int](), context: clock,
      reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.isEmpty ? "pages" : nil },
          effect: .run { _, clock in
            await withTaskGroup(of: Int.self) { group in
              for page in 1...3 {
                group.addTask {
                  try? await clock.sleep(for: .seconds(page))
                  return page
                }
              }
              return await group.reduce(0, +)
            }
          })
      ],
      clock: clock)
    system.expectStarted("pages")
    system.run("pages")
    await clock.advance(by: .seconds(2))
    await system.settle()
    await clock.advance(by: .seconds(1))
    await system.receive(6) { $0 = [6] }
    await system.finish()
  }

  // MARK: An actor

  actor Counter {
    private(set) var count = 0

    func increment() -> Int {
      count += 1
      return count
    }
  }

  @Test(arguments: 0..<runs)
  func anEffectCallingAFakeActorEndsAtOnce(_ run: Int) async {
    let counter = Counter()
    let system = TestSystem(
      initialState: [Int](), context: counter, reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.count < 2 ? $0.count : nil },
          effect: .run { _, counter in await counter.increment() })
      ])
    system.expectStarted(0)
    system.run(0)
    await system.receive(1) { $0 = [1] }
    system.expectStarted(1)
    system.run(1)
    await system.receive(2) { $0 = [1, 2] }
    await system.finish()
  }

  // MARK: finish waits for cancelled effects

  @Test(arguments: 0..<runs)
  func finishReturnsOnceACancelledEffectsCleanupHasRun(_ run: Int) async {
    let socket = Socket()
    let terminated = Recorder<Bool>()
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    let system = TestSystem<SocketState, SocketEvent, Never, Socket>(
      initialState: SocketState(), context: socket,
      reduce: { state, event in if event == .connect { state.isConnected = true } },
      feedback: [
        .react(
          request: { $0.isConnected ? "socket" : nil },
          effect: .stream { _, _, send in
            // Runs once the effect's task resumes after its cancellation: the cleanup `finish`
            // waits for.
            defer { terminated.record(true) }
            for await message in stream { await send(.received(message)) }
          })
      ],
      exhaustivity: .off)
    system.send(.connect)
    system.run("socket")
    await system.settle()
    #expect(terminated.values.isEmpty)
    await system.finish()
    #expect(terminated.values == [true])
    continuation.finish()
  }
}

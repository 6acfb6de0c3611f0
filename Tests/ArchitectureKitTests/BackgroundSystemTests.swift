import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

@Suite(.timeLimit(.minutes(10)))
struct BackgroundSystemTests {
  typealias SearchSystem = BackgroundSystem<Search, SearchEvent, CounterError, Gates>
  typealias SearchLog = Recorder<SystemActivity<Search, SearchEvent, CounterError>>

  static func reduce(_ state: inout Search, _ event: SearchEvent) {
    switch event {
    case .search(let query): state.query = query
    case .result(let result): state.results.append(result)
    }
  }

  /// The search effect of ``FeedbackTests``: waits for its gate, records its cancellation.
  ///
  /// A cancelled search also opens its gate, so its (late, stale) result still comes back.
  static func searchFeedback() -> Feedback<Search, SearchEvent, CounterError, Gates> {
    .react(
      request: \.query,
      effect: .run { query, gates in
        await withTaskCancellationHandler {
          await gates.release[query].wait()
        } onCancel: {
          gates.cancelled[query].open()
          // Unlike the main-actor version, end the work too, so no task outlives its test.
          gates.release[query].open()
        }
        return .result(query)
      }
    )
  }

  static func inlineSearchFeedback() -> Feedback<Search, SearchEvent, CounterError, Gates> {
    .react(request: \.query, effects: { .pure(.result($0)) })
  }

  @Test func aRequestInTheInitialStateStartsDuringCreation() async {
    let system = await SearchSystem(
      initialState: Search(query: "a"), context: Gates(), reduce: Self.reduce,
      feedback: [Self.inlineSearchFeedback()]
    )
    #expect(await system.state == Search(query: "a", results: ["a"]))
  }

  @Test func sendReturnsOnceTheEventAndWhatItLedToSynchronouslyAreReduced() async {
    let system = await SearchSystem(
      initialState: Search(), context: Gates(), reduce: Self.reduce,
      feedback: [Self.inlineSearchFeedback()]
    )
    await system.send(.search("x"))
    #expect(await system.state == Search(query: "x", results: ["x"]))
  }

  @Test func thePureReducerFormReducesEveryEvent() async {
    let system = await BackgroundSystem<Int, CounterEvent, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reducer: counterReducer
    )
    await system.send(.increment)
    await system.send(.increment)
    await system.send(.decrement)
    #expect(await system.state == 1)
  }

  @Test func eventsSentDuringAStepAreQueuedBehindIt() async {
    let system = await BackgroundSystem<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) }
    )
    let seen = Recorder<[Int]>()
    await system.addLoopCallback { [weak system] state in
      seen.record(state)
      guard state == [1], let system else { return }
      // Loop callbacks run on the system's actor, so they may send without a hop.
      system.assumeIsolated { system in
        system.send(2)
        system.send(3)
        #expect(system.state == [1])
      }
    }
    await system.send(1)
    #expect(await system.state == [1, 2, 3])
    #expect(seen.values == [[1], [1, 2], [1, 2, 3]])
  }

  @Test func aChangedRequestCancelsTheOldEffectAndDropsItsLateResult() async {
    let gates = Gates()
    let system = await SearchSystem(
      initialState: Search(), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback()]
    )
    let log = SearchLog()
    await log.observe(system)
    await system.send(.search("a"))
    await system.send(.search("b"))
    #expect(log.started.map { "\($0.value)" } == ["a", "b"])
    #expect(log.cancelled.map { "\($0.value)" } == ["a"])
    await gates.cancelled["a"].waitUnlessCancelled()
    await log.wait {
      if case .eventIgnored(.result("a"), .cancelledEffect) = $0 { true } else { false }
    }
    gates.release["b"].open()
    await log.wait { if case .step(.result("b"), _, _) = $0 { true } else { false } }
    #expect(await system.state.results == ["b"])
    await system.stop()
  }

  @Test func anEqualRequestKeepsItsEffectAndAVanishingOneIsCancelled() async {
    let gates = Gates()
    let system = await SearchSystem(
      initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback()]
    )
    let log = SearchLog()
    await log.observe(system)
    await system.send(.search("a"))
    #expect(log.cancelled.isEmpty)
    await system.send(.search(nil))
    #expect(log.cancelled.map { "\($0.value)" } == ["a"])
    await gates.cancelled["a"].waitUnlessCancelled()
  }

  @Test func stopCancelsEffectsAndLaterEventsAreIgnoredAndReported() async {
    let gates = Gates()
    let system = await SearchSystem(
      initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback()]
    )
    let log = SearchLog()
    await log.observe(system)
    await system.stop()
    await gates.cancelled["a"].waitUnlessCancelled()
    await system.send(.search("b"))
    await system.stop()
    #expect(await system.isStopped)
    #expect(await system.state == Search(query: "a"))
    #expect(log.cancelled.map { "\($0.value)" } == ["a"])
    // The cancelled search's late result is dropped too, as stale.
    await log.wait {
      if case .eventIgnored(.result("a"), .cancelledEffect) = $0 { true } else { false }
    }
    #expect(log.ignored.filter { $0.1 == .stopped }.map(\.0) == [.search("b")])
    #expect(await system.state == Search(query: "a"))
  }

  @Test func statesDeliversTheCurrentStateThenEveryLaterStateUntilStop() async {
    let system = await BackgroundSystem<Int, CounterEvent, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reducer: counterReducer
    )
    let states = await system.states
    await system.send(.increment)
    await system.send(.increment)
    await system.stop()
    var received: [Int] = []
    for await state in states { received.append(state) }
    #expect(received == [0, 1, 2])
    // A stream asked for after the stop holds the last state and finishes at once.
    var late: [Int] = []
    for await state in await system.states { late.append(state) }
    #expect(late == [2])
  }

  @Test func releasingABackgroundSystemFreesItAndCancelsItsEffects() async {
    let gates = Gates()
    weak var weakSystem: SearchSystem?
    do {
      let system = await SearchSystem(
        initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
        feedback: [Self.searchFeedback()]
      )
      weakSystem = system
    }
    #expect(weakSystem == nil)
    await gates.cancelled["a"].waitUnlessCancelled()
  }

  @Test func aFailedEffectIsReportedAndTheSystemGoesOn() async {
    let system = await BackgroundSystem<Int, Int, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 += $1 },
      feedback: [
        .react(request: { $0 == 1 ? "fail" : nil }, effects: { _ in .failure(.generic) }),
        .react(
          request: { $0 == 2 ? "throw" : nil },
          effect: .run { _, _ throws(CounterError) in throw .generic }),
      ]
    )
    let log = Recorder<SystemActivity<Int, Int, CounterError>>()
    await log.observe(system)
    await system.send(1)
    #expect(await system.state == 1)
    #expect(log.failures == [.generic])
    await system.send(1)
    await log.wait(count: 2) { if case .effectFailed = $0 { true } else { false } }
    await system.send(10)
    #expect(await system.state == 12)
  }

  @Test func aStreamEffectSendsManyEventsInOrder() async {
    let system = await BackgroundSystem<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.count < 100 ? "go" : nil },
          effect: .stream { _, _, send in
            for value in 1...100 { await send(value) }
          })
      ]
    )
    for await state in await system.states where state.count == 100 { break }
    #expect(await system.state == Array(1...100))
  }

  /// Each system relays `hops` events through real effects while the test sends it 100 more.
  struct Relay: Sendable, Equatable {
    var hops = 0
    var received = 0
    /// Events an effect sent with another system's context: must stay 0.
    var foreign = 0
  }

  enum RelayEvent: Sendable {
    case hop(from: Int)
    case add(Int)
  }

  @Test func manySystemsRunInParallelEachWithItsOwnStateAndContext() async {
    let systemCount = 200
    let hops = 50
    let expected = Relay(hops: hops, received: (1...100).reduce(0, +), foreign: 0)
    let finals = await withTaskGroup(of: (Int, Relay).self) { group in
      for index in 0..<systemCount {
        group.addTask {
          let system = await BackgroundSystem<Relay, RelayEvent, Never, Int>(
            initialState: Relay(),
            context: index,
            reduce: { state, event in
              switch event {
              case .hop(let from):
                state.hops += 1
                if from != index { state.foreign += 1 }
              case .add(let amount):
                state.received += amount
              }
            },
            feedback: [
              .react(
                request: { $0.hops < hops ? $0.hops : nil },
                effect: .run { _, index in .hop(from: index) })
            ]
          )
          let states = await system.states
          for amount in 1...100 { await system.send(.add(amount)) }
          for await state in states
          where state.hops == expected.hops && state.received == expected.received {
            break
          }
          await system.stop()
          return (index, await system.state)
        }
      }
      var finals: [Int: Relay] = [:]
      for await (index, final) in group { finals[index] = final }
      return finals
    }
    #expect(finals.count == systemCount)
    #expect(finals.values.filter { $0 != expected }.isEmpty)
  }
}

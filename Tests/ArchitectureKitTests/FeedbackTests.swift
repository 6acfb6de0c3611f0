import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct FeedbackTests {
  typealias SearchSystem = System<Search, SearchEvent, CounterError, Gates>

  static func reduce(_ state: inout Search, _ event: SearchEvent) {
    switch event {
    case .search(let query): state.query = query
    case .result(let result): state.results.append(result)
    }
  }

  /// An async effect that waits for its gate, records cancellation, and returns its result.
  static let searchFeedback = Feedback<Search, SearchEvent, CounterError, Gates>.react(
    request: \.query,
    effect: .run { query, gates in
      await withTaskCancellationHandler {
        await gates.release[query].wait()
      } onCancel: {
        gates.cancelled[query].open()
      }
      return .result(query)
    }
  )

  @Test func aRequestInTheInitialStateStartsAtOnce() {
    let system = SearchSystem(
      initialState: Search(query: "a"), context: Gates(), reduce: Self.reduce,
      feedback: [.react(request: \.query, effects: { .pure(.result($0)) })]
    )
    #expect(system.state.results == ["a"])
  }

  @Test func anEqualRequestKeepsItsEffect() {
    let system = SearchSystem(
      initialState: Search(), context: Gates(), reduce: Self.reduce,
      feedback: [Self.searchFeedback]
    )
    let log = Recorder(observing: system)
    system.send(.search("a"))
    system.send(.search("a"))
    #expect(log.started.map { "\($0.value)" } == ["a"])
    #expect(log.cancelled.isEmpty)
    system.stop()
  }

  @Test func aChangedRequestCancelsTheOldEffectAndDropsItsLateResult() async {
    let gates = Gates()
    let system = SearchSystem(
      initialState: Search(), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback]
    )
    let log = Recorder(observing: system)
    system.send(.search("a"))
    system.send(.search("b"))
    #expect(log.started.map { "\($0.value)" } == ["a", "b"])
    #expect(log.cancelled.map { "\($0.value)" } == ["a"])
    // The old effect's task observes cancellation...
    await gates.cancelled["a"].wait()
    // ...and its result, produced anyway, is dropped.
    gates.release["a"].open()
    await log.wait {
      if case .eventIgnored(.result("a"), .cancelledEffect) = $0 { true } else { false }
    }
    gates.release["b"].open()
    await log.wait { if case .step(.result("b"), _, _) = $0 { true } else { false } }
    #expect(system.state.results == ["b"])
  }

  @Test func aVanishingRequestCancelsItsEffect() async {
    let gates = Gates()
    let system = SearchSystem(
      initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback]
    )
    let log = Recorder(observing: system)
    system.send(.search(nil))
    #expect(log.cancelled.map { "\($0.value)" } == ["a"])
    await gates.cancelled["a"].wait()
  }

  @Test func aFinishedEffectLeavesItsRequestInPlace() async {
    let gates = Gates()
    let system = SearchSystem(
      initialState: Search(), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback]
    )
    let log = Recorder(observing: system)
    system.send(.search("a"))
    gates.release["a"].open()
    await log.wait { if case .effectFinished = $0 { true } else { false } }
    await log.wait { if case .step(.result("a"), _, _) = $0 { true } else { false } }
    system.send(.search("a"))
    #expect(log.started.count == 1)
    // Vanishing and coming back restarts it.
    system.send(.search(nil))
    system.send(.search("a"))
    #expect(log.started.count == 2)
    #expect(log.cancelled.isEmpty)
    system.stop()
  }

  @Test func anEffectCompletingInlineDeliversAfterTheCurrentStep() {
    var order: [String] = []
    let system = SearchSystem(
      initialState: Search(), context: Gates(), reduce: Self.reduce,
      feedback: [.react(request: \.query, effects: { .pure(.result($0)) })]
    )
    system.addUIBinding { order.append("render \($0.query ?? "-") \($0.results)") }
    system.send(.search("x"))
    #expect(order == ["render - []", "render x []", "render x [\"x\"]"])
  }

  @Test func aFailedEffectLeavesTheStateAndTheSystemGoesOn() async {
    let system = System<Int, Int, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 += $1 },
      feedback: [
        .react(request: { $0 == 1 ? "fail" : nil }, effects: { _ in .failure(.generic) }),
        .react(
          request: { $0 == 2 ? "throw" : nil },
          effect: .run { _, _ throws(CounterError) in throw .generic }),
      ]
    )
    let log = Recorder(observing: system)
    system.send(1)
    #expect(system.state == 1)
    #expect(log.failures == [.generic])
    system.send(1)
    await log.wait(count: 2) { if case .effectFailed = $0 { true } else { false } }
    system.send(10)
    #expect(system.state == 12)
  }

  @Test func setRequestsStartAndCancelPerElement() {
    let system = System<Set<Int>, Set<Int>, Never, EmptyContext>(
      initialState: [1, 2], context: EmptyContext(), reduce: { $0 = $1 },
      feedback: [.react(requests: { $0 }, effect: .stream { _, _, _ in await Gate().wait() })]
    )
    let log = Recorder(observing: system)
    system.send([2, 3])
    #expect(log.started.map { $0.value as? Int } == [3])
    #expect(log.cancelled.map { $0.value as? Int } == [1])
    system.send([2, 3])
    #expect(log.started.count == 1)
    system.stop()
    #expect(Set(log.cancelled.compactMap { $0.value as? Int }) == [1, 2, 3])
  }

  @Test func keyedRequestsRestartAChangedKeyOnly() {
    let system = System<[String: Int], [String: Int], Never, EmptyContext>(
      initialState: ["a": 1, "b": 1], context: EmptyContext(), reduce: { $0 = $1 },
      feedback: [.react(keyedRequests: { $0 }, effect: .stream { _, _, _ in await Gate().wait() })]
    )
    let log = Recorder(observing: system)
    system.send(["a": 1, "b": 2, "c": 1])
    #expect(Set(log.started.map { "\($0)" }) == ["b: 2", "c: 1"])
    #expect(log.cancelled.map { "\($0)" } == ["b: 1"])
    system.send(["c": 1])
    #expect(Set(log.cancelled.map { "\($0)" }) == ["b: 1", "a: 1", "b: 2"])
    system.stop()
  }

  /// Three requests, two of one type: the runtime reconciles neighbouring feedback of one
  /// request type together (`Reconciler.joiningRuns`), which must not change what each does.
  struct ThreeRequests: Equatable, Sendable {
    var first: String?
    var second: String?
    var count: Int?
  }

  @Test func neighbouringFeedbackOfOneRequestTypeEachKeepTheirOwnEffectInFeedbackOrder() {
    let waitForever: @Sendable (String, EmptyContext, Send<ThreeRequests>) async -> Void = {
      _, _, _ in await Gate().wait()
    }
    let system = System<ThreeRequests, ThreeRequests, Never, EmptyContext>(
      initialState: ThreeRequests(), context: EmptyContext(), reduce: { $0 = $1 },
      feedback: [
        .react(request: \.first, effect: .stream(waitForever)),
        .react(
          request: \.second,
          effect: .run { _, _ in
            await Gate().wait()
            return ThreeRequests()
          }),
        .react(request: \.count, effect: .stream { _, _, _ in await Gate().wait() }),
        .react(request: \.first, effect: .stream(waitForever)),
        Feedback.react(request: \.second, effect: .stream(waitForever))
          .debounced(for: .zero, clock: { _ in ContinuousClock() }),
        .react(request: \.second, effect: .stream(waitForever)),
      ]
    )
    let log = Recorder(observing: system)
    let startedIn = { log.started.map { "\($0.feedbackIndex) \($0.value)" } }
    let cancelledIn = { log.cancelled.map { "\($0.feedbackIndex) \($0.value)" } }

    system.send(ThreeRequests(first: "a", second: "b", count: 1))
    #expect(startedIn() == ["0 a", "1 b", "2 1", "3 a", "4 b", "5 b"])
    system.send(ThreeRequests(first: "a", second: "c", count: 1))
    #expect(startedIn()[6...] == ["1 c", "4 c", "5 c"])
    #expect(cancelledIn() == ["1 b", "4 b", "5 b"])
    system.send(ThreeRequests(first: nil, second: "c", count: nil))
    #expect(cancelledIn()[3...] == ["0 a", "2 1", "3 a"])
    #expect(log.started.count == 9)
    system.stop()
  }

  @Test func theConditionFormStartsOnTheRisingEdgeAndCancelsOnTheFallingOne() {
    let system = System<Bool, Bool, Never, EmptyContext>(
      initialState: false, context: EmptyContext(), reduce: { $0 = $1 },
      feedback: [
        .react({ _ in .unfold { _, _ in } }, when: { $0 })
      ]
    )
    let log = Recorder(observing: system)
    system.send(true)
    system.send(true)
    #expect(log.started.count == 1)
    system.send(false)
    #expect(log.cancelled.count == 1)
    system.send(true)
    #expect(log.started.count == 2)
    system.stop()
  }

  @Test func stopCancelsRunningEffectsAndTheirTasksSeeIt() async {
    let gates = Gates()
    let system = SearchSystem(
      initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
      feedback: [Self.searchFeedback]
    )
    system.stop()
    await gates.cancelled["a"].wait()
    system.send(.search("b"))
    #expect(system.state.query == "a")
  }

  @Test func releasingASystemCancelsItsEffects() async {
    let gates = Gates()
    weak var weakSystem: SearchSystem?
    do {
      let system = SearchSystem(
        initialState: Search(query: "a"), context: gates, reduce: Self.reduce,
        feedback: [Self.searchFeedback]
      )
      weakSystem = system
    }
    #expect(weakSystem == nil)
    await gates.cancelled["a"].wait()
  }

  @Test func aStreamEffectSendsManyEventsInOrder() async {
    let logged = Gate()
    let system = System<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        Self.countingStream(whileShorterThan: 5, after: logged)
      ]
    )
    let log = Recorder(observing: system)
    logged.open()
    await log.wait(count: 5) { if case .step = $0 { true } else { false } }
    #expect(system.state == [1, 2, 3, 4, 5])
  }

  @Test func aCancelledStreamDeliversNothingMore() async {
    let logged = Gate()
    let system = System<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [Self.countingStream(whileShorterThan: 2, after: logged)]
    )
    let log = Recorder(observing: system)
    logged.open()
    await log.wait(count: 3) { if case .eventIgnored = $0 { true } else { false } }
    #expect(system.state == [1, 2])
    #expect(log.ignored.map(\.0) == [3, 4, 5])
  }

  /// A stream that sends 1 to 5, without checking for cancellation, while the state is short,
  /// once `gate` opens.
  static func countingStream(whileShorterThan length: Int, after gate: Gate) -> Feedback<
    [Int], Int, Never, EmptyContext
  > {
    .react(
      request: { $0.count < length ? "go" : nil },
      effect: .stream { _, _, send in
        // Suspends first, until the test has made its log: the stream starts on the main actor
        // as the system is made (a `Task.yield()` could resume on another thread and send
        // before the launch returned, inside the initializer).
        await gate.wait()
        for value in 1...5 { await send(value) }
      })
  }
}

import ArchitectureKit
import ArchitectureKitTestSupport
import FunctionalCore
import Testing

/// Request policies, the timer and event-triggered work, on a manual clock.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct PolicyTests {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
    var isTicking = false
    var ticks = 0
    var purchases: [String] = []
  }

  enum Event: Equatable, Sendable {
    case query(String)
    case found(String)
    case failed
    case tick(Int)
    case startTicking
    case stopTicking
    case purchased(String)
    case tracked(String)
  }

  struct Failure: Error, Equatable {}

  struct Context: Sendable {
    let clock: ManualClock
    /// The instants at which an effect ran, in the effect's own words.
    let attempts = Lock<[Duration]>([])
  }

  typealias Harness = TestSystem<State, Event, Failure, Context>

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .query(let query): state.query = query
    case .found(let result): state.results.append(result)
    case .failed: break
    case .tick(let count): state.ticks += count
    case .startTicking: state.isTicking = true
    case .stopTicking: state.isTicking = false
    case .purchased(let item): state.purchases.append(item)
    case .tracked: break
    }
  }

  static let search: @Sendable (String, Context) async throws(Failure) -> Event = {
    query, context in
    context.attempts.withLock { $0.append(context.clock.now.offset) }
    return .found(query.uppercased())
  }

  func harness(
    _ feedback: Feedback<State, Event, Failure, Context>,
    clock: ManualClock = ManualClock()
  ) -> (Harness, Context) {
    let context = Context(clock: clock)
    let system = Harness(
      initialState: State(), context: context, reduce: Self.reduce, feedback: [feedback],
      clock: clock, timeout: .seconds(10))
    return (system, context)
  }

  // MARK: debounced

  @Test func aDebouncedRequestRunsOnlyAfterItStayedTheSameAndRestartsOnANewQuery() async {
    let (system, context) = harness(
      .react(request: { $0.query.isEmpty ? nil : $0.query }, effect: .run(Self.search))
        .debounced(for: .milliseconds(300), clock: \.clock))
    system.send(.query("y")) { $0.query = "y" }
    system.expectStarted("y")
    system.run("y")
    await context.clock.advance(by: .milliseconds(200))
    system.send(.query("ye")) { $0.query = "ye" }
    system.expectCancelled("y")
    system.expectStarted("ye")
    system.run("ye")
    await context.clock.advance(by: .milliseconds(299))
    #expect(context.attempts.withLock { $0 }.isEmpty)
    await context.clock.advance(by: .milliseconds(1))
    await system.receive(.found("YE")) { $0.results = ["YE"] }
    #expect(context.attempts.withLock { $0 } == [.milliseconds(500)])
    await system.finish()
  }

  // MARK: throttled

  @Test func aThrottleWithLatestDelaysARequestToTheEndOfTheWindow() async {
    let (system, context) = harness(
      .react(request: { $0.query.isEmpty ? nil : $0.query }, effect: .run(Self.search))
        .throttled(for: .seconds(1), clock: \.clock))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await system.receive(.found("A")) { $0.results = ["A"] }
    await context.clock.advance(by: .milliseconds(400))
    system.send(.query("b")) { $0.query = "b" }
    system.expectStarted("b")
    system.run("b")
    await context.clock.advance(by: .milliseconds(599))
    #expect(context.attempts.withLock { $0 } == [.zero])
    await context.clock.advance(by: .milliseconds(1))
    await system.receive(.found("B")) { $0.results = ["A", "B"] }
    #expect(context.attempts.withLock { $0 } == [.zero, .seconds(1)])
    await system.finish()
  }

  @Test func aThrottleWithoutLatestDropsARequestInsideTheWindow() async {
    let (system, context) = harness(
      .react(request: { $0.query.isEmpty ? nil : $0.query }, effect: .run(Self.search))
        .throttled(for: .seconds(1), latest: false, clock: \.clock))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await system.receive(.found("A")) { $0.results = ["A"] }
    await context.clock.advance(by: .milliseconds(400))
    system.send(.query("b")) { $0.query = "b" }
    system.expectStarted("b")
    system.run("b")
    await system.settle()
    #expect(system.runningRequests.isEmpty)
    await context.clock.advance(by: .seconds(1))
    system.send(.query("c")) { $0.query = "c" }
    system.expectStarted("c")
    system.run("c")
    await system.receive(.found("C")) { $0.results = ["A", "C"] }
    #expect(context.attempts.withLock { $0 } == [.zero, .milliseconds(1_400)])
    await system.finish()
  }

  // MARK: retrying

  @Test func aRetryStopsAfterItsRetriesWithTheBackoffSequence() async {
    let (system, context) = harness(
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effect: .run { query, context throws(Failure) in
          context.attempts.withLock { $0.append(context.clock.now.offset) }
          throw Failure()
        }
      )
      .retrying(
        3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(3)), clock: \.clock))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await context.clock.advance(by: .seconds(60))
    await system.settle()
    system.expectFailure()
    #expect(context.attempts.withLock { $0 } == [.zero, .seconds(1), .seconds(3), .seconds(6)])
    await system.finish()
  }

  @Test func aRetrySucceedsOnALaterAttemptAndReportsNoFailure() async {
    let (system, context) = harness(
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effect: .run { query, context throws(Failure) in
          let attempt = context.attempts.withLock { attempts in
            attempts.append(context.clock.now.offset)
            return attempts.count
          }
          if attempt < 3 { throw Failure() }
          return .found(query)
        }
      )
      .retrying(5, backoff: .fixed(.seconds(2)), clock: \.clock))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await context.clock.advance(by: .seconds(4))
    await system.receive(.found("a")) { $0.results = ["a"] }
    #expect(context.attempts.withLock { $0 } == [.zero, .seconds(2), .seconds(4)])
    await system.finish()
  }

  @Test(arguments: [(1, 0.0, 4.0), (3, 0.5, 12.0), (4, 1.0, 8.0)])
  func aBackoffGrowsUpToItsMaximumAndJitterShortensIt(retry: Int, random: Double, seconds: Double) {
    let backoff = Backoff.exponential(initial: .seconds(4), maximum: .seconds(16)).jittered(0.5)
    #expect(backoff.delay(beforeRetry: retry, random: random) == .seconds(seconds))
    #expect(Backoff.fixed(.seconds(2)).delay(beforeRetry: retry) == .seconds(2))
  }

  // MARK: timeout

  @Test func aTimeoutFailsAtTheDeadlineEvenWhenTheWorkIgnoresCancellation() async {
    let (system, context) = harness(
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effects: { _ in AsyncResult.unfold { _, _ in } }
      )
      .timeout(.seconds(5), clock: \.clock, failure: Failure()))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await context.clock.advance(by: .milliseconds(4_999))
    #expect(system.runningRequests.count == 1)
    await context.clock.advance(by: .milliseconds(1))
    await system.settle()
    system.expectFailure { $0 == Failure() }
    await system.finish()
  }

  @Test func aTimeoutWithAnEventEndsTheEffectWithIt() async {
    let (system, context) = harness(
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effects: { _ in AsyncResult.unfold { _, _ in } }
      )
      .timeout(.seconds(5), clock: \.clock, event: .failed))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await context.clock.advance(by: .seconds(5))
    await system.receive(.failed)
    await system.finish()
  }

  // MARK: timer

  static let ticker = Feedback<State, Event, Failure, Context>.react(
    request: { $0.isTicking ? true : nil },
    effect: .timer(every: .milliseconds(10), clock: \.clock, tick: { _, count in .tick(count) }))

  @Test func aTimerDeliversEveryTickOfAJumpInOrder() async {
    let (system, context) = harness(Self.ticker)
    system.send(.startTicking) { $0.isTicking = true }
    system.expectStarted(true)
    system.run(true)
    await context.clock.advance(by: .seconds(1))
    for tick in 1...100 {
      await system.receive(.tick(1)) { $0.ticks = tick }
    }
    system.send(.stopTicking) { $0.isTicking = false }
    system.expectCancelled(true)
    await system.finish()
  }

  @Test func aCoalescingTimerSendsOneTickForAJump() async {
    let (system, context) = harness(
      .react(
        request: { $0.isTicking ? true : nil },
        effect: .timer(
          every: .milliseconds(10), clock: \.clock, coalescing: true,
          tick: { _, count in .tick(count) })))
    system.send(.startTicking) { $0.isTicking = true }
    system.expectStarted(true)
    system.run(true)
    await context.clock.advance(by: .seconds(1))
    await system.receive(.tick(1)) { $0.ticks = 1 }
    await system.receive(.tick(99)) { $0.ticks = 100 }
    system.send(.stopTicking) { $0.isTicking = false }
    system.expectCancelled(true)
    await system.finish()
  }

  @Test func aTimerInALiveSystemTicksAHundredTimesInOneSecondWithoutDrift() async {
    let clock = ManualClock()
    let system = System<State, Event, Failure, Context>(
      initialState: State(isTicking: true), context: Context(clock: clock), reduce: Self.reduce,
      feedback: [Self.ticker])
    await clock.waitForSleepers()
    await clock.advance(by: .seconds(1))
    #expect(system.state.ticks == 100)
    await clock.advance(by: .milliseconds(5))
    #expect(system.state.ticks == 100)
    await clock.advance(by: .milliseconds(5))
    #expect(system.state.ticks == 101)
    system.stop()
  }

  // MARK: Event-triggered work

  static let analytics = Feedback<State, Event, Failure, Context>.react(
    on: { event, _ in if case .purchased(let item) = event { item } else { nil } },
    effect: .perform { item, _ in .tracked(item) })

  @Test func anEventStartsAnEffectThatTheTestSeesLikeAnyOther() async {
    let (system, _) = harness(Self.analytics)
    system.send(.purchased("a")) { $0.purchases = ["a"] }
    system.expectStarted("a")
    system.send(.purchased("a")) { $0.purchases = ["a", "a"] }
    system.expectStarted("a")
    #expect(system.runningRequests.count == 2)
    system.run("a")
    await system.receive(.tracked("a"))
    system.run("a")
    await system.receive(.tracked("a"))
    #expect(system.runningRequests.isEmpty)
    await system.finish()
  }

  @Test func cancelPreviousCancelsTheEffectStillRunning() async {
    let (system, _) = harness(
      .react(
        on: { event, _ in if case .purchased(let item) = event { item } else { nil } },
        policy: .cancelPrevious, effect: .perform { item, _ in .tracked(item) }))
    system.send(.purchased("a")) { $0.purchases = ["a"] }
    system.expectStarted("a")
    system.send(.purchased("b")) { $0.purchases = ["a", "b"] }
    system.expectCancelled("a")
    system.expectStarted("b")
    system.simulate("b", event: .tracked("b"))
    await system.receive(.tracked("b"))
    await system.finish()
  }

  @Test func aConcurrencyLimitCancelsTheOldest() async {
    let (system, _) = harness(
      .react(
        on: { event, _ in if case .purchased(let item) = event { item } else { nil } },
        policy: .concurrent(limit: 2), effect: .perform { _, _ in nil }))
    system.send(.purchased("a")) { $0.purchases = ["a"] }
    system.expectStarted("a")
    system.send(.purchased("b")) { $0.purchases = ["a", "b"] }
    system.expectStarted("b")
    system.send(.purchased("c")) { $0.purchases = ["a", "b", "c"] }
    system.expectCancelled("a")
    system.expectStarted("c")
    #expect(system.runningRequests.map(\.description) == ["b", "c"])
    system.run("b")
    system.run("c")
    await system.settle()
    #expect(system.runningRequests.isEmpty)
    await system.finish()
  }

  @Test func anEffectThatReturnsNoEventFinishesWithoutOne() async {
    let (system, _) = harness(
      .react(request: { $0.query.isEmpty ? nil : $0.query }, effect: .perform { _, _ in nil }))
    system.send(.query("a")) { $0.query = "a" }
    system.expectStarted("a")
    system.run("a")
    await system.settle()
    #expect(system.runningRequests.isEmpty)
    await system.finish()
  }
}

/// A clock whose sleep always fails, as a broken or closed clock might.
struct BrokenClock: Clock {
  struct Broken: Error {}

  var now: ContinuousClock.Instant { ContinuousClock.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    throw Broken()
  }
}

@MainActor
struct BrokenClockTests {
  @Test func aDelayOnAClockThatFailsRunsTheWorkInsteadOfEndingSilently() async {
    var activities: [SystemActivity<[String], String, Never>] = []
    let system = System<[String], String, Never, Void>(
      initialState: [], context: (), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0 == ["go"] ? "delayed" : nil },
          effects: { _ in AsyncResult.pure("worked").delayed(by: .seconds(1), on: BrokenClock()) })
      ])
    system.addObserver { activities.append($0) }
    await system.send("go", while: { !$0.contains("worked") })
    #expect(system.state == ["go", "worked"])
    #expect(!activities.contains { if case .eventIgnored = $0 { true } else { false } })
  }
}

@MainActor
struct RecoverTests {
  enum Event: Equatable, Sendable {
    case load
    case loaded
    case failed(String)
  }

  struct Failure: Error, Equatable {
    let reason: String
  }

  struct Context: Sendable {
    let clock: ManualClock
  }

  @Test func aRetriedLoadThatKeepsFailingEndsWithTheEventItsFailureBecomes() async {
    let clock = ManualClock()
    let loads = Lock(0)
    let system = TestSystem<[Event], Event, Never, Context>(
      initialState: [], context: Context(clock: clock), reduce: { $0.append($1) },
      feedback: [
        Feedback<[Event], Event, Failure, Context>
          .react(
            request: { $0.last == .load ? "page" : nil },
            effect: .run { _, _ throws(Failure) in
              loads.withLock { $0 += 1 }
              throw Failure(reason: "offline")
            }
          )
          .retrying(2, backoff: .fixed(.seconds(1)), clock: \.clock)
          .recover { .failed($0.reason) }
      ],
      clock: clock)
    system.send(.load) { $0 = [.load] }
    system.expectStarted("page")
    system.run("page")
    await clock.advance(by: .seconds(2))
    await system.receive(.failed("offline")) { $0 = [.load, .failed("offline")] }
    #expect(loads.withLock { $0 } == 3)
    await system.finish()
  }
}

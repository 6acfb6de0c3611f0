import ArchitectureKit
import ArchitectureKitTestSupport
import FunctionalCore
import TestDoubles
import Testing

/// The code of the "Time and retries" article, compiled and run on a manual clock.
///
/// Every Swift block of `TimeAndRetries.md` appears in this file line for line
/// (`Scripts/docs.sh` checks it), in a test that checks what the article says about it.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct TimeAndRetriesExamplesTests {
  // MARK: Debounce a search

  @Test(arguments: [SearchAsYouType.Version.policy, .handWritten])
  func aSearchRunsOnceItsQueryStaysTheSameFor300Milliseconds(
    version: SearchAsYouType.Version
  ) async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: SearchAsYouType.State(),
      context: SearchAsYouType.Context(search: { query in [query.uppercased()] }, clock: clock),
      reduce: SearchAsYouType.reduce,
      feedback: [version == .policy ? SearchAsYouType.search : SearchAsYouType.handWrittenSearch],
      clock: clock
    )
    system.send(.typed("y")) { $0.query = "y" }
    system.expectStarted("y")
    system.run("y")
    await clock.advance(by: .milliseconds(200))
    // A new query cancels the wait for "y" and waits afresh.
    system.send(.typed("ye")) { $0.query = "ye" }
    system.expectCancelled("y")
    system.expectStarted("ye")
    system.run("ye")
    await clock.advance(by: .milliseconds(299))
    #expect(clock.nextDeadline == ManualClock.Instant(offset: .milliseconds(500)))
    await clock.advance(by: .milliseconds(1))
    await system.receive(.found(["YE"])) { $0.results = ["YE"] }
    await system.finish()
  }

  @Test(arguments: [SearchAsYouType.Version.policy, .handWritten])
  func aReplacedQueryIsNeverSearched(version: SearchAsYouType.Version) async {
    let clock = ManualClock()
    let searched = Recorder<String>()
    let system = TestSystem(
      initialState: SearchAsYouType.State(),
      context: SearchAsYouType.Context(
        search: { query in
          searched.record(query)
          return [query.uppercased()]
        },
        clock: clock
      ),
      reduce: SearchAsYouType.reduce,
      feedback: [version == .policy ? SearchAsYouType.search : SearchAsYouType.handWrittenSearch],
      clock: clock
    )
    system.send(.typed("y")) { $0.query = "y" }
    system.expectStarted("y")
    system.run("y")
    system.send(.typed("ye")) { $0.query = "ye" }
    system.expectCancelled("y")
    system.expectStarted("ye")
    system.run("ye")
    await clock.advance(by: .milliseconds(300))
    await system.receive(.found(["YE"])) { $0.results = ["YE"] }
    await system.finish()
    #expect(searched.values == ["ye"])
  }

  @Test func aTryQuestionMarkAroundTheSleepSearchesTheReplacedQueryAnyway() async {
    let clock = ManualClock()
    let searched = Recorder<String>()
    let system = TestSystem(
      initialState: SearchAsYouType.State(),
      context: SearchAsYouType.Context(
        search: { query in
          searched.record(query)
          return [query.uppercased()]
        },
        clock: clock
      ),
      reduce: SearchAsYouType.reduce,
      feedback: [SearchAsYouType.tryQuestionMarkSearch],
      clock: clock
    )
    system.send(.typed("y")) { $0.query = "y" }
    system.expectStarted("y")
    system.run("y")
    system.send(.typed("ye")) { $0.query = "ye" }
    system.expectCancelled("y")
    system.expectStarted("ye")
    system.run("ye")
    await clock.advance(by: .milliseconds(300))
    // The answer for "y" is dropped: its effect was cancelled.
    await system.receive(.found(["YE"])) { $0.results = ["YE"] }
    await system.finish()
    #expect(searched.values.sorted() == ["y", "ye"])
  }

  // MARK: Retry a page load with backoff

  @Test func aFailedLoadIsRetriedAfterAGrowingJitteredWait() async {
    let clock = ManualClock()
    let server = FlakyServer(clock: clock, failures: 2)
    let system = TestSystem(
      initialState: ProductPage.State(),
      context: ProductPage.Context(
        load: { id throws(ProductPage.LoadError) in try await server.load(id) },
        clock: clock,
        random: { 0.5 }  // takes a quarter off each wait: 1 s × (1 − 0.5 × 0.5)
      ),
      reduce: ProductPage.reduce,
      feedback: [ProductPage.load],
      clock: clock
    )
    system.send(.open(7)) { $0.loading = 7 }
    system.expectStarted(7)  // one effect for all attempts
    system.run(7)
    await clock.advance(by: .milliseconds(2_250))
    await system.receive(.loaded("Product 7")) {
      $0.loading = nil
      $0.product = "Product 7"
    }
    #expect(await server.attempts == [.zero, .milliseconds(750), .milliseconds(2_250)])
    await system.finish()
  }

  @Test func aLoadThatKeepsFailingIsReportedAfterItsLastRetry() async {
    let clock = ManualClock()
    let server = FlakyServer(clock: clock, failures: .max)
    let system = TestSystem(
      initialState: ProductPage.State(),
      context: ProductPage.Context(
        load: { id throws(ProductPage.LoadError) in try await server.load(id) },
        clock: clock,
        random: { 0.5 }
      ),
      reduce: ProductPage.reduce,
      feedback: [ProductPage.load],
      clock: clock
    )
    system.send(.open(7)) { $0.loading = 7 }
    system.expectStarted(7)
    system.run(7)
    await clock.advance(by: .seconds(60))
    await system.settle()
    system.expectFailure { $0 == ProductPage.LoadError() }
    let attempts = await server.attempts
    #expect(attempts == [.zero, .milliseconds(750), .milliseconds(2_250), .milliseconds(5_250)])
    await system.finish()
  }

  @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (4, 4.0)])
  func anExponentialBackoffDoublesUpToItsMaximum(retry: Int, seconds: Double) {
    let backoff = Backoff.exponential(initial: .seconds(1), maximum: .seconds(4))
    #expect(backoff.delay(beforeRetry: retry) == .seconds(seconds))
    #expect(backoff.jittered(0.5).delay(beforeRetry: retry, random: 1) == .seconds(seconds / 2))
  }

  @Test(arguments: [(true, [300, 1_600]), (false, [300, 1_300])])
  func policiesComposeFromTheInsideOut(debounceFirst: Bool, attemptsInMilliseconds: [Int]) async {
    let clock = ManualClock()
    let server = FlakyServer(clock: clock, failures: .max)
    let load = ProductPage.loadWithoutPolicies
    let system = TestSystem(
      initialState: ProductPage.State(),
      context: ProductPage.Context(
        load: { id throws(ProductPage.LoadError) in try await server.load(id) },
        clock: clock,
        random: { 0 }
      ),
      reduce: ProductPage.reduce,
      feedback: [
        debounceFirst
          // Each attempt, retries included, is debounced.
          ? load.debounced(for: .milliseconds(300), clock: \.clock)
            .retrying(1, backoff: .fixed(.seconds(1)), clock: \.clock)
          // Only the first attempt is: the retries follow their backoff alone.
          : load.retrying(1, backoff: .fixed(.seconds(1)), clock: \.clock)
            .debounced(for: .milliseconds(300), clock: \.clock)
      ],
      clock: clock
    )
    system.send(.open(7)) { $0.loading = 7 }
    system.expectStarted(7)
    system.run(7)
    await clock.advance(by: .seconds(5))
    await system.settle()
    system.expectFailure()
    #expect(await server.attempts == attemptsInMilliseconds.map { .milliseconds($0) })
    await system.finish()
  }

  // MARK: A stopwatch

  @Test func aTimerSendsEveryTickThatFellDue() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: Stopwatch.State(),
      context: Stopwatch.Context(clock: clock),
      reduce: Stopwatch.reduce,
      feedback: [Stopwatch.timer],
      clock: clock
    )
    system.send(.start) { $0.isRunning = true }
    system.expectStarted(true)
    system.run(true)
    await clock.advance(by: .seconds(1))
    for hundredths in 1...100 {
      await system.receive(.tick(1)) { $0.hundredths = hundredths }
    }
    system.send(.stop) { $0.isRunning = false }
    system.expectCancelled(true)
    await system.finish()
  }

  @Test func aCoalescingTimerSendsOneTickForTheTicksThatFellDueTogether() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: Stopwatch.State(),
      context: Stopwatch.Context(clock: clock),
      reduce: Stopwatch.reduce,
      feedback: [Stopwatch.coalescingTimer],
      clock: clock
    )
    system.send(.start) { $0.isRunning = true }
    system.expectStarted(true)
    system.run(true)
    await clock.advance(by: .seconds(1))
    // The tick due at 10 ms waits for the test while the clock moves on to 1 s,
    // so the timer next wakes with the other 99 ticks due at once.
    await system.receive(.tick(1)) { $0.hundredths = 1 }
    await system.receive(.tick(99)) { $0.hundredths = 100 }
    system.send(.stop) { $0.isRunning = false }
    system.expectCancelled(true)
    await system.finish()
  }

  @Test func aTimerInALiveSystemKeepsItsDeadlines() async {
    let clock = ManualClock()
    let stopwatch = System(
      initialState: Stopwatch.State(isRunning: true),
      context: Stopwatch.Context(clock: clock),
      reduce: Stopwatch.reduce,
      feedback: [Stopwatch.timer]
    )
    await clock.waitForSleepers()
    await clock.advance(by: .milliseconds(1_005))
    #expect(stopwatch.state.hundredths == 100)
    await clock.advance(by: .milliseconds(5))
    #expect(stopwatch.state.hundredths == 101)
    stopwatch.stop()
  }

  // MARK: Work on events

  @Test func everyAddedItemIsTracked() async {
    let tracked = Recorder<String>()
    let system = TestSystem(
      initialState: Cart.State(),
      context: Cart.Context(
        track: { name in tracked.record(name) },
        fetchItems: { ["socks"] }
      ),
      reduce: Cart.reduce,
      feedback: [Cart.analytics]
    )
    system.send(.add("socks")) { $0.items = ["socks"] }
    system.expectStarted("socks")
    system.send(.add("shoes")) { $0.items = ["socks", "shoes"] }
    system.expectStarted("shoes")  // the first one still runs: concurrent by default
    system.run("socks")
    system.run("shoes")
    await system.settle()  // both ended, without an event
    await system.finish()
    #expect(tracked.values.sorted() == ["added shoes", "added socks"])
  }

  @Test func aNewRefreshCancelsTheOneStillRunning() async {
    let system = TestSystem(
      initialState: Cart.State(),
      context: Cart.Context(track: { _ in }, fetchItems: { ["socks", "shoes"] }),
      reduce: Cart.reduce,
      feedback: [Cart.refresh]
    )
    system.send(.refresh)
    system.expectStarted("items")
    system.send(.refresh)
    system.expectCancelled("items")
    system.expectStarted("items")
    system.run("items")
    await system.receive(.refreshed(["socks", "shoes"])) { $0.items = ["socks", "shoes"] }
    await system.finish()
  }

  // MARK: Timeouts

  @Test func aDownloadEndsAtItsDeadlineEvenWhenItNeverAnswers() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: Thumbnail.State(),
      context: Thumbnail.Context(download: { _, _ in }, clock: clock),  // never calls back
      reduce: Thumbnail.reduce,
      feedback: [Thumbnail.download],
      clock: clock
    )
    system.send(.show("cat.png")) { $0.url = "cat.png" }
    system.expectStarted("cat.png")
    system.run("cat.png")
    await clock.advance(by: .milliseconds(4_999))
    #expect(system.runningRequests.count == 1)
    await clock.advance(by: .milliseconds(1))
    await system.receive(.timedOut) { $0.hasTimedOut = true }
    await system.finish()
  }

  @Test func aTimeoutEndsARunEffectThatNeverLooksAtCancellation() async {
    let continuation = Lock<CheckedContinuation<Void, Never>?>(nil)
    let system = System(
      initialState: Thumbnail.State(),
      context: Thumbnail.Context(download: { _, _ in }, clock: ImmediateClock()),
      reduce: Thumbnail.reduce,
      feedback: [
        .react(
          request: { $0.image == nil && !$0.hasTimedOut ? $0.url : nil },
          effect: .run { url, _ in
            await withCheckedContinuation { resume in continuation.withLock { $0 = resume } }
            return .loaded(url)
          }
        )
        .timeout(.seconds(5), clock: \.clock, event: .timedOut)
      ]
    )
    await system.send(.show("cat.png"), while: { !$0.hasTimedOut })
    #expect(system.state.hasTimedOut)
    #expect(system.state.image == nil)
    // The work was left behind, still waiting; let it end so the test leaves nothing behind.
    while continuation.withLock({ $0 }) == nil { await Task.yield() }
    continuation.withLock { $0?.resume() }
    system.stop()
  }

  // MARK: Errors

  @Test func aFailureBecomesAnEvent() async {
    let system = TestSystem(
      initialState: Profile.State(),
      context: Profile.Context(fetchName: { .failure(Profile.LoadError(reason: "offline")) }),
      reduce: Profile.reduce,
      feedback: [Profile.load]
    )
    system.send(.open) { $0.isLoading = true }
    system.expectStarted(true)
    system.run(true)
    await system.receive(.failed("offline")) {
      $0.isLoading = false
      $0.error = "offline"
    }
    await system.finish()
  }

  @Test func anAutosaveStoresTheLastDraftAndSendsNothing() async {
    let clock = ManualClock()
    let stored = Recorder<String>()
    let system = TestSystem(
      initialState: Notes.State(),
      context: Notes.Context(store: { draft in stored.record(draft) }, clock: clock),
      reduce: Notes.reduce,
      feedback: [Notes.autosave],
      clock: clock
    )
    system.send(.edited("Hel")) { $0.draft = "Hel" }
    system.expectStarted("Hel")
    system.run("Hel")
    await clock.advance(by: .milliseconds(500))
    system.send(.edited("Hello")) { $0.draft = "Hello" }
    system.expectCancelled("Hel")
    system.expectStarted("Hello")
    system.run("Hello")
    await clock.advance(by: .seconds(1))
    await system.settle()  // stored, and no event to receive
    await system.finish()
    #expect(stored.values == ["Hello"])
  }

  @Test func aDelayOnAClockThatFailsFailsWithTheClockError() async {
    let quote = AsyncResult<Void, String, QuoteError>.pure("42")
      .delayed(by: .seconds(1), on: StoppedClock(), ifClockFails: { .clock($0) })
    let result = await quote.run(())
    guard case .failure(.clock(let error)) = result else {
      Issue.record("Expected a clock failure, got \(result)")
      return
    }
    #expect(error.underlying is StoppedClock.Stopped)
  }

  @Test func theTimeOperatorsOnAClockThatFailsNeverCrashNorWait() async throws {
    let quick = AsyncResult<Void, String, QuoteError>.pure("42")
    let endless = AsyncResult<Void, String, QuoteError>.unfold { _, _ in }
    let clock = StoppedClock()
    // A delay counts its wait as over: the work starts at once.
    #expect(try await quick.delayed(by: .seconds(1), on: clock).run(()).get() == "42")
    #expect(try await Future { "42" }.delayed(by: .seconds(1), on: clock).run() == "42")
    // A timeout counts its time as run out: it ends at once, the work cancelled.
    let timedOut = await endless.timeout(after: .seconds(1), on: clock, failingWith: .timedOut)
      .run(())
    #expect(throws: QuoteError.timedOut) { try timedOut.get() }
    let clockFailed = await endless.timeout(
      after: .seconds(1), on: clock, failingWith: .timedOut, ifClockFails: { .clock($0) }
    ).run(())
    #expect(throws: QuoteError.clock(ClockError(underlying: StoppedClock.Stopped()))) {
      try clockFailed.get()
    }
    #expect(try await endless.reader.run(()).timeout(after: .seconds(1), on: clock).run() == nil)
  }

  @Test(arguments: [SearchAsYouType.Version.policy, .handWritten])
  func aDebounceOnAClockThatFailsSearchesAtOnceButTheHandWrittenOneClears(
    version: SearchAsYouType.Version
  ) async {
    let system = TestSystem(
      initialState: SearchAsYouType.State(results: ["Y"]),
      context: SearchAsYouType.Context(
        search: { query in [query.uppercased()] }, clock: StoppedClock()),
      reduce: SearchAsYouType.reduce,
      feedback: [version == .policy ? SearchAsYouType.search : SearchAsYouType.handWrittenSearch]
    )
    system.send(.typed("ye")) { $0.query = "ye" }
    system.expectStarted("ye")
    system.run("ye")
    switch version {
    case .policy:
      await system.receive(.found(["YE"])) { $0.results = ["YE"] }
    case .handWritten:
      await system.receive(.found([])) { $0.results = [] }
    }
    await system.finish()
  }

  @Test func aThrottleOnAClockThatFailsStartsAtOnce() async {
    let system = TestSystem(
      initialState: SearchAsYouType.State(),
      context: SearchAsYouType.Context(
        search: { query in [query.uppercased()] }, clock: StoppedClock()),
      reduce: SearchAsYouType.reduce,
      feedback: [
        .react(
          request: { $0.query.isEmpty ? nil : $0.query },
          effect: .run { query, context in .found(await context.search(query)) }
        )
        .throttled(for: .seconds(60), clock: \.clock)
      ]
    )
    system.send(.typed("y")) { $0.query = "y" }
    system.expectStarted("y")
    system.run("y")
    await system.receive(.found(["Y"])) { $0.results = ["Y"] }
    // Inside the 60 s window: the wait before the start fails, so it counts as over.
    system.send(.typed("ye")) { $0.query = "ye" }
    system.expectStarted("ye")
    system.run("ye")
    await system.receive(.found(["YE"])) { $0.results = ["YE"] }
    await system.finish()
  }

  @Test func aRetryOnAClockThatFailsRetriesAtOnce() async {
    let server = FlakyServer(clock: ManualClock(), failures: .max)
    let system = TestSystem(
      initialState: ProductPage.State(),
      context: ProductPage.Context(
        load: { id throws(ProductPage.LoadError) in try await server.load(id) },
        clock: StoppedClock(),
        random: { 0.5 }
      ),
      reduce: ProductPage.reduce,
      feedback: [ProductPage.load]
    )
    system.send(.open(7)) { $0.loading = 7 }
    system.expectStarted(7)
    system.run(7)
    await system.settle()
    system.expectFailure()
    #expect(await server.attempts.count == 4)
    await system.finish()
  }

  @Test func aTimerOnAClockThatFailsEndsWithoutATick() async {
    let system = TestSystem(
      initialState: Stopwatch.State(),
      context: Stopwatch.Context(clock: StoppedClock()),
      reduce: Stopwatch.reduce,
      feedback: [Stopwatch.timer]
    )
    system.send(.start) { $0.isRunning = true }
    system.expectStarted(true)
    system.run(true)
    await system.settle()
    #expect(system.runningRequests.isEmpty)
    await system.finish()
  }

  @Test func aTimeoutOnAClockThatFailsEndsAtOnce() async {
    let system = TestSystem(
      initialState: Thumbnail.State(),
      context: Thumbnail.Context(download: { _, _ in }, clock: StoppedClock()),
      reduce: Thumbnail.reduce,
      feedback: [Thumbnail.download]
    )
    system.send(.show("cat.png")) { $0.url = "cat.png" }
    system.expectStarted("cat.png")
    system.run("cat.png")
    await system.receive(.timedOut) { $0.hasTimedOut = true }
    await system.finish()
  }
}

// MARK: - The article's features

extension TimeAndRetriesExamplesTests {
  /// Search as you type: a query is searched once it has stayed the same for 300 ms.
  enum SearchAsYouType {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }

    enum Event: Equatable, Sendable {
      case typed(String)
      case found([String])
    }

    struct Context: Sendable {
      var search: @Sendable (String) async -> [String]
      var clock: any Clock<Duration>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .typed(let query): state.query = query
      case .found(let results): state.results = results
      }
    }

    /// The two versions of the article's comparison.
    enum Version: Sendable {
      case policy
      case handWritten
    }

    static var search: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effect: .run { query, context in .found(await context.search(query)) }
      )
      .debounced(for: .milliseconds(300), clock: \.clock)
    }

    static var handWrittenSearch: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effect: .run { query, context in
          do {
            try await context.clock.sleep(for: .milliseconds(300))
          } catch {
            return .found([])  // `.run` needs an event, even for a wait a new query cancelled
          }
          return .found(await context.search(query))
        }
      )
    }

    /// The shortcut the article warns about: `try?` swallows the cancellation.
    static var tryQuestionMarkSearch: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.query.isEmpty ? nil : $0.query },
        effect: .run { query, context in
          try? await context.clock.sleep(for: .milliseconds(300))
          return .found(await context.search(query))
        }
      )
    }
  }

  /// A product page whose load is retried with backoff.
  enum ProductPage {
    struct State: Equatable {
      var loading: Int?
      var product: String?
    }

    enum Event: Equatable, Sendable {
      case open(Int)
      case loaded(String)
    }

    struct LoadError: Error, Equatable {}

    struct Context: Sendable {
      var load: @Sendable (Int) async throws(LoadError) -> String
      var clock: any Clock<Duration>
      var random: @Sendable () -> Double  // `{ Double.random(in: 0..<1) }` in the app
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .open(let id): state.loading = id
      case .loaded(let product):
        state.loading = nil
        state.product = product
      }
    }

    static var load: Feedback<State, Event, LoadError, Context> {
      .react(
        request: { $0.loading },
        effect: .run { id, context throws(LoadError) in .loaded(try await context.load(id)) }
      )
      .retrying(
        3,
        backoff: .exponential(initial: .seconds(1), maximum: .seconds(4)).jittered(0.5),
        clock: \.clock,
        random: { $0.random() }
      )
    }

    /// The same load without its retry, for the test of how policies compose.
    static var loadWithoutPolicies: Feedback<State, Event, LoadError, Context> {
      .react(
        request: { $0.loading },
        effect: .run { id, context throws(LoadError) in .loaded(try await context.load(id)) }
      )
    }
  }

  /// A server that fails a number of times, then answers, and notes when each attempt came.
  actor FlakyServer {
    let clock: ManualClock
    var failures: Int
    var attempts: [Duration] = []

    init(clock: ManualClock, failures: Int) {
      self.clock = clock
      self.failures = failures
    }

    func load(_ id: Int) throws(ProductPage.LoadError) -> String {
      attempts.append(clock.now.offset)
      guard failures == 0 else {
        failures -= 1
        throw ProductPage.LoadError()
      }
      return "Product \(id)"
    }
  }

  /// A stopwatch that counts hundredths of a second.
  enum Stopwatch {
    struct State: Equatable {
      var isRunning = false
      var hundredths = 0
    }

    enum Event: Equatable, Sendable {
      case start
      case stop
      case tick(Int)
    }

    struct Context: Sendable {
      var clock: any Clock<Duration>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .start: state.isRunning = true
      case .stop: state.isRunning = false
      case .tick(let count): state.hundredths += count
      }
    }

    static var timer: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.isRunning ? true : nil },
        effect: .timer(
          every: .milliseconds(10),
          clock: \.clock,
          tick: { _, count in .tick(count) }
        )
      )
    }

    static var coalescingTimer: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.isRunning ? true : nil },
        effect: .timer(
          every: .milliseconds(10),
          clock: \.clock,
          coalescing: true,
          tick: { _, count in .tick(count) }
        )
      )
    }
  }

  /// A cart that reports additions to analytics and refreshes on demand.
  enum Cart {
    struct State: Equatable {
      var items: [String] = []
    }

    enum Event: Equatable, Sendable {
      case add(String)
      case refresh
      case refreshed([String])
    }

    struct Context: Sendable {
      var track: @Sendable (String) async -> Void
      var fetchItems: @Sendable () async -> [String]
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let item): state.items.append(item)
      case .refresh: break
      case .refreshed(let items): state.items = items
      }
    }

    static var analytics: Feedback<State, Event, Never, Context> {
      .react(
        on: { event, _ in if case .add(let item) = event { item } else { nil } },
        effect: .perform { item, context in
          await context.track("added \(item)")
          return nil
        }
      )
    }

    static var refresh: Feedback<State, Event, Never, Context> {
      .react(
        on: { event, _ in event == .refresh ? "items" : nil },
        policy: .cancelPrevious,
        effect: .perform { _, context in .refreshed(await context.fetchItems()) }
      )
    }
  }

  /// A thumbnail whose download gives up after 5 seconds.
  enum Thumbnail {
    struct State: Equatable {
      var url: String?
      var image: String?
      var hasTimedOut = false
    }

    enum Event: Equatable, Sendable {
      case show(String)
      case loaded(String)
      case timedOut
    }

    struct Context: Sendable {
      /// A callback API that knows nothing of cancellation.
      var download: @Sendable (String, @escaping @Sendable (String) -> Void) -> Void
      var clock: any Clock<Duration>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .show(let url): state = State(url: url)
      case .loaded(let image): state.image = image
      case .timedOut: state.hasTimedOut = true
      }
    }

    static var download: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.image == nil && !$0.hasTimedOut ? $0.url : nil },
        effects: { url in
          AsyncResult.unfold { context, complete in
            context.download(url) { image in complete(.success(.loaded(image))) }
          }
        }
      )
      .timeout(.seconds(5), clock: \.clock, event: .timedOut)
    }
  }

  /// A profile whose load may fail, in a feature that allows no failure.
  enum Profile {
    struct State: Equatable {
      var isLoading = false
      var name: String?
      var error: String?
    }

    enum Event: Equatable, Sendable {
      case open
      case loaded(String)
      case failed(String)
    }

    struct LoadError: Error {
      var reason: String
    }

    struct Context: Sendable {
      var fetchName: @Sendable () async -> Result<String, LoadError>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      state.isLoading = event == .open
      switch event {
      case .open: break
      case .loaded(let name): state.name = name
      case .failed(let reason): state.error = reason
      }
    }

    static func name() -> AsyncResult<Context, String, LoadError> {
      AsyncResult(operation: { context in await context.fetchName() })
    }

    static var load: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.isLoading ? true : nil },
        effects: { _ in name().map(Event.loaded).recover { .failed($0.reason) } }
      )
    }
  }

  /// Notes that save the draft a second after the last edit.
  enum Notes {
    struct State: Equatable {
      var draft = ""
    }

    enum Event: Equatable, Sendable {
      case edited(String)
    }

    struct Context: Sendable {
      var store: @Sendable (String) async -> Void
      var clock: any Clock<Duration>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .edited(let draft): state.draft = draft
      }
    }

    static var autosave: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.draft.isEmpty ? nil : $0.draft },
        effect: .perform { draft, context in
          await context.store(draft)
          return nil
        }
      )
      .debounced(for: .seconds(1), clock: \.clock)
    }
  }

  /// The failure of a quote that waits on a clock.
  enum QuoteError: Error, Equatable {
    case clock(ClockError)
    case timedOut

    static func == (lhs: QuoteError, rhs: QuoteError) -> Bool {
      switch (lhs, rhs) {
      case (.clock, .clock), (.timedOut, .timedOut): true
      default: false
      }
    }
  }

  /// A clock that cannot measure time: every sleep throws.
  struct StoppedClock: Clock {
    struct Stopped: Error {}

    var now: ContinuousClock.Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
      throw Stopped()
    }
  }

  /// A clock whose every sleep is over at once: a deadline that has always passed.
  struct ImmediateClock: Clock {
    var now: ContinuousClock.Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {}
  }
}

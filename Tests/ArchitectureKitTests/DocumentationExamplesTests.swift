import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// The code of the README and of the DocC articles, compiled and run.
///
/// Every Swift block of an article names the file that holds it, and `Scripts/docs.sh` checks
/// that the block appears there word for word. The blocks about the samples live in `Sample/`
/// and `Tests/SampleTests`; the rest live here, each in a test that checks what the article
/// claims.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct DocumentationExamplesTests {
  // MARK: README.md and the landing page

  @Test func readmeSearchesForTheLatestQuery() async {
    struct State: Equatable, Sendable {
      var query = ""
      var results: [String] = []
    }
    enum Event: Sendable {
      case search(String)
      case found([String])
    }
    struct Context: Sendable {
      var search: @Sendable (String) async -> [String]
    }

    let system = System<State, Event, Never, Context>(
      initialState: State(),
      context: Context(search: { query in ["\(query) 350", "\(query) 700"] }),
      reduce: { state, event in
        switch event {
        case .search(let query): state.query = query
        case .found(let results): state.results = results
        }
      },
      feedback: [
        // The request is the query: a new query cancels the search still running.
        .react(
          request: { $0.query.isEmpty ? nil : $0.query },
          effect: .run { query, context in .found(await context.search(query)) }
        )
      ]
    )
    var rendered: [String] = []
    system.addUIBinding { state in rendered.append("\(state.query): \(state.results)") }
    system.send(.search("yeezy"))
    // rendered starts [": []", "yeezy: []"]; the search's answer renders as soon as it arrives
    // (before `send` returns when the search completes without suspending).

    #expect(rendered.prefix(2) == [": []", "yeezy: []"])
    for await state in system.states where !state.results.isEmpty { break }
    #expect(rendered == [": []", "yeezy: []", "yeezy: [\"yeezy 350\", \"yeezy 700\"]"])
  }

  // MARK: CoreConcepts.md

  @Test func observersSeeEveryStep() {
    struct NoDependencies: Sendable {}
    let counter = System<Int, Int, Never, NoDependencies>(
      initialState: 0,
      context: NoDependencies(),
      reduce: { count, amount in count += amount }
    )
    var steps: [String] = []
    counter.addObserver { activity in
      if case .step(let event, let previous, let current) = activity {
        steps.append("\(previous) + \(event) = \(current)")
      }
    }
    counter.send(2)
    counter.send(3)
    #expect(steps == ["0 + 2 = 2", "2 + 3 = 5"])
  }

  @Test func statesIsAnAsyncSequenceOfEveryState() async {
    struct NoDependencies: Sendable {}
    let counter = System<Int, Int, Never, NoDependencies>(
      initialState: 0,
      context: NoDependencies(),
      reduce: { count, amount in count += amount }
    )
    let states = counter.states
    counter.send(1)
    counter.send(1)
    counter.stop()  // ends the sequence

    var seen: [Int] = []
    for await count in states { seen.append(count) }
    #expect(seen == [0, 1, 2])
  }

  @Test func aHooksSendIsQueuedBehindWhatTheSystemIsDoing() {
    struct NoDependencies: Sendable {}
    let counter = System<Int, Int, Never, NoDependencies>(
      initialState: 0,
      context: NoDependencies(),
      reduce: { count, amount in count += amount }
    )
    var renders: [Int] = []
    counter.addUIBinding { [unowned counter] count in
      renders.append(count)
      if count == 0 { counter.send(1000) }  // queued: reduced once this render is over
    }
    #expect(renders == [0, 1000])
  }

  @Test func stopTakesEffectAtOnce() {
    struct NoDependencies: Sendable {}
    let counter = System<Int, Int, Never, NoDependencies>(
      initialState: 0,
      context: NoDependencies(),
      reduce: { count, amount in count += amount }
    )
    var ignored: [Int] = []
    counter.addObserver { activity in
      if case .eventIgnored(let amount, .stopped) = activity { ignored.append(amount) }
    }
    counter.addLoopCallback { [unowned counter] count in
      guard count == 1 else { return }
      counter.send(10)  // queued behind this step
      counter.stop()  // at once: the queued 10 is reported, never reduced
    }
    counter.send(1)
    #expect(counter.state == 1)
    #expect(ignored == [10])
  }

  // MARK: FeedbackLoops.md

  @Test func aRequestStartsIsKeptIsRestartedAndIsCancelled() async {
    let system = TestSystem(
      initialState: SearchBox.State(),
      context: SearchBox.Context(search: { query in [query.uppercased()] }),
      reduce: SearchBox.reduce,
      feedback: SearchBox.feedback
    )
    // 1. nil → "yee": the effect for "yee" starts.
    system.send(.typed("yee")) { $0.query = "yee" }
    system.expectStarted("yee")
    // 2. "yee" → "yee": an equal request keeps its effect; nothing starts or stops.
    system.send(.typed("yee"))
    // 3. "yee" → "yeezy": the old effect is cancelled, a new one starts.
    system.send(.typed("yeezy")) { $0.query = "yeezy" }
    system.expectCancelled("yee")
    system.expectStarted("yeezy")
    // 4. "yeezy" → nil: the running effect is cancelled.
    system.send(.typed(nil)) { $0.query = nil }
    system.expectCancelled("yeezy")
    await system.finish()
  }

  @Test func aFinishedEffectLeavesItsRequestInPlace() async {
    let system = TestSystem(
      initialState: SearchBox.State(),
      context: SearchBox.Context(search: { query in [query.uppercased()] }),
      reduce: SearchBox.reduce,
      feedback: SearchBox.feedback
    )
    system.send(.typed("yee")) { $0.query = "yee" }
    system.expectStarted("yee")
    system.run("yee")
    await system.receive(.found(["YEE"])) { $0.results = ["YEE"] }
    // The request is still "yee" and its effect has ended: nothing runs again.
    system.send(.typed("yee"))
    // Vanishing and coming back is a new request: it starts again.
    system.send(.typed(nil)) { $0.query = nil }
    system.send(.typed("yee")) { $0.query = "yee" }
    system.expectStarted("yee")
    system.simulate("yee", event: .found(["YEE", "YEEZY"]))
    await system.receive(.found(["YEE", "YEEZY"])) { $0.results = ["YEE", "YEEZY"] }
    await system.finish()
  }

  @Test func aCancelledSearchNeverDeliversItsResult() async {
    let backend = SlowBackend()
    let system = System<SearchBox.State, SearchBox.Event, Never, SearchBox.Context>(
      initialState: SearchBox.State(),
      context: SearchBox.Context(search: { query in await backend.search(query) }),
      reduce: SearchBox.reduce,
      feedback: SearchBox.feedback
    )
    var ignored: [SearchBox.Event] = []
    system.addObserver { activity in
      if case .eventIgnored(let event, .cancelledEffect) = activity {
        ignored.append(event)
      }
    }
    system.send(.typed("yee"))
    system.send(.typed("yeezy"))  // cancels the search for "yee"
    // The backend ignores cancellation and answers both searches, the stale one first.
    await backend.answer("yee", with: ["stale"])
    await backend.answer("yeezy", with: ["fresh"])

    let (activities, continuation) = AsyncStream.makeStream(of: Void.self)
    system.addObserver { _ in continuation.yield() }
    var nextActivity = activities.makeAsyncIterator()
    while ignored.isEmpty || system.state.results.isEmpty {
      await nextActivity.next()
    }
    #expect(ignored == [.found(["stale"])])
    #expect(system.state.results == ["fresh"])
  }

  @Test func setRequestsRunOneEffectPerElement() async {
    let system = TestSystem(
      initialState: Thumbnails.State(),
      context: Thumbnails.Context(render: { row in "thumbnail \(row)" }),
      reduce: Thumbnails.reduce,
      feedback: Thumbnails.feedback
    )
    // {} → {1, 2}: both start.
    system.send(.scrolled(to: [1, 2])) { $0.visibleRows = [1, 2] }
    system.expectStarted(1, 2)
    // {1, 2} → {2, 3}: 1 vanished and is cancelled, 3 is new and starts, 2 is untouched.
    system.send(.scrolled(to: [2, 3])) { $0.visibleRows = [2, 3] }
    system.expectCancelled(1)
    system.expectStarted(3)
    // 2 finishes; its request leaves the set, which cancels nothing: it already ended.
    system.simulate(2, event: .loaded(row: 2, "thumbnail 2"))
    await system.receive(.loaded(row: 2, "thumbnail 2")) { $0.thumbnails[2] = "thumbnail 2" }
    system.run(3)
    await system.receive(.loaded(row: 3, "thumbnail 3")) { $0.thumbnails[3] = "thumbnail 3" }
    await system.finish()
  }

  @Test func keyedRequestsInAKeyedRequestsCollectionBehaveAlike() async {
    let system = TestSystem(
      initialState: JournaledAutosave.State(),
      context: Autosave.Context(save: { _ in }),
      reduce: JournaledAutosave.reduce,
      feedback: JournaledAutosave.feedback
    )
    let notes = Autosave.Draft(id: "notes", text: "buy milk")
    let todo = Autosave.Draft(id: "todo", text: "call Richi")
    let notesEdited = Autosave.Draft(id: "notes", text: "buy oat milk")
    system.send(.edited(notes)) { $0.unsaved["notes"] = notes }
    system.expectStarted(notes)
    system.send(.edited(todo)) { $0.unsaved["todo"] = todo }
    system.expectStarted(todo)
    system.send(.edited(notesEdited)) { $0.unsaved["notes"] = notesEdited }
    system.expectCancelled(notes)
    system.expectStarted(notesEdited)
    system.simulate(todo, event: .saved(todo))
    await system.receive(.saved(todo)) { $0.unsaved["todo"] = nil }
    system.run(notesEdited)
    await system.receive(.saved(notesEdited)) { $0.unsaved["notes"] = nil }
    await system.finish()
  }

  @Test func aRequestSetStartsEachNewElementAndForgetsTheOnesThatCameBack() async {
    let system = TestSystem(
      initialState: Uploads.State(),
      context: Uploads.Context(upload: { _ in true }),
      reduce: Uploads.reduce,
      feedback: Uploads.feedback
    )
    system.send(.chose([1, 2])) { $0.pending = [1, 2] }
    system.expectStarted(1, 2)
    // 2 is pending already: only 3 starts.
    system.send(.chose([2, 3])) { $0.pending = [1, 2, 3] }
    system.expectStarted(3)
    system.simulate(2, event: .uploaded(2, true))
    await system.receive(.uploaded(2, true)) {
      $0.pending = [1, 3]
      $0.uploaded = [2]
    }
    system.run(1)
    await system.receive(.uploaded(1, true)) {
      $0.pending = [3]
      $0.uploaded = [2, 1]
    }
    system.run(3)
    await system.receive(.uploaded(3, true)) {
      $0.pending = []
      $0.uploaded = [2, 1, 3]
    }
    await system.finish()
  }

  @Test func keyedRequestsRestartOnlyTheKeyThatChanged() async {
    let system = TestSystem(
      initialState: Autosave.State(),
      context: Autosave.Context(save: { _ in }),
      reduce: Autosave.reduce,
      feedback: Autosave.feedback
    )
    let notes = Autosave.Draft(id: "notes", text: "buy milk")
    let todo = Autosave.Draft(id: "todo", text: "call Richi")
    let notesEdited = Autosave.Draft(id: "notes", text: "buy oat milk")
    // Each new key starts its own save.
    system.send(.edited(notes)) { $0.unsaved["notes"] = notes }
    system.expectStarted(notes)
    system.send(.edited(todo)) { $0.unsaved["todo"] = todo }
    system.expectStarted(todo)
    // The request of "notes" changes: only "notes" restarts; "todo" keeps saving.
    system.send(.edited(notesEdited)) { $0.unsaved["notes"] = notesEdited }
    system.expectCancelled(notes)
    system.expectStarted(notesEdited)
    // Saved keys vanish from the dictionary.
    system.simulate(todo, event: .saved(todo))
    await system.receive(.saved(todo)) { $0.unsaved["todo"] = nil }
    system.run(notesEdited)
    await system.receive(.saved(notesEdited)) { $0.unsaved["notes"] = nil }
    await system.finish()
  }

  @Test func aStreamSendsEventsUntilItsRequestVanishes() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: Stopwatch.State(),
      context: Stopwatch.Context(clock: clock),
      reduce: Stopwatch.reduce,
      feedback: Stopwatch.feedback,
      clock: clock
    )
    system.send(.start) { $0.isRunning = true }
    system.expectStarted(Stopwatch.Request.tick)
    system.run(Stopwatch.Request.tick)
    for second in 1...3 {
      await clock.advance(by: .seconds(1))
      await system.receive(.tick) { $0.seconds = second }
    }
    system.send(.stop) { $0.isRunning = false }
    system.expectCancelled(Stopwatch.Request.tick)
    await system.finish()
  }

  @Test func aJobFinishesWithItsLastEvent() async {
    let system = TestSystem(
      initialState: Upload.State(),
      context: Upload.Context(sendChunk: { _, _ in }),
      reduce: Upload.reduce,
      feedback: Upload.feedback
    )
    system.send(.upload("a.txt")) { $0.file = "a.txt" }
    system.expectStarted("a.txt")
    system.run("a.txt")
    await system.receive(.progress(1)) { $0.progress = 1 }
    await system.receive(.progress(2)) { $0.progress = 2 }
    // The job returned its last event, so it has finished: clearing the request cancels nothing.
    await system.receive(.uploaded("a.txt")) {
      $0.file = nil
      $0.uploaded = ["a.txt"]
    }
    await system.finish()
  }

  @Test func aStreamWhoseLastEventClearsItsRequestIsCancelled() async {
    let system = TestSystem(
      initialState: Upload.State(),
      context: Upload.Context(sendChunk: { _, _ in }),
      reduce: Upload.reduce,
      feedback: Upload.streamFeedback
    )
    system.send(.upload("a.txt")) { $0.file = "a.txt" }
    system.expectStarted("a.txt")
    system.run("a.txt")
    await system.receive(.progress(1)) { $0.progress = 1 }
    await system.receive(.progress(2)) { $0.progress = 2 }
    await system.receive(.uploaded("a.txt")) {
      $0.file = nil
      $0.uploaded = ["a.txt"]
    }
    // The stream was still running when its own last event cleared the request.
    system.expectCancelled("a.txt")
    await system.finish()
  }

  // MARK: DependencyInjection.md

  @Test func theSameEffectRunsWithALiveOrATestContext() async {
    let live = Greeter.Context(name: { "Richi" })
    let test = Greeter.Context(name: { "Test user" })

    #expect(await Greeter.greeting().run(live) == .success("Hello, Richi"))
    #expect(await Greeter.greeting().run(test) == .success("Hello, Test user"))
  }

  @Test func localRunsAnEffectInALargerContext() async {
    let app = Greeter.AppContext(
      greeter: Greeter.Context(name: { "Richi" }),
      catalogName: "Spring"
    )
    let greeting = Greeter.greeting().local { (app: Greeter.AppContext) in app.greeter }

    #expect(await greeting.run(app) == .success("Hello, Richi"))
  }

  @Test func aReaderIsAComputationOfItsEnvironment() {
    struct Environment {
      var currency: String
    }
    let price = Reader<Environment, Environment>.ask()
      .map(\.currency)
      .map { currency in "220.00 \(currency)" }

    #expect(price.run(Environment(currency: "EUR")) == "220.00 EUR")
    #expect(price.run(Environment(currency: "USD")) == "220.00 USD")
  }

  // MARK: Testing.md

  @Test func anUnhandledFailureMustBeExpected() async {
    let system = TestSystem(
      initialState: Profile.State(),
      context: Profile.Context(fetchName: { "Richi" }),
      reduce: Profile.reduce,
      feedback: Profile.feedback
    )
    system.send(.load) { $0.isLoading = true }
    system.expectStarted("profile")
    system.simulate("profile", failure: .offline)
    // The failure became no event, so the state is untouched: the page still says "loading".
    system.expectFailure { $0 == .offline }
    #expect(system.state.isLoading)
    await system.finish()
  }

  @Test func aNonExhaustiveTestChecksOnlyWhatItAsserts() async {
    let system = TestSystem(
      initialState: SearchBox.State(),
      context: SearchBox.Context(search: { query in [query.uppercased()] }),
      reduce: SearchBox.reduce,
      feedback: SearchBox.feedback,
      exhaustivity: .off
    )
    system.send(.typed("yee"))
    system.run("yee")
    await system.receive(.found(["YEE"])) { $0.results = ["YEE"] }
    await system.finish()
  }

  @Test func aNonExhaustiveReceiveReducesTheEventsItSkips() async {
    let system = TestSystem(
      initialState: Upload.State(),
      context: Upload.Context(sendChunk: { _, _ in }),
      reduce: Upload.reduce,
      feedback: Upload.feedback,
      exhaustivity: .off
    )
    system.send(.upload("a.txt"))
    system.run("a.txt")
    // Both progress events are skipped, not dropped: they are reduced, in order.
    await system.receive(.uploaded("a.txt")) { $0.uploaded = ["a.txt"] }
    #expect(system.state.progress == 2)
    await system.finish()
  }

  @Test func receiveMatchesEventsThatAreNotEquatable() async {
    struct Offline: Error {}
    let system = TestSystem(
      initialState: Weather.State(),
      context: Weather.Context(fetchTemperature: { throw Offline() }),
      reduce: Weather.reduce,
      feedback: Weather.feedback
    )
    system.send(.refresh) { $0.isLoading = true }
    system.expectStarted("weather")
    system.run("weather")
    // `failed` carries `any Error`: match the case, whatever the error.
    let failed: (Weather.Event) -> Bool = { if case .failed = $0 { true } else { false } }
    await system.receive(where: failed) {
      $0.isLoading = false
      $0.hasFailed = true
    }
    await system.finish()
  }

  @Test func aReducerSpecReadsGivenWhenThen() {
    let search = ReducerSpec(reduce: SearchBox.reduce)

    search.given(SearchBox.State())
      .when(.typed("yee"), .found(["YEE"]))
      .then(SearchBox.State(query: "yee", results: ["YEE"]))
  }

  // MARK: ManualClock's doc comment

  @Test func aDebouncedSearchWaitsForTheClock() async {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: Search.State(), context: Search.Context(clock: clock),
      reducer: Search.reducer, feedback: [Search.debounce], clock: clock
    )
    system.send(.queryChanged("yee")) { $0.query = "yee" }
    system.expectStarted(Search.Request.debounce("yee"))
    system.run(Search.Request.debounce("yee"))
    await clock.advance(by: .milliseconds(300))
    await system.receive(.search("yee")) { $0.submitted = "yee" }
    await system.finish()
  }

  // MARK: Concurrency.md

  @Test func aBackgroundSystemRunsOnItsOwnActor() async {
    let importer = await BackgroundSystem(
      initialState: Importer.State(),
      context: Importer.Context(store: { _ in }),
      reduce: Importer.reduce,
      feedback: Importer.feedback
    )
    await importer.send(.received(["a", "b", "c"]))
    for await state in await importer.states where state.isDone { break }

    #expect(await importer.state.imported.sorted() == ["a", "b", "c"])
    await importer.stop()
  }

  // MARK: MigratingFromArchitectureKit.md

  @Test func theSeedCounterCompilesUnchanged() {
    var label = ""
    enum Event: Sendable {
      case increment
      case decrement
    }
    struct Context: Sendable {}
    enum CounterError: Error {
      case generic
    }

    typealias CounterSystem = System<Int, Event, CounterError, Context>
    typealias CounterUserAction = UserAction<Int, Event, CounterError, Context>

    let tapPlus = CounterUserAction(trigger: .increment)
    let tapMinus = CounterUserAction(trigger: .decrement)

    CounterSystem.pure(
      initialState: 0,
      context: Context(),
      reducer: { state, event in
        switch event {
        case .increment: state + 1
        case .decrement: state - 1
        }
      },
      uiBindings: [{ state in label = String(state) }],
      userActions: [tapPlus, tapMinus],
      feedback: []
    )
    tapPlus.execute()
    tapPlus.execute()
    tapMinus.execute()

    #expect(label == "1")
  }

  @Test func theSeedConditionFeedbackStillWorks() async {
    let system = TestSystem(
      initialState: ProductPage.State.start,
      context: ProductPage.Context(title: "Yeezy Triple White"),
      reducer: ProductPage.reducer,
      feedback: ProductPage.seedFeedback
    )
    system.send(.load) { $0 = .loading }
    // The condition form's request is `true`: the condition that turned on.
    system.expectStarted(true)
    system.run(true)
    await system.receive(.loaded("Yeezy Triple White")) { $0 = .loaded("Yeezy Triple White") }
    await system.finish()
  }

  @Test func theRequestFeedbackReplacesTheCondition() async {
    let system = TestSystem(
      initialState: ProductPage.State.start,
      context: ProductPage.Context(title: nil),
      reducer: ProductPage.reducer,
      feedback: ProductPage.feedback
    )
    system.send(.load) { $0 = .loading }
    system.expectStarted(ProductPage.Request.loadTitle)
    system.run(ProductPage.Request.loadTitle)
    await system.receive(.failed(.notFound)) { $0 = .failed(.notFound) }
    await system.finish()
  }

  // MARK: MigratingFromRxFeedback.md

  @Test func bindingsBecomeUIBindingsAndSends() async {
    var resultsText = ""
    let system = System<SearchBox.State, SearchBox.Event, Never, SearchBox.Context>(
      initialState: SearchBox.State(),
      context: SearchBox.Context(search: { query in [query.uppercased()] }),
      reduce: SearchBox.reduce,
      feedback: SearchBox.feedback
    )
    // Bindings' subscriptions: render every state.
    system.addUIBinding { state in resultsText = state.results.joined(separator: ", ") }
    // Bindings' events: the UI sends them.
    let searchFieldChanged = { (text: String) in system.send(.typed(text)) }

    searchFieldChanged("yee")
    for await state in system.states where !state.results.isEmpty { break }
    #expect(resultsText == "YEE")
  }
}

// MARK: - The features of the examples

extension DocumentationExamplesTests {
  /// A search box: the query is the request, a feedback searches for it.
  enum SearchBox {
    struct State: Equatable {
      var query: String?
      var results: [String] = []
    }

    enum Event: Equatable, Sendable {
      case typed(String?)
      case found([String])
    }

    struct Context: Sendable {
      var search: @Sendable (String) async -> [String]
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .typed(let query): state.query = query
      case .found(let results): state.results = results
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          request: { $0.query },
          effect: .run { query, context in .found(await context.search(query)) }
        )
      ]
    }
  }

  /// A backend that answers only when the test says so and ignores cancellation, as many
  /// callback SDKs do.
  actor SlowBackend {
    private var answers: [String: [String]] = [:]
    private var waiting: [String: CheckedContinuation<[String], Never>] = [:]

    func search(_ query: String) async -> [String] {
      if let answer = answers[query] { return answer }
      return await withCheckedContinuation { waiting[query] = $0 }
    }

    func answer(_ query: String, with results: [String]) {
      if let searcher = waiting.removeValue(forKey: query) {
        searcher.resume(returning: results)
      } else {
        answers[query] = results
      }
    }
  }

  /// A list that loads the thumbnails of the rows on screen: a set of requests.
  enum Thumbnails {
    struct State: Equatable {
      var visibleRows: Set<Int> = []
      var thumbnails: [Int: String] = [:]
    }

    enum Event: Equatable, Sendable {
      case scrolled(to: Set<Int>)
      case loaded(row: Int, String)
    }

    struct Context: Sendable {
      var render: @Sendable (Int) async -> String
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .scrolled(let rows): state.visibleRows = rows
      case .loaded(let row, let thumbnail): state.thumbnails[row] = thumbnail
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          requests: { $0.visibleRows.subtracting($0.thumbnails.keys) },
          effect: .run { row, context in .loaded(row: row, await context.render(row)) }
        )
      ]
    }
  }

  /// Documents saved as they are edited: one request per document, keyed by its identifier.
  enum Autosave {
    struct Draft: Hashable, Sendable {
      var id: String
      var text: String
    }

    struct State: Equatable {
      var unsaved: [String: Draft] = [:]
    }

    enum Event: Equatable, Sendable {
      case edited(Draft)
      case saved(Draft)
    }

    struct Context: Sendable {
      var save: @Sendable (Draft) async -> Void
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .edited(let draft):
        state.unsaved[draft.id] = draft
      case .saved(let draft):
        if state.unsaved[draft.id] == draft { state.unsaved[draft.id] = nil }
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          keyedRequests: { $0.unsaved },
          effect: .run { draft, context in
            await context.save(draft)
            return .saved(draft)
          }
        )
      ]
    }
  }

  /// The autosave over a `KeyedRequests`: the same reducer and feedback, with each step
  /// costing the drafts that changed.
  enum JournaledAutosave {
    typealias Draft = Autosave.Draft
    typealias Event = Autosave.Event
    typealias Context = Autosave.Context

    struct State: Equatable {
      var unsaved: KeyedRequests<String, Draft> = [:]
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .edited(let draft):
        state.unsaved[draft.id] = draft
      case .saved(let draft):
        if state.unsaved[draft.id] == draft { state.unsaved[draft.id] = nil }
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          keyed: \.unsaved,
          effect: .run { draft, context in
            await context.save(draft)
            return .saved(draft)
          }
        )
      ]
    }
  }

  /// Uploads fanned out from a `RequestSet`: one effect per pending file, each result costing
  /// its own file, however many are pending.
  enum Uploads {
    typealias FileID = Int

    struct State: Equatable {
      var pending: RequestSet<FileID> = []
      var uploaded: [FileID] = []
    }

    enum Event: Equatable, Sendable {
      case chose([FileID])
      case uploaded(FileID, Bool)
    }

    struct Context: Sendable {
      var upload: @Sendable (FileID) async -> Bool
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .chose(let files): for file in files { state.pending.insert(file) }
      case .uploaded(let file, _):
        state.pending.remove(file)
        state.uploaded.append(file)
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          requests: \.pending,
          effect: .run { file, context in .uploaded(file, await context.upload(file)) })
      ]
    }
  }

  /// A stopwatch: a long-running effect ticks while the state says it runs.
  enum Stopwatch {
    struct State: Equatable {
      var isRunning = false
      var seconds = 0
    }

    enum Event: Equatable, Sendable {
      case start
      case stop
      case tick
    }

    enum Request: Equatable, Sendable {
      case tick
    }

    struct Context: Sendable {
      var clock: any Clock<Duration>
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .start: state.isRunning = true
      case .stop: state.isRunning = false
      case .tick: state.seconds += 1
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          request: { $0.isRunning ? Request.tick : nil },
          effect: .stream { _, context, send in
            while true {
              do {
                try await context.clock.sleep(for: .seconds(1))
              } catch {
                return  // cancelled: the stopwatch stopped
              }
              await send(.tick)
            }
          }
        )
      ]
    }
  }

  /// An upload that reports progress, as a job (it returns its last event) and as a stream.
  enum Upload {
    struct State: Equatable {
      var file: String?
      var progress = 0
      var uploaded: [String] = []
    }

    enum Event: Equatable, Sendable {
      case upload(String)
      case progress(Int)
      case uploaded(String)
    }

    struct Context: Sendable {
      var sendChunk: @Sendable (String, Int) async -> Void
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .upload(let file):
        state.file = file
      case .progress(let chunk):
        state.progress = chunk
      case .uploaded(let file):
        state.file = nil
        state.uploaded.append(file)
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          request: \.file,
          effect: .job { file, context, send in
            for chunk in 1...2 {
              await context.sendChunk(file, chunk)
              await send(.progress(chunk))
            }
            return .uploaded(file)  // the last event: the job finishes
          }
        )
      ]
    }

    static var streamFeedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          request: \.file,
          effect: .stream { file, context, send in
            for chunk in 1...2 {
              await context.sendChunk(file, chunk)
              await send(.progress(chunk))
            }
            await send(.uploaded(file))  // clears the request while the stream runs
          }
        )
      ]
    }
  }

  /// A weather page whose failure event carries an error, so its events are not `Equatable`.
  enum Weather {
    struct State: Equatable {
      var isLoading = false
      var temperature: Int?
      var hasFailed = false
    }

    enum Event: Sendable {
      case refresh
      case loaded(Int)
      case failed(any Error)
    }

    struct Context: Sendable {
      var fetchTemperature: @Sendable () async throws -> Int
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .refresh:
        state.isLoading = true
      case .loaded(let temperature):
        state.isLoading = false
        state.temperature = temperature
      case .failed:
        state.isLoading = false
        state.hasFailed = true
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          request: { $0.isLoading ? "weather" : nil },
          effect: .run { _, context in
            do {
              return .loaded(try await context.fetchTemperature())
            } catch {
              return .failed(error)
            }
          }
        )
      ]
    }
  }

  /// The search of ``ManualClock``'s doc comment: a query is searched once it has not changed
  /// for 300 ms.
  enum Search {
    struct State: Equatable {
      var query = ""
      var submitted: String?
    }

    enum Event: Equatable, Sendable {
      case queryChanged(String)
      case search(String)
    }

    enum Request: Equatable, Sendable {
      case debounce(String)
    }

    struct Context: Sendable {
      var clock: any Clock<Duration>
    }

    static func reducer(_ state: State, _ event: Event) -> State {
      var state = state
      switch event {
      case .queryChanged(let query): state.query = query
      case .search(let query): state.submitted = query
      }
      return state
    }

    /// A new query restarts the wait; a cancelled wait's event never arrives.
    static var debounce: Feedback<State, Event, Never, Context> {
      .react(
        request: { $0.query.isEmpty ? nil : Request.debounce($0.query) },
        effect: .run { request, context in
          switch request {
          case .debounce(let query):
            try? await context.clock.sleep(for: .milliseconds(300))
            return .search(query)
          }
        }
      )
    }
  }

  /// A greeting that reads the user's name from its context.
  enum Greeter {
    struct Context: Sendable {
      var name: @Sendable () async -> String
    }

    struct AppContext: Sendable {
      var greeter: Context
      var catalogName: String
    }

    static func greeting() -> AsyncResult<Context, String, Never> {
      AsyncResult(operation: { context in
        .success("Hello, \(await context.name())")
      })
    }
  }

  /// A profile whose load can fail without an event: the failure is unhandled.
  enum Profile {
    struct State: Equatable {
      var isLoading = false
      var name: String?
    }

    enum Event: Equatable, Sendable {
      case load
      case loaded(String)
    }

    enum Failure: Error, Equatable {
      case offline
    }

    struct Context: Sendable {
      var fetchName: @Sendable () async throws(Failure) -> String
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .load:
        state.isLoading = true
      case .loaded(let name):
        state.isLoading = false
        state.name = name
      }
    }

    static var feedback: [Feedback<State, Event, Failure, Context>] {
      [
        .react(
          request: { $0.isLoading ? "profile" : nil },
          effect: .run { _, context throws(Failure) in .loaded(try await context.fetchName()) }
        )
      ]
    }
  }

  /// A server-side import: every received line is stored concurrently, off the main actor.
  enum Importer {
    struct State: Equatable, Sendable {
      var pending: Set<String> = []
      var imported: [String] = []

      var isDone: Bool { pending.isEmpty && !imported.isEmpty }
    }

    enum Event: Sendable {
      case received([String])
      case stored(String)
    }

    struct Context: Sendable {
      var store: @Sendable (String) async -> Void
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .received(let lines):
        state.pending.formUnion(lines)
      case .stored(let line):
        state.pending.remove(line)
        state.imported.append(line)
      }
    }

    static var feedback: [Feedback<State, Event, Never, Context>] {
      [
        .react(
          requests: \.pending,
          effect: .run { line, context in
            await context.store(line)
            return .stored(line)
          }
        )
      ]
    }
  }

  /// The seed's page shape, with the seed's condition feedback and with a request.
  enum ProductPage {
    enum State: Equatable, Sendable {
      case start
      case loading
      case loaded(String)
      case failed(PageError)

      var request: Request? { self == .loading ? .loadTitle : nil }
    }

    enum Event: Equatable, Sendable {
      case load
      case loaded(String)
      case failed(PageError)
    }

    enum Request: Equatable, Sendable {
      case loadTitle
    }

    enum PageError: Error, Equatable {
      case notFound
    }

    struct Context: Sendable {
      var title: String?
    }

    static func reducer(_ state: State, _ event: Event) -> State {
      switch event {
      case .load: .loading
      case .loaded(let title): .loaded(title)
      case .failed(let error): .failed(error)
      }
    }

    static func getTitle() -> AsyncResult<Context, String, PageError> {
      .unfold { context, complete in
        complete(context.title.map { .success($0) } ?? .failure(.notFound))
      }
    }

    /// Before: the seed's condition form.
    static var seedFeedback: [Feedback<State, Event, PageError, Context>] {
      [
        .react(
          { _ in getTitle().map { .loaded($0) }.mapErrorRecover { .failed($0) } },
          when: { $0 == .loading }
        )
      ]
    }

    /// After: the request is a value of the state.
    static var feedback: [Feedback<State, Event, PageError, Context>] {
      [
        .react(
          request: \.request,
          effects: { _ in getTitle().map { .loaded($0) }.mapErrorRecover { .failed($0) } }
        )
      ]
    }
  }
}

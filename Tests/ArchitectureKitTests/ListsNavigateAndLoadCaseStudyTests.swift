import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

// TCA's "Lists: navigate and load" case study (03-Navigation-Lists-NavigateAndLoad), as this
// library writes it: a list of counters; tapping a row selects it at once and shows its counter
// a second later, and leaving the row writes the counter's count back into it. Selecting
// another row, or none, before the counter shows cancels the wait.

/// A list of rows, each opening a counter that loads after a second.
enum ListsNavigateAndLoad {
  struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var count: Int
  }

  /// The screen a row opens: its count, and a fact about it fetched on demand.
  struct Counter: Equatable, Sendable {
    var count: Int
    var fact: String?
  }

  enum CounterEvent: Equatable, Sendable {
    case incrementTapped
    case factTapped
    case factLoaded(String)
  }

  /// The fact service: a fact about a number.
  typealias Facts = @Sendable (Int) async -> String

  struct Context: Sendable {
    var clock: any Clock<Duration>
    var facts: Facts
  }

  struct State: Equatable, Sendable {
    var rows = [Row(id: 0, count: 1), Row(id: 1, count: 42), Row(id: 2, count: 100)]
    /// The row tapped, shown while its counter loads.
    var selection: Int?
    @Presented var counter: Counter?
  }

  enum Event: Equatable, Sendable {
    case select(Int?)
    case loaded(Int)
    case counter(CounterEvent)
  }

  static var counter: Feature<Counter, CounterEvent, Never, Facts> {
    Feature(
      reduce: { counter, event in
        switch event {
        case .incrementTapped: counter.count += 1
        case .factTapped: break
        case .factLoaded(let fact): counter.fact = fact
        }
      },
      feedback: [
        .react(
          on: { event, counter in event == .factTapped ? counter.count : nil },
          effect: .run { count, facts in .factLoaded(await facts(count)) })
      ])
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .select(let id):
          // Leaving a row writes its counter back into it.
          if let counter = state.counter, let selection = state.selection,
            let index = state.rows.firstIndex(where: { $0.id == selection })
          {
            state.rows[index].count = counter.count
          }
          state.counter = nil
          state.selection = id
        case .loaded(let id):
          guard let row = state.rows.first(where: { $0.id == id }) else { return }
          state.counter = Counter(count: row.count)
        case .counter: break
        }
      },
      feedback: [
        // Loads the selected row's counter while it is not shown; another selection, or none,
        // cancels the wait.
        Feedback.react(
          request: { $0.counter == nil ? $0.selection : nil },
          effect: .run { id, _ in .loaded(id) }
        )
        .debounced(for: .seconds(1), clock: \.clock)
      ]
    )
    .presents(
      Self.counter, state: \.$counter, event: Event.counter,
      context: { context, _ in context.facts })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ListsNavigateAndLoadCaseStudyTests {
  typealias State = ListsNavigateAndLoad.State
  typealias Counter = ListsNavigateAndLoad.Counter

  let clock = ManualClock()

  func makeSystem() -> CaseStudySystem {
    TestSystem(
      initialState: State(),
      context: ListsNavigateAndLoad.Context(clock: clock, facts: { "\($0) is a number." }),
      feature: ListsNavigateAndLoad.feature, clock: clock)
  }

  typealias CaseStudySystem = TestSystem<
    State, ListsNavigateAndLoad.Event, Never, ListsNavigateAndLoad.Context
  >

  /// Taps a row: it is selected at once, and its counter's wait starts.
  func tap(_ row: Int, in system: CaseStudySystem) {
    system.send(.select(row)) { $0.selection = row }
    system.expectStarted(row)
    system.run(row)
  }

  @Test func aRowShowsItsCounterASecondAfterItIsTappedAndKeepsItsCount() async {
    let system = makeSystem()
    tap(1, in: system)
    await clock.advance(by: .seconds(1))
    await system.receive(.loaded(1)) { $0.counter = Counter(count: 42) }
    system.send(.counter(.incrementTapped)) { $0.counter?.count = 43 }
    system.send(.select(nil)) {
      $0.rows[1].count = 43
      $0.selection = nil
      $0.counter = nil
    }
    await system.finish()
  }

  @Test func tappingAnotherRowBeforeTheCounterShowsCancelsTheFirstWait() async {
    let system = makeSystem()
    tap(1, in: system)
    await clock.advance(by: .milliseconds(500))
    system.send(.select(2)) { $0.selection = 2 }
    system.expectCancelled(1)
    system.expectStarted(2)
    system.run(2)
    // The second row waits its own second, from its tap.
    await clock.advance(by: .milliseconds(500))
    await clock.advance(by: .milliseconds(500))
    await system.receive(.loaded(2)) { $0.counter = Counter(count: 100) }
    await system.finish()
  }

  @Test func leavingTheRowBeforeTheCounterShowsCancelsTheWait() async {
    let system = makeSystem()
    tap(0, in: system)
    await clock.advance(by: .milliseconds(500))
    system.send(.select(nil)) { $0.selection = nil }
    system.expectCancelled(0)
    await clock.advance(by: .seconds(1))
    await system.finish()
  }

  /// In the app, a counter left while its fact loads takes the fetch with it.
  ///
  /// The fact service's every fetch waits until the test answers it, or until it is cancelled.
  /// The next row's counter is a screen of its own, with nothing running.
  @Test func aCounterLeftWhileItsFactLoadsTakesTheFetchWithIt() async {
    // A clock of its own, whose wait for a sleeper outlasts a main actor kept busy by other
    // suites (the one the other tests share gives up after 5 seconds).
    let clock = ManualClock(timeout: .seconds(60))
    let asked = Recorder<Int>()
    let cancelled = Recorder<Int>()
    let answered = Gate()
    let system = System(
      initialState: State(),
      context: ListsNavigateAndLoad.Context(
        clock: clock,
        facts: { count in
          asked.record(count)
          guard await answered.opens() else {
            cancelled.record(count)
            return ""
          }
          return "\(count) is a number."
        }),
      feature: ListsNavigateAndLoad.feature)
    // The count of each counter shown, as the screen shows it.
    let shown = Recorder<Int>()
    system.addObserver { activity in
      if case .step(_, let previous, let current) = activity, previous.counter == nil,
        let counter = current.counter
      {
        shown.record(counter.count)
      }
    }

    /// Taps a row, and lets the second pass until its counter shows.
    func open(_ row: Int) async {
      let counters = shown.values.count + 1
      system.send(.select(row))
      await clock.waitForSleepers()
      await clock.advance(by: .seconds(1))
      let showed = await failsafe(
        until: { shown.values.count >= counters }, wait: { await shown.wait(count: counters) })
      #expect(showed, "row \(row)'s counter never showed")
    }

    await open(1)
    #expect(system.state.counter == Counter(count: 42))
    system.send(.counter(.incrementTapped))
    system.send(.counter(.factTapped))
    await asked.wait()
    #expect(asked.values == [43])

    await open(2)
    await cancelled.wait()
    #expect(cancelled.values == [43])
    #expect(system.state.rows.map(\.count) == [1, 43, 100])
    #expect(system.state.counter == Counter(count: 100))
    #expect(system.runningRequests.isEmpty)

    // The first counter's answer comes too late: its fetch is gone.
    answered.open()
    system.send(.counter(.incrementTapped))
    #expect(system.state.counter == Counter(count: 101))
  }
}

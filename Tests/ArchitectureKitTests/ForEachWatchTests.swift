import ArchitectureKit
import TestDoubles
import Testing

/// A system's own `forEach` reconciles only the element an event changed, unless something else
/// changed the array (see PerformanceLedger: children that did not change): every way the array
/// can change otherwise is reconciled in the step that changed it.
@Suite(.timeLimit(.minutes(3)))
@MainActor
struct ForEachWatchTests {
  enum Row {
    struct State: Identifiable, Equatable {
      var id: Int
      var wants = false
      var loads = 0
      var keepsLoading = false
    }

    enum Event: Equatable, Sendable {
      case want
      case loaded
      case renumber(Int)
      case keepLoading
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .want: state.wants = true
          case .loaded:
            state.wants = false
            state.loads += 1
          case .renumber(let id): state.id = id
          case .keepLoading: state.keepsLoading = true
          }
        },
        feedback: [
          .react(request: { $0.wants ? $0.id : nil }, effects: { _ in .pure(.loaded) }),
          .react(
            request: { $0.keepsLoading ? "forever \($0.id)" : nil },
            effect: .stream { _, _, _ in await waitUntilCancelled() }),
        ])
    }
  }

  struct State: Equatable {
    var rows = (0..<4).map { Row.State(id: $0) }
  }

  enum Event: Equatable, Sendable {
    case row(Int, Row.Event)
    case wantAll, reverse
    case remove(Int)
    case other(Other.Event)
  }

  /// A feature scoped on the whole state, whose reducer runs before the list's in each step.
  enum Other {
    enum Event: Equatable, Sendable { case wantFirst }
    static var feature: Feature<ForEachWatchTests.State, Event, Never, Void> {
      Feature(reduce: { state, event in
        switch event {
        case .wantFirst: state.rows[0].wants = true
        }
      })
    }
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature<State, Event, Never, Void>(reduce: { state, event in
      switch event {
      // The parent changes a sibling in the step of a child's event.
      case .row(0, .want): state.rows[1].wants = true
      case .row: break
      case .wantAll: for index in state.rows.indices { state.rows[index].wants = true }
      case .reverse: state.rows.reverse()
      case .remove(let id): state.rows.removeAll { $0.id == id }
      case .other: break
      }
    })
    .forEach(Row.feature, elements: \.rows, event: Event.row, context: { _ in })
    .scope(
      Other.feature, state: \.self, event: Event.other,
      extract: { if case .other(let event) = $0 { event } else { nil } }, context: { _ in })
  }

  /// The system, observed or not: an observer keeps each step's previous state, so the array
  /// is copied on each change, which the watch must tell from other changes too.
  func makeSystem(observed: Bool) -> System<State, Event, Never, Void> {
    let system = System(initialState: State(), context: (), feature: Self.feature)
    if observed { system.addObserver { _ in } }
    return system
  }

  func loads(_ system: System<State, Event, Never, Void>) -> [Int: Int] {
    Dictionary(uniqueKeysWithValues: system.state.rows.map { ($0.id, $0.loads) })
  }

  @Test(arguments: [false, true])
  func aSiblingTheParentChangesInAChildsStepIsReconciledInThatStep(observed: Bool) {
    let system = makeSystem(observed: observed)
    system.send(.row(0, .want))
    #expect(loads(system) == [0: 1, 1: 1, 2: 0, 3: 0])
    system.send(.row(2, .want))
    #expect(loads(system) == [0: 1, 1: 1, 2: 1, 3: 0])
  }

  @Test(arguments: [false, true])
  func everyElementTheParentChangesOnItsOwnEventIsReconciled(observed: Bool) {
    let system = makeSystem(observed: observed)
    system.send(.wantAll)
    #expect(loads(system) == [0: 1, 1: 1, 2: 1, 3: 1])
  }

  @Test(arguments: [false, true])
  func aReducerThatRunsBeforeTheListsIsSeenInTheSameStep(observed: Bool) {
    let system = makeSystem(observed: observed)
    system.send(.row(3, .want))
    system.send(.other(.wantFirst))
    #expect(loads(system) == [0: 1, 1: 0, 2: 0, 3: 1])
  }

  @Test(arguments: [false, true])
  func anEventFindsItsElementAfterTheElementsMoved(observed: Bool) {
    let system = makeSystem(observed: observed)
    system.send(.row(3, .want))
    system.send(.reverse)
    system.send(.row(2, .want))
    system.send(.row(3, .want))
    #expect(system.state.rows.map(\.id) == [3, 2, 1, 0])
    #expect(loads(system) == [0: 0, 1: 0, 2: 1, 3: 2])
  }

  @Test(arguments: [false, true])
  func anElementThatChangesItsOwnIdentifierIsANewChild(observed: Bool) {
    let system = makeSystem(observed: observed)
    let activities = Recorder(observing: system)
    system.send(.row(2, .keepLoading))
    system.send(.row(2, .renumber(20)))
    #expect(activities.cancelled.map(\.description) == ["rows[2]: forever 2"])
    #expect(activities.started.map(\.description).last == "rows[20]: forever 20")
    system.send(.row(2, .want))
    system.send(.row(20, .want))
    #expect(loads(system) == [0: 0, 1: 0, 20: 1, 3: 0])
    system.stop()
  }

  @Test(arguments: [false, true])
  func aRemovedElementsEffectsAreCancelledInTheStepThatRemovedIt(observed: Bool) {
    let system = makeSystem(observed: observed)
    let activities = Recorder(observing: system)
    system.send(.row(1, .keepLoading))
    system.send(.row(3, .keepLoading))
    system.send(.remove(1))
    #expect(activities.cancelled.map(\.description) == ["rows[1]: forever 1"])
    system.send(.row(3, .want))
    #expect(activities.cancelled.count == 1)
    system.stop()
  }

  /// Where a follow-up is sent from: every hook a user can send from during a step.
  enum Hook: CaseIterable, Sendable {
    case binding, partBinding, loopCallback, observer
  }

  /// Events a hook sends in the middle of a burst reach their elements.
  ///
  /// Each step they take reconciles what it changed: a child's own event, one the parent changes
  /// a sibling with, a removal that cancels a child's effects. The same with the list copied by
  /// an observer.
  @Test(arguments: Hook.allCases, [false, true])
  func eventsAHookSendsReachTheirElementsAndAreReconciled(hook: Hook, observed: Bool) {
    let system = makeSystem(observed: observed)
    let activities = Recorder(observing: system)
    var sent = false
    let followUp = { [unowned system] (state: State) in
      guard !sent, state.rows.first?.loads == 1 else { return }
      sent = true
      system.send(.row(2, .want))
      system.send(.remove(3))
      system.send(.row(0, .want))
    }
    switch hook {
    case .binding: system.addUIBinding(followUp)
    case .partBinding: system.addUIBinding(\.rows) { _ in followUp(system.state) }
    case .loopCallback: system.addLoopCallback(followUp)
    case .observer:
      system.addObserver { activity in
        if case .step(_, _, let current) = activity { followUp(current) }
      }
    }
    system.send(.row(3, .keepLoading))
    system.send(.row(0, .want))
    #expect(sent)
    // Row 0 twice, row 1 twice by the parent on row 0's events, row 2 once; row 3 removed.
    #expect(loads(system) == [0: 2, 1: 2, 2: 1])
    #expect(activities.cancelled.map(\.description) == ["rows[3]: forever 3"])
    system.stop()
  }

  // MARK: A stack

  struct Screens: Equatable {
    var path = Stack<Row.State>()
  }

  enum ScreensEvent: Equatable, Sendable {
    case path(StackID, Row.Event)
    case push
    case pop
  }

  static var screens: Feature<Screens, ScreensEvent, Never, Void> {
    Feature<Screens, ScreensEvent, Never, Void>(reduce: { state, event in
      switch event {
      // The parent changes the bottom screen in the step of another screen's event.
      case .path(let id, .want) where id != state.path.ids.first:
        if let bottom = state.path.ids.first { state.path[id: bottom]?.wants = true }
      case .path: break
      case .push: state.path.append(Row.State(id: state.path.count))
      case .pop: state.path.removeLast()
      }
    })
    .forEach(Row.feature, stack: \.path, event: ScreensEvent.path, context: { _, _ in })
  }

  @Test(arguments: [false, true])
  func aScreenTheParentChangesInAnotherScreensStepIsReconciledInThatStep(observed: Bool) {
    let system = System(initialState: Screens(), context: (), feature: Self.screens)
    if observed { system.addObserver { _ in } }
    for _ in 0..<3 { system.send(.push) }
    let ids = system.state.path.ids
    system.send(.path(ids[2], .want))
    #expect(system.state.path.map(\.loads) == [1, 0, 1])
    system.send(.path(ids[1], .want))
    #expect(system.state.path.map(\.loads) == [2, 1, 1])
    system.send(.pop)
    system.send(.path(ids[1], .want))
    #expect(system.state.path.map(\.loads) == [3, 2])
  }

  // MARK: Lists in scoped children

  struct Lists: Equatable {
    var left = State()
    var right = State()
  }

  enum ListsEvent: Equatable, Sendable {
    case left(Event)
    case right(Event)
  }

  /// The same list feature scoped twice: each scope keeps its own watch.
  static var lists: Feature<Lists, ListsEvent, Never, Void> {
    Feature<Lists, ListsEvent, Never, Void>(reduce: { _, _ in })
      .scope(
        feature, state: \.left, event: ListsEvent.left,
        extract: { if case .left(let event) = $0 { event } else { nil } }, context: { _ in }
      )
      .scope(
        feature, state: \.right, event: ListsEvent.right,
        extract: { if case .right(let event) = $0 { event } else { nil } }, context: { _ in })
  }

  @Test(arguments: [false, true])
  func aListScopedTwiceReconcilesEachOfItsCopiesExactly(observed: Bool) {
    let system = System(initialState: Lists(), context: (), feature: Self.lists)
    if observed { system.addObserver { _ in } }
    system.send(.left(.row(0, .want)))
    system.send(.right(.row(2, .want)))
    system.send(.right(.wantAll))
    system.send(.left(.row(3, .want)))
    #expect(system.state.left.rows.map(\.loads) == [1, 1, 0, 1])
    #expect(system.state.right.rows.map(\.loads) == [1, 1, 2, 1])
    system.send(.left(.reverse))
    system.send(.left(.row(0, .want)))
    #expect(system.state.left.rows.map(\.id) == [3, 2, 1, 0])
    // The parent wants the row at index 1, now the one of identifier 2.
    #expect(system.state.left.rows.map(\.loads) == [1, 1, 1, 2])
  }

  // MARK: Loops asked on every step

  enum Watcher {
    struct State: Identifiable, Equatable {
      let id: Int
    }

    enum Event: Equatable, Sendable {
      case show
    }

    /// Shows something until a step that is not its own: an event-triggered loop with `until:`.
    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { _, _ in },
        feedback: [
          .react(
            on: { event, _ in event == .show ? "shown" : nil },
            until: { event, _ in event == nil },
            effect: .stream { _, _, _ in await waitUntilCancelled() })
        ])
    }
  }

  struct Watchers: Equatable {
    var rows = (0..<3).map { Watcher.State(id: $0) }
    var ticks = 0
  }

  enum WatchersEvent: Equatable, Sendable {
    case row(Int, Watcher.Event)
    case tick
  }

  @Test func aChildsLoopThatIsAskedOnEveryStepIsAskedOnAStepThatLeftItAlone() {
    let system = System(
      initialState: Watchers(), context: (),
      feature: Feature<Watchers, WatchersEvent, Never, Void>(reduce: { state, event in
        if event == .tick { state.ticks += 1 }
      })
      .forEach(Watcher.feature, elements: \.rows, event: WatchersEvent.row, context: { _ in }))
    let activities = Recorder(observing: system)
    system.send(.row(1, .show))
    #expect(activities.started.map(\.description) == ["rows[1]: shown"])
    // A step of the parent's: the row's `until` sees no event of its own, and cancels.
    system.send(.tick)
    #expect(activities.cancelled.map(\.description) == ["rows[1]: shown"])
  }

  @Test func aFeedbackListedTwiceDoesNotShareTheWatch() {
    let list = Self.feature
    // A feature built by hand from another's feedback, twice, inside a system whose own
    // compositions are watched.
    let twice = Feature<State, Event, Never, Void>(
      reduce: { state, event in
        if case .wantAll = event {
          for index in state.rows.indices { state.rows[index].wants = true }
        }
      },
      feedback: list.feedback + list.feedback)
    // The right list is watched, so the system shares bookkeeping with its compositions.
    let system = System(
      initialState: Lists(), context: (),
      feature: Feature<Lists, ListsEvent, Never, Void>(reduce: { _, _ in })
        .scope(
          twice, state: \.left, event: ListsEvent.left,
          extract: { if case .left(let event) = $0 { event } else { nil } }, context: { _ in }
        )
        .scope(
          list, state: \.right, event: ListsEvent.right,
          extract: { if case .right(let event) = $0 { event } else { nil } }, context: { _ in }))
    let activities = Recorder(observing: system)
    system.send(.left(.wantAll))
    // Each copy of the rows' loop starts one effect per row: both saw the parent's change.
    let started = activities.started.map(\.description)
    #expect(started.count == 8)
    #expect(
      Set(started) == ["left.rows[0]: 0", "left.rows[1]: 1", "left.rows[2]: 2", "left.rows[3]: 3"])
  }
}

/// Runs until its task is cancelled: reads a stream that never yields, kept open while it is
/// read.
private func waitUntilCancelled() async {
  let (never, keptOpen) = AsyncStream<Never>.makeStream()
  for await _ in never {}
  keptOpen.finish()
}

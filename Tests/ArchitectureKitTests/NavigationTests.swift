import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// Each transition of a destination and a stack: which effects start, which are cancelled,
/// what each child is called.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationTests {
  typealias Screen = Navigation.Screen
  typealias Detail = Navigation.Detail

  func makeSystem() -> TestSystem<Navigation.State, Navigation.Event, Never, Navigation.AppContext>
  {
    TestSystem(
      initialState: Navigation.State(), context: Navigation.AppContext(),
      feature: Navigation.feature)
  }

  @Test func aPresentedScreenRunsWithAContextMadeFromItsState() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.run("shoe", in: "destination.detail")
    await system.receive(.destination(.detail(.loaded("api/shoe shoe")))) {
      $0.destination = .detail(Detail.State(product: "shoe", loaded: "api/shoe shoe"))
    }
    await system.finish()
  }

  /// A presentation declared as a stored `Presented` property, composed through `\.destination`
  /// (read at its offset), presents, names and dismisses its screen as the wrapper does.
  @Test func aStoredPresentationActsAsTheWrapperDoes() async {
    struct State: Equatable {
      var destination = Presented<Screen.State>(wrappedValue: nil)
    }
    enum Event: Equatable, Sendable {
      case destination(Screen.Event)
      case show(Screen.State)
      case dismiss
    }
    let feature = Feature<State, Event, Never, Navigation.AppContext>(
      reduce: { state, event in
        switch event {
        case .destination: break
        case .show(let screen): state.destination.wrappedValue = screen
        case .dismiss: state.destination.wrappedValue = nil
        }
      }
    )
    .presents(
      Screen.feature, state: \.destination, event: Event.destination,
      context: { context, _ in context })
    let system = TestSystem(
      initialState: State(), context: Navigation.AppContext(), feature: feature)
    system.send(.show(Navigation.detail("shoe"))) {
      $0.destination.wrappedValue = Navigation.detail("shoe")
    }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.destination(.detail(.increment))) {
      $0.destination.wrappedValue = .detail(Detail.State(product: "shoe", quantity: 1))
    }
    system.send(.show(Navigation.detail("hat"))) {
      $0.destination.wrappedValue = Navigation.detail("hat")
    }
    system.expectCancelled("shoe", in: "destination.detail")
    system.expectStarted("hat", in: "destination.detail")
    system.send(.dismiss) { $0.destination.wrappedValue = nil }
    system.expectCancelled("hat", in: "destination.detail")
    await system.finish()
  }

  @Test func presentingTheSameScreenAgainIsANewChild() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.show(Navigation.detail("shoe")))
    system.expectCancelled("shoe", in: "destination.detail")
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.dismiss) { $0.destination = nil }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func aChangeInPlaceKeepsTheChild() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.destination(.detail(.increment))) {
      $0.destination = .detail(Detail.State(product: "shoe", quantity: 1))
    }
    system.send(.dismiss) { $0.destination = nil }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func switchingCaseCancelsTheOldScreen() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.show(.settings(.init()))) { $0.destination = .settings(.init()) }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func theParentDismisses() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.dismiss) { $0.destination = nil }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func theChildDismissesItselfAndTheParentSeesIt() async {
    let system = makeSystem()
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    system.send(.destination(.detail(.closeTapped))) {
      $0.destination = nil
      $0.log = ["detail closed itself"]
    }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func aChildDismissesItselfFromItsEffectsEvent() async {
    let system = makeSystem()
    system.send(.show(.settings(.init()))) { $0.destination = .settings(.init()) }
    system.send(.destination(.settings(.save("Ada")))) {
      $0.destination = .settings(.init(saving: "Ada"))
    }
    system.expectStarted("Ada", in: "destination.settings")
    system.run("Ada", in: "destination.settings")
    await system.receive(.destination(.settings(.saved))) { $0.destination = nil }
    await system.finish()
  }

  @Test func anEventForADismissedDestinationIsReportedWithItsName() async {
    let system = makeSystem()
    let failures = await capturingFailures {
      system.send(.destination(.detail(.increment)))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("destination") == true)
  }

  @Test func pushAndPopStartAndCancelEachScreensEffects() async {
    let system = makeSystem()
    system.send(.push(Navigation.detail("shoe"))) { $0.path.append(Navigation.detail("shoe")) }
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.push(Navigation.detail("hat"))) { $0.path.append(Navigation.detail("hat")) }
    system.expectStarted("hat", in: "path[#2].detail")
    system.send(.path(1, .detail(.increment))) {
      $0.path[id: 1] = .detail(Detail.State(product: "shoe", quantity: 1))
    }
    system.send(.pop) { $0.path.removeLast() }
    system.expectCancelled("hat", in: "path[#2].detail")
    system.send(.pop) { $0.path.removeLast() }
    system.expectCancelled("shoe", in: "path[#1].detail")
    await system.finish()
  }

  @Test func anEventForAPoppedScreenIsReportedWithItsName() async {
    let system = makeSystem()
    system.send(.push(.settings(.init()))) { $0.path.append(.settings(.init())) }
    system.send(.pop) { $0.path.removeLast() }
    let failures = await capturingFailures {
      system.send(.path(1, .settings(.save("Ada"))))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("path[#1]") == true)
  }

  @Test func aScreenThatDismissesItselfIsPoppedWithTheScreensAboveIt() async {
    let system = makeSystem()
    system.send(.push(Navigation.detail("shoe"))) { $0.path.append(Navigation.detail("shoe")) }
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.push(Navigation.detail("hat"))) { $0.path.append(Navigation.detail("hat")) }
    system.expectStarted("hat", in: "path[#2].detail")
    system.send(.path(1, .detail(.closeTapped))) { $0.path.removeAll() }
    system.expectCancelled("shoe", in: "path[#1].detail")
    system.expectCancelled("hat", in: "path[#2].detail")
    await system.finish()
  }

  @Test func aConfirmedDialogPopsToTheRootAndDismissesItself() async {
    let system = makeSystem()
    system.send(.push(Navigation.detail("shoe"))) { $0.path.append(Navigation.detail("shoe")) }
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.popToRootTapped) {
      $0.confirmation = .confirmationDialog(
        title: "Back to the start?",
        buttons: [.destructive("Pop all", action: .popToRoot), .cancel()])
    }
    system.send(.confirmation(.popToRoot)) {
      $0.confirmation = nil
      $0.path.removeAll()
    }
    system.expectCancelled("shoe", in: "path[#1].detail")
    system.send(.popToRootTapped) {
      $0.confirmation = .confirmationDialog(
        title: "Back to the start?",
        buttons: [.destructive("Pop all", action: .popToRoot), .cancel()])
    }
    system.send(.confirmation(nil)) {
      $0.confirmation = nil
      $0.log = ["stayed"]
    }
    await system.finish()
  }

  @Test func aStackBuiltAfreshIsANewSetOfScreensEvenWithTheSameIDs() async {
    let system = makeSystem()
    system.send(.push(Navigation.detail("shoe"))) { $0.path.append(Navigation.detail("shoe")) }
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.replacePath([Navigation.detail("shoe")]))
    system.expectCancelled("shoe", in: "path[#1].detail")
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.replacePath([])) { $0.path = Stack() }
    system.expectCancelled("shoe", in: "path[#1].detail")
    await system.finish()
  }

  @Test func requestsNameTheirScreen() {
    let system = makeSystem()
    system.exhaustivity = .off
    system.send(.show(Navigation.detail("shoe")))
    system.send(.push(Navigation.detail("hat")))
    #expect(
      system.runningRequests.map(\.description).sorted() == [
        "destination.detail: shoe", "path[#1].detail: hat",
      ])
  }
}

/// A child's dismissal through `ifLet`, `forEach` and `scope`.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct DismissalThroughCompositionTests {
  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var text = ""
  }

  enum RowEvent: Equatable, Sendable {
    case edit(String)
    case delete
  }

  static var row: Feature<Row, RowEvent, Never, Void> {
    Feature(reduce: { row, event in
      if case .edit(let text) = event { row.text = text }
    })
    .dismissing(on: { $0 == .delete })
  }

  struct State: Equatable {
    var rows: [Row] = []
    var editing: Row?
  }

  enum Event: Equatable, Sendable {
    case row(Int, RowEvent)
    case editing(RowEvent)
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature(reduce: { _, _ in })
      .forEach(row, elements: \.rows, event: Event.row, context: { $0 })
      .ifLet(row, state: \.editing, event: Event.editing, context: { $0 })
  }

  @Test func aRowThatDismissesItselfLeavesItsArray() {
    let system = TestSystem(
      initialState: State(rows: [Row(id: 1), Row(id: 2)]), context: (), feature: Self.feature)
    system.send(.row(1, .edit("a"))) { $0.rows[0].text = "a" }
    system.send(.row(1, .delete)) { $0.rows = [Row(id: 2)] }
  }

  @Test func anOptionalChildThatDismissesItselfBecomesNil() {
    let system = TestSystem(
      initialState: State(editing: Row(id: 3)), context: (), feature: Self.feature)
    system.send(.editing(.delete)) { $0.editing = nil }
  }

  @Test func aScopedChildsDismissalEndsThePresentationAroundIt() {
    struct Sheet: Equatable, Sendable {
      var row = Row(id: 9)
    }
    enum SheetEvent: Equatable, Sendable {
      case row(RowEvent)
    }
    let sheet = Feature<Sheet, SheetEvent, Never, Void>(reduce: { _, _ in })
      .scope(Self.row, state: \.row, event: SheetEvent.row, context: { $0 })
    struct Parent: Equatable {
      @Presented var sheet: Sheet?
    }
    enum ParentEvent: Equatable, Sendable {
      case sheet(SheetEvent)
    }
    let parent = Feature<Parent, ParentEvent, Never, Void>(reduce: { _, _ in })
      .presents(sheet, state: \.$sheet, event: ParentEvent.sheet, context: { _, _ in })
    let system = TestSystem(initialState: Parent(sheet: Sheet()), context: (), feature: parent)
    system.send(.sheet(.row(.edit("x")))) { $0.sheet?.row.text = "x" }
    system.send(.sheet(.row(.delete))) { $0.sheet = nil }
  }
}

/// Changing a presented enum state or a stack's screen in place keeps it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct InPlaceNavigationTests {
  typealias Detail = Navigation.Detail

  @Test func modifyingThePresentedCaseKeepsThePresentation() async {
    let system = TestSystem(
      initialState: Navigation.State(), context: Navigation.AppContext(),
      feature: Navigation.feature)
    system.send(.show(Navigation.detail("shoe"))) { $0.destination = Navigation.detail("shoe") }
    system.expectStarted("shoe", in: "destination.detail")
    var state = system.state
    let identity = state.$destination
    #expect(state.$destination.modify(Navigation.Screen.State.detail) { $0.quantity = 2 })
    #expect(state.destination == .detail(Detail.State(product: "shoe", quantity: 2)))
    #expect(!state.$destination.modify(Navigation.Screen.State.settings) { $0.name = "x" })
    // Only an assignment mints a new presentation: the wrapper compares equal in value, and
    // the system keeps the child when a reducer modifies it this way (aChangeInPlace… above).
    #expect(identity.wrappedValue != state.destination)
    system.send(.dismiss) { $0.destination = nil }
    system.expectCancelled("shoe", in: "destination.detail")
    await system.finish()
  }

  @Test func modifyingAScreenOnTheStackInPlace() {
    var path = Stack<Navigation.Screen.State>()
    let id = path.append(Navigation.detail("shoe"))
    #expect(path.lastID == id)
    #expect(path.modify(id, Navigation.Screen.State.detail) { $0.quantity = 3 })
    #expect(path[id: id] == .detail(Detail.State(product: "shoe", quantity: 3)))
    #expect(!path.modify(7, Navigation.Screen.State.detail) { $0.quantity = 4 })
  }

  @Test func stacksWithTheSameScreensAreEqualWhateverTheirHistory() {
    var pushedAndPopped = Stack<Navigation.Screen.State>()
    pushedAndPopped.append(Navigation.detail("shoe"))
    pushedAndPopped.append(Navigation.detail("hat"))
    pushedAndPopped.removeLast()
    let pushedOnce: Stack<Navigation.Screen.State> = [Navigation.detail("shoe")]
    #expect(pushedAndPopped == pushedOnce)
  }
}

/// A dialog presented as one case of a destination, beside a sheet.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct DialogDestinationTests {
  enum AlertAction: Equatable, Sendable {
    case retry
  }

  enum Destination {
    enum State: Equatable, Sendable {
      case alert(DialogState<AlertAction>)
      case note(String)
    }

    enum Event: Equatable, Sendable {
      case alert(AlertAction?)
      case note(Never)
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { _, _ in })
        .ifCase(
          DialogState<AlertAction>.feature(), case: State.alert, event: Event.alert,
          context: { _, _ in () })
    }
  }

  struct State: Equatable {
    @Presented var destination: Destination.State?
    var retries = 0
  }

  enum Event: Equatable, Sendable {
    case destination(Destination.Event)
    case failed
  }

  static var feature: Feature<State, Event, Never, Void> {
    Feature(reduce: { state, event in
      switch event {
      case .failed:
        state.destination = .alert(
          .alert(title: "Failed", buttons: [Button("Retry", action: .retry)]))
      case .destination(.alert(.retry)): state.retries += 1
      case .destination: break
      }
    })
    .presents(
      Destination.feature, state: \.$destination, event: Event.destination,
      context: { _, _ in () })
  }

  typealias Button = DialogState<AlertAction>.Button

  @Test func aTapOnTheAlertCaseDismissesTheDestination() {
    let system = TestSystem(initialState: State(), context: (), feature: Self.feature)
    system.send(.failed) {
      $0.destination = .alert(.alert(title: "Failed", buttons: [Button("Retry", action: .retry)]))
    }
    system.send(.destination(.alert(.retry))) {
      $0.destination = nil
      $0.retries = 1
    }
  }

  @Test func poppingAnEmptyStackDoesNothing() {
    var path = Stack<Int>()
    path.removeLast()
    path.append(1)
    path.removeLast(5)
    #expect(path.isEmpty)
  }
}

/// Children on computed key paths are named without the getter's address.
@MainActor
struct ComputedScopeNameTests {
  struct Settings: Equatable {
    var name = ""
  }

  struct Parent: Equatable {
    var storage: Settings? = Settings()
    var settings: Settings? {
      get { storage }
      set { storage = newValue }
    }
  }

  enum ParentEvent: Equatable, Sendable {
    case settings(Never)
  }

  @Test func aComputedKeyPathIsNamedByItsTypeStablyAcrossRuns() {
    let settings = Feature<Settings, Never, Never, Void>(
      reduce: { _, _ in },
      feedback: [
        .react(request: { $0.name.isEmpty ? "load" : nil }, effect: .perform { _, _ in nil })
      ]
    )
    let parent = Feature<Parent, ParentEvent, Never, Void>(reduce: { _, _ in })
      .ifLet(settings, state: \.settings, event: ParentEvent.settings, context: { $0 })
    let system = TestSystem(initialState: Parent(), context: (), feature: parent)
    system.exhaustivity = .off
    #expect(
      system.runningRequests.map(\.description) == ["(computed Optional<Settings>): load"])
  }
}

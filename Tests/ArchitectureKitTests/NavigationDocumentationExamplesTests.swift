import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// The code of the Navigation article, compiled and run.
///
/// Each Swift block of the article appears here line for line (`Scripts/docs.sh` checks it);
/// each test checks what the article claims about its block, transition by transition.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationDocumentationExamplesTests {
  /// The app's context in the examples: reviews that answer at once.
  static let context = AppContext(reviews: { id in ["\(id) is great"] })

  // MARK: A destination

  @Test func aPresentedProductLoadsWithAnAPIMadeForIt() async {
    let catalog = TestSystem(
      initialState: Catalog.State(), context: Self.context, feature: Catalog.feature)
    catalog.send(.productTapped("shoe")) { $0.destination = .product(Product.State(id: "shoe")) }
    catalog.expectStarted("shoe", in: "destination.product")
    #expect(catalog.runningRequests.map(\.description) == ["destination.product: shoe"])
    catalog.run("shoe", in: "destination.product")
    await catalog.receive(.destination(.product(.reviewsLoaded(["shoe is great"])))) {
      $0.destination = .product(Product.State(id: "shoe", reviews: ["shoe is great"]))
    }
    await catalog.finish()
  }

  @Test func presentingTheSameScreenAgainIsANewChild() async {
    let catalog = TestSystem(
      initialState: Catalog.State(), context: Self.context, feature: Catalog.feature)
    catalog.send(.productTapped("shoe")) { $0.destination = .product(Product.State(id: "shoe")) }
    catalog.expectStarted("shoe", in: "destination.product")
    catalog.send(.productTapped("shoe"))
    catalog.expectCancelled("shoe", in: "destination.product")
    catalog.expectStarted("shoe", in: "destination.product")
    catalog.send(.destination(.product(.doneTapped))) { $0.destination = nil }
    catalog.expectCancelled("shoe", in: "destination.product")
    await catalog.finish()
  }

  @Test func switchingCaseCancelsTheOldScreensEffects() async {
    let catalog = TestSystem(
      initialState: Catalog.State(), context: Self.context, feature: Catalog.feature)
    catalog.send(.productTapped("shoe")) { $0.destination = .product(Product.State(id: "shoe")) }
    catalog.expectStarted("shoe", in: "destination.product")
    catalog.send(.filtersTapped) { $0.destination = .filters(Filters.State(maxPrice: 100)) }
    catalog.expectCancelled("shoe", in: "destination.product")
    await catalog.finish()
  }

  @Test func aChangeInPlaceKeepsTheScreensEffects() async {
    let catalog = TestSystem(
      initialState: Catalog.State(), context: Self.context, feature: Catalog.feature)
    catalog.send(.productTapped("shoe")) { $0.destination = .product(Product.State(id: "shoe")) }
    catalog.expectStarted("shoe", in: "destination.product")
    catalog.send(.destination(.product(.quantityChanged(2)))) {
      $0.destination = .product(Product.State(id: "shoe", quantity: 2))
    }
    catalog.send(.productTapped("hat")) { $0.destination = .product(Product.State(id: "hat")) }
    catalog.expectCancelled("shoe", in: "destination.product")
    catalog.expectStarted("hat", in: "destination.product")
    catalog.send(.destination(.product(.doneTapped))) { $0.destination = nil }
    catalog.expectCancelled("hat", in: "destination.product")
    await catalog.finish()
  }

  @Test func theParentDismissesAndReadsWhatTheScreenHad() async {
    let catalog = TestSystem(
      initialState: Catalog.State(maxPrice: 50), context: Self.context, feature: Catalog.feature)
    catalog.send(.filtersTapped) { $0.destination = .filters(Filters.State(maxPrice: 50)) }
    catalog.send(.destination(.filters(.maxPriceChanged(30)))) {
      $0.destination = .filters(Filters.State(maxPrice: 30))
    }
    catalog.send(.destination(.filters(.applyTapped))) {
      $0.destination = nil
      $0.maxPrice = 30
    }
    catalog.send(.filtersTapped) { $0.destination = .filters(Filters.State(maxPrice: 30)) }
    catalog.send(.destination(.filters(.cancelTapped))) { $0.destination = nil }
    await catalog.finish()
  }

  @Test func aLateEventOfAScreenPresentedAnewIsDropped() async {
    let gate = Gate(ignoringCancellation: true)
    let activities = Recorder<String>()
    let catalog = System(
      initialState: Catalog.State(),
      context: AppContext(reviews: { id in
        await gate.wait()
        return ["\(id) is great"]
      }),
      feature: Catalog.feature,
      observers: [Self.record(in: activities)])
    catalog.send(.productTapped("shoe"))
    catalog.send(.productTapped("shoe"))
    gate.open()
    await activities.wait { $0.hasPrefix("ignored") }
    await activities.wait { $0.hasPrefix("finished") }
    #expect(
      activities.values.filter { !$0.hasPrefix("finished") } == [
        "started destination.product: shoe", "cancelled destination.product: shoe",
        "started destination.product: shoe", "ignored: its effect had been cancelled",
      ])
    #expect(
      catalog.state.destination == .product(Product.State(id: "shoe", reviews: ["shoe is great"]))
    )
    catalog.stop()
  }

  // MARK: Presentation identity

  @Test(arguments: [
    (Sheet.Write.assign, true),
    (.changeInPlace, false),
    (.changeThroughInout, false),
    (.assignThroughKeyPath, true),
    (.changeThroughKeyPath, true),
    (.copyAndAssignBack, true),
  ])
  func onlyTheSetterMakesANewPresentation(write: Sheet.Write, isNew: Bool) {
    let activities = Recorder<String>()
    let sheet = System(
      initialState: Sheet.State(), context: Self.waiting, feature: Sheet.feature,
      observers: [Self.record(in: activities)])
    sheet.send(.write(.assign))
    sheet.send(.write(write))
    #expect(
      activities.values
        == (isNew
          ? ["started product: shoe", "cancelled product: shoe", "started product: shoe"]
          : ["started product: shoe"]))
    sheet.stop()
  }

  @Test func aPlainOptionalCannotTellANewPresentationFromAChange() async {
    let sheet = TestSystem(
      initialState: PlainSheet.State(), context: Self.context, feature: PlainSheet.feature)
    sheet.send(.show("shoe")) { $0.product = Product.State(id: "shoe") }
    sheet.expectStarted("shoe", in: "product")
    sheet.send(.show("shoe"))
    // The same child: the load goes on, as if the sheet had never closed and opened again.
    #expect(sheet.runningRequests.map(\.description) == ["product: shoe"])
    sheet.send(.product(.doneTapped)) { $0.product = nil }
    sheet.expectCancelled("shoe", in: "product")
    await sheet.finish()
  }

  // MARK: A stack

  @Test func pushPopAndPopToStartAndCancelEachScreensEffects() async {
    let browser = TestSystem(
      initialState: Browser.State(), context: Self.context, feature: Browser.feature)
    browser.send(.productTapped("shoe")) { $0.path.append(.product(Product.State(id: "shoe"))) }
    browser.expectStarted("shoe", in: "path[#1].product")
    browser.send(.productTapped("hat")) { $0.path.append(.product(Product.State(id: "hat"))) }
    browser.expectStarted("hat", in: "path[#2].product")
    browser.send(.productTapped("sock")) { $0.path.append(.product(Product.State(id: "sock"))) }
    browser.expectStarted("sock", in: "path[#3].product")
    browser.send(.backTapped) { $0.path.removeLast() }
    browser.expectCancelled("sock", in: "path[#3].product")
    browser.send(.productTapped("sock")) { $0.path.append(.product(Product.State(id: "sock"))) }
    browser.expectStarted("sock", in: "path[#4].product")
    browser.send(.backTo(1)) { $0.path.pop(to: 1) }
    browser.expectCancelled("hat", in: "path[#2].product")
    browser.expectCancelled("sock", in: "path[#4].product")
    browser.send(.homeTapped) { $0.path.removeAll() }
    browser.expectCancelled("shoe", in: "path[#1].product")
    await browser.finish()
  }

  @Test func aScreenOfTheStackIsTestedByItsName() async {
    let browser = TestSystem(
      initialState: Browser.State(), context: Self.context, feature: Browser.feature)
    browser.send(.productTapped("shoe")) { $0.path.append(.product(Product.State(id: "shoe"))) }
    browser.expectStarted("shoe", in: "path[#1].product")
    browser.send(.productTapped("hat")) { $0.path.append(.product(Product.State(id: "hat"))) }
    browser.expectStarted("hat", in: "path[#2].product")
    browser.run("hat", in: "path[#2].product")
    await browser.receive(.path(2, .product(.reviewsLoaded(["hat is great"])))) {
      $0.path[id: 2] = .product(Product.State(id: "hat", reviews: ["hat is great"]))
    }
    browser.send(.path(1, .product(.doneTapped))) { $0.path.removeAll() }
    browser.expectCancelled("shoe", in: "path[#1].product")
    await browser.finish()
  }

  @Test func aStackBuiltAfreshIsANewSetOfScreensEvenWithTheSameIDs() async {
    let browser = TestSystem(
      initialState: Browser.State(), context: Self.context, feature: Browser.feature)
    browser.send(.productTapped("shoe")) { $0.path.append(.product(Product.State(id: "shoe"))) }
    browser.expectStarted("shoe", in: "path[#1].product")
    browser.send(.deepLink(["shoe"]))
    browser.expectCancelled("shoe", in: "path[#1].product")
    browser.expectStarted("shoe", in: "path[#1].product")
    browser.send(.homeTapped) { $0.path.removeAll() }
    browser.expectCancelled("shoe", in: "path[#1].product")
    await browser.finish()
  }

  @Test func anEventForAPoppedScreenIsReportedWithItsName() {
    var ignored: [IgnoredEventReason] = []
    let browser = System(
      initialState: Browser.State(),
      context: Self.context,
      feature: Browser.feature,
      observers: [
        { activity in
          if case .eventIgnored(_, let reason) = activity { ignored.append(reason) }
        }
      ]
    )
    browser.send(.productTapped("shoe"))
    browser.send(.productTapped("hat"))
    browser.send(.backTapped)
    browser.send(.path(2, .product(.quantityChanged(3))))
    // ignored == [.missingChild("path[#2]")]: neither the screen nor the browser reduced it.
    #expect(ignored == [.missingChild("path[#2]")])
    #expect(browser.state.path.ids == [1])
    browser.stop()
  }

  // MARK: Alerts and dialogs

  @Test func aTapOnAnAlertsButtonSendsItsActionAndDismissesIt() async {
    let catalog = TestSystem(
      initialState: Catalog.State(maxPrice: 50), context: Self.context, feature: Catalog.feature)
    catalog.send(.resetTapped) {
      $0.alert = .alert(
        title: "Reset the filters?",
        buttons: [.destructive("Reset", action: .resetFilters), .cancel()])
    }
    catalog.send(.alert(.resetFilters)) {
      $0.alert = nil
      $0.maxPrice = 100
    }
    await catalog.finish()
  }

  @Test func cancellingAnAlertSendsNoAction() async {
    let catalog = TestSystem(
      initialState: Catalog.State(maxPrice: 50), context: Self.context, feature: Catalog.feature)
    catalog.send(.resetTapped) {
      $0.alert = .alert(
        title: "Reset the filters?",
        buttons: [.destructive("Reset", action: .resetFilters), .cancel()])
    }
    catalog.send(.alert(nil)) { $0.alert = nil }
    await catalog.finish()
  }

  // MARK: Recursion

  @Test func aCommentHoldsCommentsOfItsOwnKind() {
    var ignored: [IgnoredEventReason] = []
    let thread = System(
      initialState: Comment.State(id: 0),
      context: (),
      feature: Comment.feature,
      observers: [
        { activity in
          if case .eventIgnored(_, let reason) = activity { ignored.append(reason) }
        }
      ]
    )
    thread.send(.replyTapped(id: 1))
    thread.send(.reply(1, .replyTapped(id: 2)))
    thread.send(.reply(1, .reply(2, .replyTapped(id: 3))))
    #expect(thread.state.replies[0].replies[0].replies.map(\.id) == [3])
    thread.send(.reply(1, .reply(2, .deleteTapped)))
    #expect(thread.state.replies[0].replies.isEmpty)
    thread.send(.reply(1, .reply(9, .replyTapped(id: 4))))
    #expect(ignored == [.missingChild("replies[1].replies[9]")])
    thread.stop()
  }

  // MARK: Declaring a feature

  @Test func aFeatureStoredOnTheMainActorRunsInASystem() async {
    let catalog = TestSystem(
      initialState: Catalog.State(), context: Self.context, feature: App.catalog)
    catalog.send(.filtersTapped) { $0.destination = .filters(Filters.State(maxPrice: 100)) }
    await catalog.finish()
  }

  /// A context whose reviews never come: each load runs until it is cancelled.
  static let waiting = AppContext(reviews: { _ in
    await Gate().wait()
    return []
  })

  /// An observer that records the effects that start, are cancelled or finish, and the events
  /// ignored.
  static func record<State, Event>(
    in activities: Recorder<String>
  ) -> (SystemActivity<State, Event, Never>) -> Void {
    { activity in
      switch activity {
      case .effectStarted(let request): activities.record("started \(request)")
      case .effectCancelled(let request): activities.record("cancelled \(request)")
      case .effectFinished(let request): activities.record("finished \(request)")
      case .eventIgnored(_, let reason): activities.record("ignored: \(reason)")
      default: break
      }
    }
  }

  // MARK: - The article's code

  enum Product {
    struct State: Equatable, Sendable {
      let id: String
      var reviews: [String]?
      var quantity = 1
    }

    enum Event: Equatable, Sendable {
      case reviewsLoaded([String])
      case quantityChanged(Int)
      case doneTapped
    }

    /// The API of one product: made for the product the screen shows.
    struct Context: Sendable {
      var reviews: @Sendable () async -> [String]
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .reviewsLoaded(let reviews): state.reviews = reviews
          case .quantityChanged(let quantity): state.quantity = quantity
          case .doneTapped: break
          }
        },
        feedback: [
          .react(
            request: { $0.reviews == nil ? $0.id : nil },
            effect: .run { _, context in .reviewsLoaded(await context.reviews()) }
          )
        ]
      )
      .dismissing(on: { $0 == .doneTapped })
    }
  }

  enum Filters {
    struct State: Equatable, Sendable {
      var maxPrice: Int
    }

    enum Event: Equatable, Sendable {
      case maxPriceChanged(Int)
      case applyTapped
      case cancelTapped
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { state, event in
        if case .maxPriceChanged(let price) = event { state.maxPrice = price }
      })
      .dismissing(on: { $0 == .cancelTapped })
    }
  }

  struct AppContext: Sendable {
    var reviews: @Sendable (String) async -> [String]

    func api(for id: String) -> Product.Context {
      Product.Context(reviews: { [reviews] in await reviews(id) })
    }
  }

  enum Screen {
    enum State: Equatable, Sendable {
      case product(Product.State)
      case filters(Filters.State)
    }

    enum Event: Equatable, Sendable {
      case product(Product.Event)
      case filters(Filters.Event)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: { _, _ in })
        .ifCase(
          Product.feature, case: State.product, event: Event.product,
          context: { app, product in app.api(for: product.id) }
        )
        .ifCase(Filters.feature, case: State.filters, event: Event.filters, context: { _, _ in })
    }
  }

  enum Catalog {
    struct State: Equatable {
      var maxPrice = 100
      @Presented var destination: Screen.State?
      @Presented var alert: DialogState<AlertAction>?
    }

    enum AlertAction: Equatable, Sendable {
      case resetFilters
    }

    enum Event: Equatable, Sendable {
      case productTapped(String)
      case filtersTapped
      case resetTapped
      case destination(Screen.Event)
      case alert(AlertAction?)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: reduce)
        .presents(
          Screen.feature, state: \.$destination, event: Event.destination,
          context: { app, _ in app }
        )
        .dialog(\.$alert, event: Event.alert)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .productTapped(let id):
        state.destination = .product(Product.State(id: id))
      case .filtersTapped:
        state.destination = .filters(Filters.State(maxPrice: state.maxPrice))
      case .destination(.filters(.applyTapped)):
        // Still presented: the parent reads the screen's state, then dismisses it.
        if case .filters(let filters) = state.destination { state.maxPrice = filters.maxPrice }
        state.destination = nil
      case .resetTapped:
        state.alert = .alert(
          title: "Reset the filters?",
          buttons: [.destructive("Reset", action: .resetFilters), .cancel()])
      case .alert(.resetFilters):
        state.maxPrice = 100
      case .destination, .alert(nil):
        break
      }
    }
  }

  enum Browser {
    struct State: Equatable {
      var path = Stack<Screen.State>()
    }

    enum Event: Equatable, Sendable {
      case productTapped(String)
      case backTapped
      case backTo(StackID)
      case homeTapped
      case deepLink([String])
      case path(StackID, Screen.Event)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: { state, event in
        switch event {
        case .productTapped(let id): state.path.append(.product(Product.State(id: id)))
        case .backTapped: state.path.removeLast()
        case .backTo(let id): state.path.pop(to: id)
        case .homeTapped: state.path.removeAll()
        case .deepLink(let ids): state.path = Stack(ids.map { .product(Product.State(id: $0)) })
        case .path: break
        }
      })
      .forEach(Screen.feature, stack: \.path, event: Event.path, context: { app, _ in app })
    }
  }

  /// A sheet of one product, and the ways a reducer can write it.
  enum Sheet {
    struct State: Equatable {
      @Presented var product: Product.State?
    }

    enum Write: Equatable, Sendable {
      case assign, changeInPlace, changeThroughInout
      case assignThroughKeyPath, changeThroughKeyPath, copyAndAssignBack
    }

    enum Event: Equatable, Sendable {
      case product(Product.Event)
      case write(Write)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: { state, event in
        if case .write(let write) = event { apply(write, to: &state) }
      })
      .presents(
        Product.feature, state: \.$product, event: Event.product,
        context: { app, product in app.api(for: product.id) })
    }

    static func apply(_ write: Write, to state: inout State) {
      switch write {
      case .assign:
        state.product = Product.State(id: "shoe")  // a new presentation
      case .changeInPlace:
        state.product?.quantity += 1  // the same presentation
      case .changeThroughInout:
        increment(&state.product)  // the same presentation
      case .assignThroughKeyPath:
        state[keyPath: \.product] = Product.State(id: "shoe")  // a new presentation
      case .changeThroughKeyPath:
        state[keyPath: \.product]?.quantity += 1  // a new presentation
      case .copyAndAssignBack:
        if var product = state.product {
          product.quantity += 1
          state.product = product  // a new presentation
        }
      }
    }

    static func increment(_ product: inout Product.State?) {
      product?.quantity += 1
    }
  }

  /// The same sheet as a plain optional, composed with `ifLet`.
  enum PlainSheet {
    struct State: Equatable {
      var product: Product.State?
    }

    enum Event: Equatable, Sendable {
      case product(Product.Event)
      case show(String)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: { state, event in
        if case .show(let id) = event { state.product = Product.State(id: id) }
      })
      .ifLet(
        Product.feature, state: \.product, event: Event.product,
        context: { app in app.api(for: "shoe") })
    }
  }

  enum Comment {
    struct State: Equatable, Identifiable {
      let id: Int
      var replies: [State] = []
    }

    indirect enum Event: Equatable, Sendable {
      case replyTapped(id: Int)
      case deleteTapped
      case reply(Int, Event)
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { comment, event in
        if case .replyTapped(let id) = event { comment.replies.append(State(id: id)) }
      })
      .forEach(.lazy { Comment.feature }, elements: \.replies, event: Event.reply, context: { $0 })
      .dismissing(on: { $0 == .deleteTapped })
    }
  }

  @MainActor
  enum App {
    static let catalog = Catalog.feature
  }
}

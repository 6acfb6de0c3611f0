import ArchitectureKit
import ArchitectureKitTestSupport
import Observation
import TestDoubles
import Testing

/// Composition is as exact as one system: a child's effects keep the child's request
/// semantics, and a child that leaves the state has exactly its effects cancelled.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct CompositionTests {
  typealias Shop = Composed.Shop
  typealias Search = Composed.Search
  typealias Row = Composed.Row
  typealias Detail = Composed.Detail
  typealias Harness = TestSystem<Shop.State, Shop.Event, Shop.Failure, Shop.Context>

  func harness(_ state: Shop.State = Shop.State()) -> Harness {
    Harness(initialState: state, context: Shop.Context(), feature: Shop.feature)
  }

  // MARK: scope

  @Test func aScopedChildsReducerRunsOnItsOwnEventsOnly() async {
    let system = harness()
    system.send(.cart(.add("yeezy"))) { $0.cart.items = ["yeezy"] }
    system.send(.addRow(1)) { $0.rows = [Row.State(id: 1)] }
    system.expectStarted("image")
    system.send(.row(1, .hide)) { $0.rows[0].wantsImage = false }
    system.expectCancelled("image")
    #expect(system.state.search == Search.State())
    await system.finish()
  }

  @Test func aScopedChildsFeedbackStartsKeepsRestartsAndCancelsAsAlone() async {
    let system = harness()
    system.send(.search(.queryChanged("a"))) { $0.search.query = "a" }
    system.expectStarted("a")
    #expect(system.runningRequests.map(\.description) == ["search: a"])
    system.send(.search(.loaded([]))) { $0.search.results = [] }
    // The same request: kept, neither cancelled nor started again.
    system.send(.search(.queryChanged("b"))) { $0.search.query = "b" }
    system.expectCancelled("a")
    system.expectStarted("b")
    system.send(.search(.queryChanged(""))) { $0.search.query = "" }
    system.expectCancelled("b")
    await system.finish()
  }

  @Test func aScopedChildsEffectGetsTheProjectedContextAndItsEventComesBackEmbedded() async {
    let system = harness()
    system.send(.search(.queryChanged("yee"))) { $0.search.query = "yee" }
    system.expectStarted("yee")
    system.run("yee")
    await system.receive(.search(.loaded(["found yee"]))) { $0.search.results = ["found yee"] }
    await system.finish()
  }

  @Test func aScopedChildsFailureIsMappedToTheParents() async {
    let system = harness()
    system.send(.search(.queryChanged("fail"))) { $0.search.query = "fail" }
    system.expectStarted("fail")
    system.run("fail")
    await system.settle()
    system.expectFailure { $0 == .search }
    await system.finish()
  }

  @Test func theChildReducesAnEventBeforeTheParentReactsToIt() {
    var order: [String] = []
    let feature = Feature<Shop.State, Shop.Event, Never, Void>(reduce: { state, event in
      if case .search(.chose) = event {
        order.append("parent sees \(state.search.query)")
      }
    })
    .scope(
      Feature<Search.State, Search.Event, Never, Void>(reduce: { state, event in
        if case .chose(let item) = event {
          order.append("child")
          state.query = item
        }
      }),
      state: \.search, event: Shop.Event.search,
      extract: { if case .search(let event) = $0 { event } else { nil } },
      context: { _ in })
    let system = System(initialState: Shop.State(), context: (), feature: feature)
    system.send(.search(.chose("yeezy")))
    #expect(order == ["child", "parent sees yeezy"])
  }

  @Test func aParentReactsToItsChildsDelegateEventInItsOwnReducer() async {
    let system = harness()
    system.send(.search(.chose("yeezy"))) {
      $0.lastChoice = "yeezy"
      $0.cart.items = ["yeezy"]
    }
    await system.finish()
  }

  @Test func withoutExtractTheChildsCaseIsFoundByReflectionEvenBesideATwinCase() {
    struct Pair: Equatable {
      var left = Composed.Cart.State()
      var right = Composed.Cart.State()
      var rows: [Row.State] = []
    }
    enum Twin: Sendable {
      case left(Composed.Cart.Event)
      case right(Composed.Cart.Event)
      case row(Int, Row.Event)
      case other
    }
    let feature = Feature<Pair, Twin, Never, Void>(reduce: { _, _ in })
      .scope(Composed.Cart.feature, state: \.left, event: Twin.left, context: { _ in })
      .scope(Composed.Cart.feature, state: \.right, event: Twin.right, context: { _ in })
      .forEach(Row.feature, elements: \.rows, event: Twin.row, context: { _ in })
    let system = System(
      initialState: Pair(rows: [Row.State(id: 1, wantsImage: false)]), context: (),
      feature: feature)
    system.send(.left(.add("a")))
    system.send(.right(.add("b")))
    system.send(.right(.add("c")))
    system.send(.other)
    system.send(.row(1, .imageLoaded("picture")))
    #expect(system.state.left.items == ["a"])
    #expect(system.state.right.items == ["b", "c"])
    #expect(system.state.rows[0].image == "picture")
  }

  // MARK: forEach

  @Test func addingAnElementStartsItsRequestsAndEqualRequestsRunTwoEffects() async {
    let system = harness()
    system.send(.addRow(1)) { $0.rows = [Row.State(id: 1)] }
    system.expectStarted("image")
    system.send(.addRow(2)) { $0.rows.append(Row.State(id: 2)) }
    system.expectStarted("image")
    #expect(system.runningRequests.map(\.description) == ["rows[1]: image", "rows[2]: image"])
    system.simulate("image", event: .row(2, .imageLoaded("two")))
    await system.receive(.row(2, .imageLoaded("two"))) {
      $0.rows[1].image = "two"
      $0.rows[1].wantsImage = false
    }
    #expect(system.runningRequests.map(\.description) == ["rows[1]: image"])
    system.send(.removeRow(1)) { $0.rows.removeFirst() }
    system.expectCancelled("image")
    await system.finish()
  }

  @Test func aTestNamesWhichChildsEqualRequestItMeansByItsScope() async {
    let system = harness()
    system.send(.addRow(1)) { $0.rows = [Row.State(id: 1)] }
    system.expectStarted("image", in: "rows[1]")
    system.send(.addRow(2)) { $0.rows.append(Row.State(id: 2)) }
    system.expectStarted("image", in: "rows[2]")
    // The first row's effect, though the second's is the newer one with an equal request.
    system.simulate("image", in: "rows[1]", event: .row(1, .imageLoaded("one")))
    await system.receive(.row(1, .imageLoaded("one"))) {
      $0.rows[0].image = "one"
      $0.rows[0].wantsImage = false
    }
    #expect(system.runningRequests.map(\.description) == ["rows[2]: image"])
    system.send(.removeRow(2)) { $0.rows.removeLast() }
    system.expectCancelled("image", in: "rows[2]")
    await system.finish()
  }

  @Test func aRequestExpectedInAnotherChildsScopeFails() async {
    let system = harness()
    system.send(.addRow(1)) { $0.rows = [Row.State(id: 1)] }
    let expecting = await capturingFailures {
      system.expectStarted("image", in: "rows[2]")
    }
    #expect(
      expecting == [
        #"Expected the request rows[2]: image to have started; started: ["rows[1]: image"]."#
      ]
    )
    system.expectStarted("image", in: "rows[1]")
    let simulating = await capturingFailures {
      system.simulate("image", in: "rows[2]", event: .row(1, .imageLoaded("one")))
    }
    #expect(simulating.count == 1)
    #expect(
      simulating.allSatisfy {
        $0.contains("No effect waits for the test with the request rows[2]: image;")
      })
    system.send(.removeRow(1)) { $0.rows.removeFirst() }
    system.expectCancelled("image", in: "rows[1]")
    await system.finish()
  }

  @Test func removingAnElementCancelsExactlyItsEffectsAndDropsTheirLateResults() async {
    let log = Recorder<SystemActivity<Shop.State, Shop.Event, Never>>()
    let gate = Gate()
    let feature = Feature<Shop.State, Shop.Event, Never, Void>(reduce: Shop.reduce)
      .forEach(
        Feature<Row.State, Row.Event, Never, Void>(
          reduce: { state, event in
            if case .imageLoaded(let image) = event { state.image = image }
          },
          feedback: [
            .react(
              request: { $0.wantsImage ? "image" : nil },
              effect: .run { _, _ in
                await gate.wait()
                return .imageLoaded("late")
              })
          ]),
        elements: \.rows, event: Shop.Event.row,
        extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
        context: { _ in })
    let system = System(
      initialState: Shop.State(), context: (), feature: feature,
      observers: [{ log.record($0) }])
    system.send(.addRow(1))
    system.send(.addRow(2))
    system.send(.addRow(3))
    system.send(.removeRow(2))
    #expect(log.cancelled.map(\.description) == ["rows[2]: image"])
    gate.open()
    await log.wait { if case .eventIgnored = $0 { true } else { false } }
    await log.wait(count: 2) { if case .effectFinished = $0 { true } else { false } }
    #expect(system.state.rows.map(\.image) == ["late", "late"])
    #expect(system.state.rows.map(\.id) == [1, 3])
    #expect(log.ignored.map(\.0) == [.row(2, .imageLoaded("late"))])
  }

  // The children are found by their elements' order of the step before, and by identifier
  // only when an element moved or is new: a moved element keeps its child (its effect goes on,
  // not restarted), and after any reshuffle each present element that wants an effect has
  // exactly one running.
  @Test func reshuffledElementsKeepTheirChildrenAndExactlyTheirEffects() {
    struct Element: Identifiable, Sendable {
      let id: Int
      var wants: Bool
    }
    enum RowEvent: Sendable { case done }
    enum ListEvent: Sendable {
      case set([Element])
      case row(Int, RowEvent)
    }
    var started: [Int] = []
    var cancelled: [Int] = []
    let row = Feature<Element, RowEvent, Never, Void>(
      reduce: { _, _ in },
      feedback: [
        .react(
          request: { $0.wants ? $0.id : nil },
          effect: .run { _, _ in
            // Runs until cancelled: the test ends with `stop()`.
            try? await Task.sleep(for: .seconds(3_600))
            return .done
          })
      ])
    let feature = Feature<[Element], ListEvent, Never, Void>(reduce: { state, event in
      if case .set(let elements) = event { state = elements }
    })
    .forEach(
      row, elements: \.self, event: ListEvent.row,
      extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
      context: { _ in })
    let system = System(
      initialState: [], context: (), feature: feature,
      observers: [
        { activity in
          switch activity {
          case .effectStarted(let request): started.append(request.value as! Int)
          case .effectCancelled(let request): cancelled.append(request.value as! Int)
          default: break
          }
        }
      ])
    var random = SplitMix64(seed: 11)
    var before: [Element] = []
    for _ in 0..<300 {
      var elements = (0..<8).filter { _ in Bool.random(using: &random) }.map {
        Element(id: $0, wants: Bool.random(using: &random))
      }
      if Bool.random(using: &random) { elements = before.shuffled(using: &random) }
      started.removeAll()
      cancelled.removeAll()
      system.send(.set(elements))
      let wanted = Set(elements.filter(\.wants).map(\.id))
      let wantedBefore = Set(before.filter(\.wants).map(\.id))
      // Exactly the requests that appeared start, exactly those that vanished are cancelled.
      #expect(Set(started) == wanted.subtracting(wantedBefore))
      #expect(Set(cancelled) == wantedBefore.subtracting(wanted))
      #expect(started.count == Set(started).count)
      #expect(cancelled.count == Set(cancelled).count)
      before = elements
    }
    system.stop()
  }

  @Test func anEventForARemovedElementIsReportedAndNotReduced() async {
    var activities: [SystemActivity<Shop.State, Shop.Event, Shop.Failure>] = []
    let system = System(
      initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature,
      observers: [{ activities.append($0) }])
    let before = system.state
    system.send(.row(7, .hide))
    #expect(system.state == before)
    let ignored = activities.compactMap { activity -> IgnoredEventReason? in
      if case .eventIgnored(.row(7, .hide), let reason) = activity { reason } else { nil }
    }
    #expect(ignored == [.missingChild("rows[7]")])
  }

  @Test func aTestSystemFailsOnAnEventForAMissingElement() async {
    let system = harness()
    let failures = await capturingFailures {
      system.send(.row(7, .hide))
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("the child at rows[7],") })
    await system.finish()
  }

  // MARK: ifLet

  @Test func ifLetCancelsOnNilAndStartsAfreshWhenPresentAgain() async {
    let system = harness()
    system.send(.select("yeezy")) { $0.detail = Detail.State(item: "yeezy") }
    system.expectStarted("save yeezy")
    #expect(system.runningRequests.map(\.description) == ["detail: save yeezy"])
    system.send(.select(nil)) { $0.detail = nil }
    system.expectCancelled("save yeezy")
    system.send(.select("yeezy")) { $0.detail = Detail.State(item: "yeezy") }
    system.expectStarted("save yeezy")
    system.run("save yeezy")
    await system.receive(.detail(.saved)) { $0.detail?.isSaved = true }
    await system.finish()
  }

  @Test func anEventForANilChildIsReportedAndNotReduced() async {
    var activities: [SystemActivity<Shop.State, Shop.Event, Shop.Failure>] = []
    let system = System(
      initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature,
      observers: [{ activities.append($0) }])
    system.send(.detail(.saved))
    let ignored = activities.compactMap { activity -> IgnoredEventReason? in
      if case .eventIgnored(_, let reason) = activity { reason } else { nil }
    }
    #expect(ignored == [.missingChild("detail")])
  }

  // MARK: Testing children

  @Test func aChildFeatureIsTestedAloneWithTheSameFeatureValue() async {
    let system = TestSystem(
      initialState: Search.State(), context: Search.Context(prefix: "alone "),
      feature: Search.feature)
    system.send(.queryChanged("yee")) { $0.query = "yee" }
    system.expectStarted("yee")
    #expect(system.runningRequests.map(\.description) == ["yee"])
    system.run("yee")
    await system.receive(.loaded(["alone yee"])) { $0.results = ["alone yee"] }
    await system.finish()
  }

  // MARK: Views

  @Test func observingASliceIgnoresChangesElsewhere() {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    let cartChanged = Flag()
    withObservationTracking {
      _ = system.cart
    } onChange: {
      cartChanged.set()
    }
    system.send(.select("yeezy"))
    #expect(!cartChanged.isSet)
    system.send(.cart(.add("yeezy")))
    #expect(cartChanged.isSet)
  }

  @Test func aBindingOfAPartRendersOnlyTheStepsThatChangedIt() {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    var states = 0
    var carts: [[String]] = []
    var wholes = 0
    system.addUIBinding { _ in states += 1 }
    system.addUIBinding(\.cart) { carts.append($0.items) }
    system.addUIBinding(\.self) { _ in wholes += 1 }
    system.send(.cart(.clear))
    system.send(.select("yeezy"))
    system.send(.cart(.add("yeezy")))
    // Five states: the selection's detail saves itself in a step of its own.
    #expect(states == 5)
    #expect(carts == [[], ["yeezy"]])
    #expect(wholes == 4)
  }

  @Test func observingTheWholeStateIsNotifiedOnEveryBurstWithAStep() {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    let stateChanged = Self.flagChanges { _ = system.state }
    system.send(.cart(.clear))
    #expect(stateChanged.isSet)
  }

  /// A flag set when what `read` reads changes, as Observation reports it.
  private static func flagChanges(_ read: () -> Void) -> Flag {
    let changed = Flag()
    withObservationTracking(read) { changed.set() }
    return changed
  }

  @Test func aSliceComparesWithTheValueItsObserversLastHeardOf() {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    system.send(.cart(.add("yeezy")))
    // First read after the change: the slice starts from the cart as it is now.
    let cartChanged = Self.flagChanges { _ = system.cart }
    system.send(.cart(.add("boost")))
    system.send(.cart(.clear))
    #expect(cartChanged.isSet)
    let cartChangedAgain = Self.flagChanges { _ = system.cart }
    system.send(.select("yeezy"))
    system.send(.cart(.clear))
    // Still empty, as its observers last heard.
    #expect(!cartChangedAgain.isSet)
  }

  @Test func aRemovedListenerReceivesNothingMoreAlsoFromInsideItsOwnCall() {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    var seen: [String] = []
    var binding: Listener?
    binding = system.addUIBinding { state in
      seen.append("binding \(state.cart.count)")
      if state.cart.count == 1, let binding { system.removeListener(binding) }
    }
    var callback: Listener?
    callback = system.addLoopCallback { state in
      seen.append("callback \(state.cart.count)")
      if let callback { system.removeListener(callback) }
    }
    var observer: Listener?
    observer = system.addObserver { activity in
      guard case .step = activity else { return }
      seen.append("observer")
      if let observer { system.removeListener(observer) }
    }
    system.send(.cart(.add("a")))
    system.send(.cart(.add("b")))
    #expect(seen == ["binding 0", "callback 1", "observer", "binding 1"])
  }

  @Test func anObserverGivenAtCreationSeesTheInitialEffectsStart() {
    var started: [String] = []
    _ = System(
      initialState: Shop.State(rows: [Row.State(id: 1)]), context: Shop.Context(),
      feature: Shop.feature,
      observers: [
        { activity in
          if case .effectStarted(let request) = activity { started.append("\(request)") }
        }
      ])
    #expect(started == ["rows[1]: image"])
  }

  // MARK: send(_:while:)

  @Test func sendWhileReturnsWhenThePredicateStopsHolding() async {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    await system.send(.search(.queryChanged("yee")), while: { $0.search.results.isEmpty })
    #expect(system.state.search.results == ["found yee"])
  }

  @Test func sendWhileReturnsWhenTheSystemStops() async {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    system.addLoopCallback { state in if state.cart.count == 1 { system.stop() } }
    await system.send(.cart(.add("a")), while: { _ in true })
    #expect(system.isStopped)
  }

  @Test func sendWhileReturnsWhenItsTaskIsCancelled() async {
    let system = System(initialState: Shop.State(), context: Shop.Context(), feature: Shop.feature)
    let task = Task { await system.send(.cart(.add("a")), while: { _ in true }) }
    task.cancel()
    await task.value
    #expect(system.state.cart.count == 1)
  }
}

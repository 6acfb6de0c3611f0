import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

// DESIGN §8, "Names": every presented child has a stable human name — `destination.settings`,
// `path[#3].detail`, and through nesting `destination.flow.path[#1].detail` — in request
// descriptions, in `TestSystem`'s failures and in the reports of events for children that are
// gone.

/// The names of presented children, in requests and reports.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationNameTests {
  typealias Screen = Navigation.Screen

  func makeSystem() -> TestSystem<
    NestedNavigation.State, NestedNavigation.Event, Never, Navigation.AppContext
  > {
    TestSystem(
      initialState: NestedNavigation.State(), context: Navigation.AppContext(),
      feature: NestedNavigation.feature)
  }

  @Test func aDestinationsRequestsAreNamedByTheDestinationAndItsCase() async {
    let system = makeSystem()
    system.send(.show(.settings(.init()))) { $0.destination = .settings(.init()) }
    system.send(.destination(.settings(.save("Ada")))) {
      $0.destination = .settings(.init(saving: "Ada"))
    }
    system.expectStarted("Ada", in: "destination.settings")
    #expect(system.runningRequests.map(\.description) == ["destination.settings: Ada"])
    system.send(.dismiss) { $0.destination = nil }
    system.expectCancelled("Ada", in: "destination.settings")
    await system.finish()
  }

  @Test func aStackScreensRequestsAreNamedByItsIDAndItsCase() async {
    let system = makeSystem()
    for (index, product) in ["shoe", "hat", "sock"].enumerated() {
      system.send(.push(Navigation.detail(product))) { $0.path.append(Navigation.detail(product)) }
      system.expectStarted(product, in: "path[#\(index + 1)].detail")
    }
    #expect(
      system.runningRequests.map(\.description) == [
        "path[#1].detail: shoe", "path[#2].detail: hat", "path[#3].detail: sock",
      ])
    system.send(.pop) { $0.path.removeLast() }
    system.expectCancelled("sock", in: "path[#3].detail")
    system.send(.pop) { $0.path.removeLast() }
    system.expectCancelled("hat", in: "path[#2].detail")
    system.send(.pop) { $0.path.removeLast() }
    system.expectCancelled("shoe", in: "path[#1].detail")
    await system.finish()
  }

  @Test func aStackInsideADestinationNamesItsScreensThroughTheDestination() async {
    let system = makeSystem()
    system.send(.show(.flow(.init()))) { $0.destination = .flow(.init()) }
    system.send(.destination(.flow(.push(Navigation.detail("hat"))))) {
      $0.destination = .flow(.init(path: [Navigation.detail("hat")]))
    }
    system.expectStarted("hat", in: "destination.flow.path[#1].detail")
    #expect(system.runningRequests.map(\.description) == ["destination.flow.path[#1].detail: hat"])
    system.run("hat", in: "destination.flow.path[#1].detail")
    await system.receive(.destination(.flow(.path(1, .detail(.loaded("api/hat hat")))))) {
      $0.destination = .flow(
        .init(path: [.detail(Navigation.Detail.State(product: "hat", loaded: "api/hat hat"))]))
    }
    system.send(.dismiss) { $0.destination = nil }
    await system.finish()
  }

  @Test func failuresNameTheRequestsOfNestedScreens() async {
    let system = makeSystem()
    system.send(.show(.flow(.init()))) { $0.destination = .flow(.init()) }
    let failures = await capturingFailures {
      system.send(.destination(.flow(.push(Navigation.detail("hat"))))) {
        $0.destination = .flow(.init(path: [Navigation.detail("hat")]))
      }
      system.expectStarted("hat", in: "path[#1].detail")
      system.send(.dismiss) { $0.destination = nil }
    }
    #expect(
      failures == [
        "Expected the request path[#1].detail: hat to have started; started: "
          + "[\"destination.flow.path[#1].detail: hat\"].",
        "Requests started but were not expected before sending dismiss: "
          + "[\"destination.flow.path[#1].detail: hat\"]. Assert them with expectStarted(_:).",
      ])
    system.expectCancelled("hat", in: "destination.flow.path[#1].detail")
    await system.finish()
  }

  /// An event for a screen that is gone fails the test, naming where the screen was.
  @Test func anEventForAChildThatIsGoneFailsNamingIt() async {
    let system = makeSystem()
    system.exhaustivity = .off
    for event in Self.eventsLeavingChildrenGone { system.send(event) }
    for (event, name) in Self.eventsForChildrenThatAreGone {
      let failures = await capturingFailures { system.send(event) }
      #expect(
        failures == [
          "\(event) was meant for the child at \(name), which the state does not hold; "
            + "it was not reduced."
        ])
    }
    system.send(.dismiss)
    let failures = await capturingFailures {
      system.send(.destination(.settings(.save("Ada"))))
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("child at destination,") == true)
  }

  /// The same events on the app's runtimes: observers hear them ignored, with the same names.
  @Test(arguments: Runtime.allCases)
  func anEventForAChildThatIsGoneIsReportedWithItsName(runtime: Runtime) async {
    let system = await Subject.make(
      runtime, initialState: NestedNavigation.State(), context: Navigation.AppContext(),
      feature: { NestedNavigation.feature })
    let log = Recorder<SystemActivity<NestedNavigation.State, NestedNavigation.Event, Never>>()
    await system.record(into: log)
    for event in Self.eventsLeavingChildrenGone { await system.send(event) }
    let stateBefore = await system.state
    let stepsBefore = log.steps.count
    for (event, _) in Self.eventsForChildrenThatAreGone { await system.send(event) }
    await system.send(.dismiss)
    await system.send(.destination(.settings(.save("Ada"))))
    let ignored = log.ignored.map { "\($0.1)" }
    #expect(
      ignored
        == Self.eventsForChildrenThatAreGone.map { "no child at \($0.1) receives it" } + [
          "no child at destination receives it"
        ])
    // Only the dismissal was reduced.
    #expect(log.steps.count == stepsBefore + 1)
    var expected = stateBefore
    expected.destination = nil
    #expect(await system.state == expected)
    await system.stop()
  }

  @Test func anAnswerToADismissedDialogIsReportedWithItsName() async {
    let system = TestSystem(
      initialState: Navigation.State(), context: Navigation.AppContext(),
      feature: Navigation.feature)
    let failures = await capturingFailures { system.send(.confirmation(.popToRoot)) }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("child at confirmation,") == true)
  }

  /// Pushes two screens and pops one, then presents a flow, pushes two screens in it and pops
  /// one; the screens are settings, which run no effect until they save.
  static let eventsLeavingChildrenGone: [NestedNavigation.Event] = [
    .push(.settings(.init())), .push(.settings(.init())), .pop, .show(.flow(.init())),
    .destination(.flow(.push(.settings(.init())))), .destination(.flow(.push(.settings(.init())))),
    .destination(.flow(.pop)),
  ]

  /// Events for children that ``eventsLeavingChildrenGone`` left gone, with where each child
  /// was.
  static let eventsForChildrenThatAreGone: [(NestedNavigation.Event, String)] = [
    (.path(2, .detail(.increment)), "path[#2]"),
    (.path(7, .settings(.saved)), "path[#7]"),
    (.destination(.flow(.path(2, .detail(.increment)))), "destination.flow.path[#2]"),
    (.destination(.settings(.save("Ada"))), "destination.settings"),
  ]
}

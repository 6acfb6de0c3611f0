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

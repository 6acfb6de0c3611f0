import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// TCA's "Navigation stack" case study (04-NavigationStack), as this library writes it: three
// kinds of screens on one stack; a screen that loads a fact, one that pushes screens it knows
// nothing of through the root, one whose timer dies with it; pop to a screen, pop to the root.

/// The root of a navigation stack and its three kinds of screens.
enum StackDemo {
  struct Context: Sendable {
    var fact: @Sendable (Int) async throws -> String
    var clock: any Clock<Duration>
  }

  /// A counter that can load a fact about its count, and dismiss itself.
  enum ScreenA {
    struct State: Equatable, Sendable {
      var count = 0
      var fact: String?
      /// The count whose fact is loading.
      var loadingFactFor: Int?
    }

    enum Event: Equatable, Sendable {
      case decrementTapped, incrementTapped, dismissTapped, factTapped
      case factLoaded(String?)
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .decrementTapped: state.count -= 1
          case .incrementTapped: state.count += 1
          case .dismissTapped: break
          case .factTapped: state.loadingFactFor = state.count
          case .factLoaded(let fact):
            state.fact = fact
            state.loadingFactFor = nil
          }
        },
        feedback: [
          .react(
            request: \.loadingFactFor,
            effect: .run { count, context in .factLoaded(try? await context.fact(count)) })
        ]
      )
      .dismissing(on: { $0 == .dismissTapped })
    }
  }

  /// Buttons that push screens through the root, which alone knows them.
  enum ScreenB {
    struct State: Equatable, Sendable {}

    enum Event: Equatable, Sendable {
      case screenATapped, screenBTapped, screenCTapped
    }

    static var feature: Feature<State, Event, Never, Context> { Feature(reduce: { _, _ in }) }
  }

  /// A counter driven by a timer, which stops when the screen goes.
  enum ScreenC {
    struct State: Equatable, Sendable {
      var count = 0
      var isTimerRunning = false
    }

    enum Event: Equatable, Sendable {
      case startTapped, stopTapped, tick
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .startTapped: state.isTimerRunning = true
          case .stopTapped: state.isTimerRunning = false
          case .tick: state.count += 1
          }
        },
        feedback: [
          .react(
            request: { $0.isTimerRunning ? true : nil },
            effect: .timer(every: .seconds(1), clock: \.clock) { _, _ in .tick })
        ]
      )
    }
  }

  enum Path {
    enum State: Equatable, Sendable {
      case screenA(ScreenA.State = .init())
      case screenB(ScreenB.State = .init())
      case screenC(ScreenC.State = .init())
    }

    enum Event: Equatable, Sendable {
      case screenA(ScreenA.Event)
      case screenB(ScreenB.Event)
      case screenC(ScreenC.Event)
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(reduce: { _, _ in })
        .ifCase(
          ScreenA.feature, case: State.screenA, event: Event.screenA, context: { app, _ in app }
        )
        .ifCase(
          ScreenB.feature, case: State.screenB, event: Event.screenB, context: { app, _ in app }
        )
        .ifCase(
          ScreenC.feature, case: State.screenC, event: Event.screenC, context: { app, _ in app })
    }
  }

  struct State: Equatable, Sendable {
    var path = Stack<Path.State>()

    /// The sum of the counts of every screen A and C: what the floating menu shows.
    var total: Int {
      path.reduce(0) { total, screen in
        switch screen {
        case .screenA(let screen): total + screen.count
        case .screenC(let screen): total + screen.count
        case .screenB: total
        }
      }
    }
  }

  enum Event: Equatable, Sendable {
    case goBackToScreen(StackID)
    case goToABCTapped
    case path(StackID, Path.Event)
    case popToRoot
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .goBackToScreen(let id): state.path.pop(to: id)
        case .goToABCTapped:
          state.path.append(.screenA())
          state.path.append(.screenB())
          state.path.append(.screenC())
        case .path(_, .screenB(.screenATapped)): state.path.append(.screenA())
        case .path(_, .screenB(.screenBTapped)): state.path.append(.screenB())
        case .path(_, .screenB(.screenCTapped)): state.path.append(.screenC())
        case .path: break
        case .popToRoot: state.path.removeAll()
        }
      }
    )
    .forEach(Path.feature, stack: \.path, event: Event.path, context: { app, _ in app })
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationStackCaseStudyTests {
  let clock = ManualClock()

  func makeSystem(path: Stack<StackDemo.Path.State> = []) -> TestSystem<
    StackDemo.State, StackDemo.Event, Never, StackDemo.Context
  > {
    TestSystem(
      initialState: StackDemo.State(path: path),
      context: StackDemo.Context(
        fact: { count in
          guard count >= 0 else { throw CancellationError() }
          return "\(count) is a good number."
        },
        clock: clock),
      feature: StackDemo.feature, clock: clock)
  }

  @Test func goingToABCPushesThreeScreens() async {
    let system = makeSystem()
    system.send(.goToABCTapped) { $0.path = [.screenA(), .screenB(), .screenC()] }
    #expect(system.state.path.ids == [1, 2, 3])
    await system.finish()
  }

  @Test func screenBPushesScreensItDoesNotKnow() async {
    let system = makeSystem(path: [.screenB()])
    system.send(.path(1, .screenB(.screenCTapped))) { $0.path.append(.screenC()) }
    system.send(.path(1, .screenB(.screenATapped))) { $0.path.append(.screenA()) }
    system.send(.path(2, .screenC(.startTapped))) {
      $0.path[id: 2] = .screenC(.init(isTimerRunning: true))
    }
    system.expectStarted(true, in: "path[#2].screenC")
    system.send(.goBackToScreen(1)) { $0.path.pop(to: 1) }
    system.expectCancelled(true, in: "path[#2].screenC")
    await system.finish()
  }

  @Test func screenALoadsAFactAboutItsCount() async {
    let system = makeSystem(path: [.screenA()])
    system.send(.path(1, .screenA(.incrementTapped))) { $0.path[id: 1] = .screenA(.init(count: 1)) }
    system.send(.path(1, .screenA(.factTapped))) {
      $0.path[id: 1] = .screenA(.init(count: 1, loadingFactFor: 1))
    }
    system.expectStarted(1, in: "path[#1].screenA")
    system.run(1, in: "path[#1].screenA")
    await system.receive(.path(1, .screenA(.factLoaded("1 is a good number.")))) {
      $0.path[id: 1] = .screenA(.init(count: 1, fact: "1 is a good number."))
    }
    system.send(.path(1, .screenA(.decrementTapped))) {
      $0.path[id: 1] = .screenA(.init(count: 0, fact: "1 is a good number."))
    }
    system.send(.path(1, .screenA(.decrementTapped))) {
      $0.path[id: 1] = .screenA(.init(count: -1, fact: "1 is a good number."))
    }
    system.send(.path(1, .screenA(.factTapped))) {
      $0.path[id: 1] = .screenA(.init(count: -1, fact: "1 is a good number.", loadingFactFor: -1))
    }
    system.expectStarted(-1, in: "path[#1].screenA")
    system.run(-1, in: "path[#1].screenA")
    await system.receive(.path(1, .screenA(.factLoaded(nil)))) {
      $0.path[id: 1] = .screenA(.init(count: -1))
    }
    await system.finish()
  }

  @Test func aLoadingFactIsCancelledWhenScreenADismissesItself() async {
    let system = makeSystem(path: [.screenA(), .screenA()])
    system.send(.path(2, .screenA(.factTapped))) {
      $0.path[id: 2] = .screenA(.init(loadingFactFor: 0))
    }
    system.expectStarted(0, in: "path[#2].screenA")
    system.send(.path(2, .screenA(.dismissTapped))) { $0.path.removeLast() }
    system.expectCancelled(0, in: "path[#2].screenA")
    await system.finish()
  }

  @Test func screenCsTimerTicksUntilTheScreenIsPopped() async {
    let system = makeSystem()
    system.send(.goToABCTapped) { $0.path = [.screenA(), .screenB(), .screenC()] }
    system.send(.path(3, .screenC(.startTapped))) {
      $0.path[id: 3] = .screenC(.init(isTimerRunning: true))
    }
    system.expectStarted(true, in: "path[#3].screenC")
    system.run(true, in: "path[#3].screenC")
    await clock.advance(by: .seconds(1))
    await system.receive(.path(3, .screenC(.tick))) {
      $0.path[id: 3] = .screenC(.init(count: 1, isTimerRunning: true))
    }
    await clock.advance(by: .seconds(1))
    await system.receive(.path(3, .screenC(.tick))) {
      $0.path[id: 3] = .screenC(.init(count: 2, isTimerRunning: true))
    }
    #expect(system.state.total == 2)
    system.send(.popToRoot) { $0.path.removeAll() }
    system.expectCancelled(true, in: "path[#3].screenC")
    await clock.advance(by: .seconds(5))
    await system.finish()
  }

  @Test func theTotalCountsScreensAAndC() {
    let state = StackDemo.State(path: [
      .screenA(.init(count: 2)), .screenB(), .screenC(.init(count: 3)), .screenA(.init(count: 4)),
    ])
    #expect(state.total == 9)
  }
}

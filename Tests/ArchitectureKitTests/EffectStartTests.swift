import ArchitectureKit
import TestDoubles
import Testing

/// A ``System``'s effect starts on the thread that launches it and runs there until its first
/// suspension; a ``BackgroundSystem``'s starts as a task of its own.
///
/// Work that completes without suspending never hops, and what it reports meanwhile is queued
/// behind the step that started it, as a hook's event is. After its first suspension the effect
/// goes on off the system's actor.
@MainActor
@Suite(.enabled(if: effectsStartInline))
struct EffectStartTests {
  enum Event: Equatable, Sendable {
    case load(Int)
    case loaded(Int)
  }

  struct State: Equatable {
    var request: Int?
    var loaded: [Int] = []
  }

  nonisolated static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .load(let value): state.request = value
    case .loaded(let value):
      state.loaded.append(value)
      state.request = nil
    }
  }

  /// An effect that answers `loaded(n)` for request `n` without suspending.
  nonisolated static func answer() -> Feedback<State, Event, Never, EmptyContext> {
    .react(request: \.request, effect: .run { request, _ in .loaded(request) })
  }

  /// A system whose effect for request `n` is `run`.
  static func system(
    run: @escaping @Sendable (Int, EmptyContext) async -> Event
  ) -> System<State, Event, Never, EmptyContext> {
    System(
      initialState: State(), context: EmptyContext(), reduce: reduce,
      feedback: [.react(request: \.request, effect: .run(run))])
  }

  @Test func anEffectThatNeverSuspendsIsReducedBeforeSendReturns() {
    let system = System(
      initialState: State(), context: EmptyContext(), reduce: Self.reduce, feedback: [Self.answer()]
    )
    system.send(.load(1))
    #expect(system.state == State(request: nil, loaded: [1]))
    #expect(system.tasks.count == 0)
  }

  @Test func anInlineResultIsQueuedBehindTheStepThatStartedItsEffect() {
    let system = System<State, Event, Never, EmptyContext>(
      initialState: State(), context: EmptyContext(), reduce: Self.reduce,
      feedback: [
        .react(request: \.request, effect: .run { request, _ in .loaded(request) }),
        // A second feedback on the same request starts in the same step, before the first
        // one's result is reduced.
        .react(request: { $0.request.map { "second \($0)" } }, effect: .run { _, _ in .loaded(0) }),
      ])
    let log = Recorder(observing: system)
    system.send(.load(1))
    let kinds = log.activities.map { activity -> String in
      switch activity {
      case .step(let event, _, _): "step \(event)"
      case .effectStarted(let request): "started \(request)"
      case .effectFinished(let request): "finished \(request)"
      case .effectCancelled(let request): "cancelled \(request)"
      case .eventIgnored(let event, _): "ignored \(event)"
      default: "other"
      }
    }
    #expect(
      kinds == [
        "step load(1)", "started 1", "started second 1", "finished 1", "step loaded(1)",
        "cancelled second 1", "ignored loaded(0)",
      ])
  }

  /// An actor's effects start as tasks of their own (see `RuntimeShell.launch`): even one that
  /// never suspends reports back in a later turn of the actor.
  @Test func aBackgroundSystemsEffectStartsAsATaskOfItsOwn() async {
    let system = await BackgroundSystem(
      initialState: State(), context: EmptyContext(), reduce: Self.reduce, feedback: [Self.answer()]
    )
    // One turn of the system's actor: a result that hops back cannot arrive in it.
    #expect(await system.sendAndRead(.load(1)) == State(request: 1, loaded: []))
    await system.stop()
  }

  @Test func eventsSentBeforeTheFirstSuspensionArriveInOrderBeforeTheLaterOnes() async {
    // The stream's first suspension waits for the test: a `Task.yield()` could resume on
    // another thread and send on before the launch returned.
    let checked = Gate()
    let system = System<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.count < 3 ? "go" : nil },
          effect: .stream { _, _, send in
            await send(1)
            await send(2)
            await checked.wait()
            await send(3)
            await send(4)
          })
      ])
    // The first two are reduced as the system is made; the others, sent after the stream
    // suspended, hop back. The third makes the request vanish, which cancels the stream, so
    // the fourth is ignored.
    #expect(system.state == [1, 2])
    let log = Recorder(observing: system)
    checked.open()
    await log.wait { if case .eventIgnored = $0 { true } else { false } }
    #expect(system.state == [1, 2, 3])
    #expect(log.ignored.map(\.0) == [4])
  }

  @Test func anEffectThatStopsItsSystemBeforeItSuspendsIsCancelledAtOnce() async {
    // On the main thread of an app, an effect's start runs on the main actor, so its own code
    // can stop the system before the launch keeps its task. `assumeIsolated` reaches the same
    // path here.
    final class Box: @unchecked Sendable {
      var system: System<State, Event, Never, EmptyContext>?
      var sawCancellation: [Bool] = []
    }
    let box = Box()
    // Ignores the cancellation the effect's own `stop()` made: the effect suspends here until
    // the test has checked (a `Task.yield()` could resume on another thread and go on first).
    let checked = Gate(ignoringCancellation: true)
    let system = Self.system { request, _ in
      onTheMainActor { box.system?.stop() }
      box.sawCancellation.append(Task.isCancelled)
      await checked.wait()
      box.sawCancellation.append(Task.isCancelled)
      return .loaded(request)
    }
    box.system = system
    let log = Recorder(observing: system)
    system.send(.load(1))
    #expect(box.sawCancellation == [true])
    #expect(system.tasks.count == 0)
    checked.open()
    await log.wait { if case .eventIgnored = $0 { true } else { false } }
    #expect(box.sawCancellation == [true, true])
    #expect(system.state == State(request: 1, loaded: []))
  }

  /// The hooks that send an event while the system handles a step.
  enum Hook: CaseIterable, Sendable {
    case binding, loopCallback, observer, userAction
  }

  @Test(arguments: Hook.allCases)
  func aHooksEventStartsAnEffectWhoseInlineResultIsQueuedBehindIt(_ hook: Hook) {
    let action = UserAction<State, Event, Never, EmptyContext>(trigger: .load(2))
    let system = System.pure(
      initialState: State(), context: EmptyContext(),
      reducer: { state, event in
        var state = state
        Self.reduce(&state, event)
        return state
      },
      uiBindings: [], userActions: [action], feedback: [Self.answer()])
    let log = Recorder(observing: system)
    var sent = false
    // Sends `load(2)` once the first answer is reduced: from inside the step that reduced it.
    let react = { (state: State) in
      guard state.loaded == [1], !sent else { return }
      sent = true
      switch hook {
      case .userAction: action.execute()
      default: system.send(.load(2))
      }
    }
    switch hook {
    case .binding: system.addUIBinding(react)
    case .loopCallback, .userAction: system.addLoopCallback(react)
    case .observer:
      system.addObserver { activity in
        if case .step(_, _, let current) = activity { react(current) }
      }
    }
    system.send(.load(1))
    #expect(system.state == State(request: nil, loaded: [1, 2]))
    let steps = log.activities.compactMap { activity -> Event? in
      if case .step(let event, _, _) = activity { event } else { nil }
    }
    #expect(steps == [.load(1), .loaded(1), .load(2), .loaded(2)])
    #expect(system.tasks.count == 0)
  }

  @Test func anEffectThatFailsBeforeItSuspendsIsReportedBeforeSendReturns() {
    struct Failure: Error, Equatable {}
    let system = System<State, Event, Failure, EmptyContext>(
      initialState: State(), context: EmptyContext(), reduce: Self.reduce,
      feedback: [
        .react(request: \.request, effect: .run { _, _ throws(Failure) in throw Failure() })
      ])
    let log = Recorder(observing: system)
    system.send(.load(1))
    #expect(log.failures == [Failure()])
    #expect(system.state == State(request: 1, loaded: []))
    #expect(system.tasks.count == 0)
  }

  @Test func anEffectThatSuspendsDeliversItsResultLater() async {
    // Suspended until the test checks: a `Task.yield()` could resume on another thread and end
    // before the launch returned, which delivers the result inline.
    let checked = Gate()
    let system = Self.system { request, _ in
      await checked.wait()
      return .loaded(request)
    }
    system.send(.load(1))
    #expect(system.state == State(request: 1, loaded: []))
    #expect(system.tasks.count == 1)
    checked.open()
    await system.send(.load(2), while: { $0.loaded.isEmpty })
    #expect(system.state.loaded == [2])
    #expect(system.tasks.count == 0)
  }
}

extension BackgroundSystem {
  /// Sends `event` and reads the state in the same turn of the system's actor.
  fileprivate func sendAndRead(_ event: Event) -> State {
    send(event)
    return state
  }
}

/// Runs `body` on the main actor, which the caller asserts it is on.
nonisolated private func onTheMainActor(_ body: @MainActor @Sendable () -> Void) {
  MainActor.assumeIsolated(body)
}

/// Whether effects start on the launching thread: with `Task.immediate`, on Linux and on Apple
/// systems from 26; earlier Apple systems start them as tasks of their own, as before.
private var effectsStartInline: Bool {
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { true } else { false }
}

import ArchitectureKit
import FunctionalCore
import Observation
import TestDoubles
import Testing

@MainActor
struct SystemTests {
  typealias CounterSystem = System<Int, CounterEvent, CounterError, EmptyContext>
  typealias CounterUserAction = UserAction<Int, CounterEvent, CounterError, EmptyContext>

  @Test func seedCounterCountsEveryTap() {
    var label = ""
    let tapPlus = CounterUserAction(trigger: .increment)
    let tapMinus = CounterUserAction(trigger: .decrement)

    CounterSystem.pure(
      initialState: 0,
      context: EmptyContext(),
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

    #expect(label == "0")
    for _ in 1...10 { tapPlus.execute() }
    #expect(label == "10")
    tapMinus.execute()
    #expect(label == "9")
  }

  @Test func uiSeesTheInitialStateAndEveryLaterStateInOrder() {
    var rendered: [Int] = []
    let system = CounterSystem.pure(
      initialState: 5,
      context: EmptyContext(),
      reducer: counterReducer,
      uiBindings: [{ rendered.append($0) }],
      userActions: [],
      feedback: []
    )
    system.send(.increment)
    system.send(.decrement)
    system.send(.decrement)
    #expect(rendered == [5, 6, 5, 4])
    #expect(system.state == 4)
  }

  @Test func callbacksObserversAndBindingsRunInThatOrderAfterEachStep() {
    var calls: [String] = []
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    system.addUIBinding { calls.append("binding \($0)") }
    system.addObserver { if case .step = $0 { calls.append("observer") } }
    system.addLoopCallback { calls.append("callback \($0)") }
    system.send(.increment)
    #expect(calls == ["binding 0", "callback 1", "observer", "binding 1"])
  }

  @Test func bindingsAddedBeforeAndAfterOtherListenersAreRemovedExactly() {
    // The initial bindings' identifiers run on without a gap; a loop callback added next makes
    // a gap before the bindings added after it. Removing any of them, also from inside a walk,
    // must silence exactly that one.
    var calls: [String] = []
    let system = CounterSystem.pure(
      initialState: 0,
      context: EmptyContext(),
      reducer: counterReducer,
      uiBindings: [{ calls.append("first \($0)") }, { calls.append("second \($0)") }],
      userActions: [],
      feedback: []
    )
    let callback = system.addLoopCallback { calls.append("callback \($0)") }
    var third: Listener?
    third = system.addUIBinding { state in
      calls.append("third \(state)")
      if state == 1, let third { system.removeListener(third) }
    }
    let fourth = system.addUIBinding { calls.append("fourth \($0)") }
    let fifth = system.addUIBinding { calls.append("fifth \($0)") }
    system.removeListener(callback)
    system.removeListener(fourth)
    calls = []
    system.send(.increment)
    #expect(calls == ["first 1", "second 1", "third 1", "fifth 1"])
    calls = []
    system.send(.increment)
    #expect(calls == ["first 2", "second 2", "fifth 2"])
    system.removeListener(fifth)
    system.removeListener(fifth)
    let sixth = system.addUIBinding { calls.append("sixth \($0)") }
    calls = []
    system.send(.increment)
    #expect(calls == ["first 3", "second 3", "sixth 3"])
    system.removeListener(sixth)
    calls = []
    system.send(.increment)
    #expect(calls == ["first 4", "second 4"])
  }

  @Test func listenersAddedOneByOneWithoutAGapAreRemovedExactlyAlsoDuringAWalk() {
    var calls: [String] = []
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    var first: Listener?
    first = system.addLoopCallback { state in
      calls.append("first \(state)")
      if let first { system.removeListener(first) }
    }
    system.addLoopCallback { calls.append("second \($0)") }
    let third = system.addLoopCallback { calls.append("third \($0)") }
    var fourth: Listener?
    fourth = system.addLoopCallback { state in
      calls.append("fourth \(state)")
      if let fourth { system.removeListener(fourth) }
      system.removeListener(third)
    }
    system.send(.increment)
    #expect(calls == ["first 1", "second 1", "third 1", "fourth 1"])
    calls = []
    system.send(.increment)
    #expect(calls == ["second 2"])
  }

  /// A walk reads its listeners' storage in place: a binding that adds enough bindings to move
  /// that storage, and removes one not yet called, must leave the walk calling exactly the
  /// bindings that were there before it and are still there (under the address sanitizer in
  /// `Scripts/check.sh`, a walk over freed storage fails).
  @Test func bindingsThatAddAndRemoveBindingsDuringTheirWalkAreCalledExactly() {
    var calls: [String] = []
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    var victim: Listener?
    system.addUIBinding { state in
      calls.append("grower \(state)")
      guard state > 0 else { return }
      for index in 0..<20 { system.addUIBinding { calls.append("extra \(index) \($0)") } }
      if let victim { system.removeListener(victim) }
    }
    victim = system.addUIBinding { calls.append("victim \($0)") }
    system.addUIBinding { calls.append("last \($0)") }
    let rendered = (0..<20).map { "extra \($0) 1" }
    calls = []
    system.send(.increment)
    // The new bindings render the state as they are added, and are not called again.
    #expect(calls == ["grower 1"] + rendered + ["last 1"])
    calls = []
    system.send(.increment)
    let extras = (0..<20).map { "extra \($0) 2" }
    #expect(calls == ["grower 2"] + extras + ["last 2"] + extras)
  }

  /// A system without loop callbacks, observers or waits makes the storage for them at the
  /// first one, which may be in the middle of a step: what a binding adds then follows the
  /// later steps exactly, and what it removes is told nothing more.
  @Test func listenersOfOtherKindsAddedByABindingDuringAStepFollowTheLaterSteps() {
    var calls: [String] = []
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    var added: [Listener] = []
    system.addUIBinding { state in
      calls.append("binding \(state)")
      if state == 1 {
        added.append(system.addLoopCallback { calls.append("callback \($0)") })
        added.append(
          system.addObserver { activity in
            if case .step(_, let previous, let current) = activity {
              calls.append("observer \(previous)->\(current)")
            }
          })
      } else if state == 3 {
        for listener in added { system.removeListener(listener) }
      }
    }
    calls = []
    system.send(.increment)
    // Added during the step's walk: not told of the step that added them.
    #expect(calls == ["binding 1"])
    calls = []
    system.send(.increment)
    #expect(calls == ["callback 2", "observer 1->2", "binding 2"])
    calls = []
    // Removed by the binding, after the callback and the observer were told of the step.
    system.send(.increment)
    #expect(calls == ["callback 3", "observer 2->3", "binding 3"])
    calls = []
    system.send(.increment)
    #expect(calls == ["binding 4"])
  }

  /// A stream of states made by a binding in the middle of a step starts with that step's
  /// state, and gets each later state once: the step that made it does not yield it again.
  @Test func aStreamMadeByABindingDuringAStepGetsEachStateOnce() async {
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    var stream: AsyncStream<Int>?
    system.addUIBinding { state in
      if state == 1 { stream = system.states }
    }
    system.send(.increment)
    system.send(.increment)
    system.stop()
    guard let stream else {
      Issue.record("The binding made no stream.")
      return
    }
    var received: [Int] = []
    for await state in stream { received.append(state) }
    #expect(received == [1, 2])
  }

  /// Walks nest: a loop callback that stops the system has the observers told of the effect it
  /// cancels, inside its own walk; an observer that adds and removes listeners there changes
  /// the storage of both walks.
  @Test func listenersChangedInsideANestedWalkLeaveBothWalksExact() {
    var calls: [String] = []
    let system = System<Int, CounterEvent, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(),
      feature: Feature(
        reduce: { state, _ in state += 1 },
        feedback: [
          // Runs until the system stops: its cancellation is told to the observers.
          .react(
            request: { $0 > 0 ? true : nil },
            effect: .run { _, _ in
              try? await Task.sleep(for: .seconds(3_600))
              return .increment
            })
        ]))
    var stopper: Listener?
    var observer: Listener?
    stopper = system.addLoopCallback { state in
      calls.append("stopper \(state)")
      if state == 2 { system.stop() }
    }
    system.addLoopCallback { calls.append("second \($0)") }
    func addLate() { system.addLoopCallback { calls.append("late \($0)") } }
    observer = system.addObserver { activity in
      guard case .effectCancelled = activity else { return }
      calls.append("cancelled")
      for _ in 0..<20 { addLate() }
      if let stopper { system.removeListener(stopper) }
      if let observer { system.removeListener(observer) }
    }
    system.send(.increment)
    system.send(.increment)
    #expect(calls == ["stopper 1", "second 1", "stopper 2", "cancelled", "second 2"])
  }

  @Test func listenersAddedAfterEveryOneWasRemovedAreRemovedExactly() {
    // Once the last listener of a kind is gone, the next ones start a new run of identifiers:
    // each must still be removed alone.
    var calls: [String] = []
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    let first = system.addLoopCallback { calls.append("first \($0)") }
    let second = system.addLoopCallback { calls.append("second \($0)") }
    system.removeListener(second)
    system.removeListener(first)
    system.addObserver { _ in }
    let third = system.addLoopCallback { calls.append("third \($0)") }
    let fourth = system.addLoopCallback { calls.append("fourth \($0)") }
    system.addLoopCallback { calls.append("fifth \($0)") }
    system.send(.increment)
    #expect(calls == ["third 1", "fourth 1", "fifth 1"])
    system.removeListener(fourth)
    calls = []
    system.send(.increment)
    #expect(calls == ["third 2", "fifth 2"])
    system.removeListener(third)
    calls = []
    system.send(.increment)
    #expect(calls == ["fifth 3"])
  }

  @Test func eventsSentDuringAStepAreProcessedAfterIt() {
    var seen: [(state: Int, source: String)] = []
    let system = CounterSystem(
      initialState: 0,
      context: EmptyContext(),
      reduce: { state, event in state += event == .increment ? 1 : -1 }
    )
    var nested = true
    system.addLoopCallback { state in
      seen.append((state, "callback"))
      if nested {
        nested = false
        system.send(.increment)
        system.send(.increment)
        // Not reduced yet: the mailbox holds them until this step ends.
        #expect(system.state == 1)
      }
    }
    system.addUIBinding { state in seen.append((state, "binding")) }
    system.send(.increment)
    #expect(system.state == 3)
    #expect(seen.map(\.state) == [0, 1, 1, 2, 2, 3, 3])
  }

  @Test func anEventSentFromABindingDuringCreationIsQueued() {
    var rendered: [Int] = []
    let action = CounterUserAction(trigger: .increment)
    let system = CounterSystem.pure(
      initialState: 0,
      context: EmptyContext(),
      reducer: counterReducer,
      uiBindings: [{ state in rendered.append(state) }],
      userActions: [action],
      feedback: []
    )
    system.addUIBinding { state in if state == 1 { system.send(.increment) } }
    action.execute()
    #expect(rendered == [0, 1, 2])
  }

  @Test func aBurstOfTenThousandEventsIsReducedExactlyOnceEachInOrder() {
    var seen: [Int] = []
    let system = System<[Int], Int, Never, EmptyContext>(
      initialState: [],
      context: EmptyContext(),
      reduce: { state, event in state.append(event) }
    )
    system.addLoopCallback { state in
      seen.append(state.count)
      // Reentrant sends from the first step: all 10,000 queue behind it.
      if state.count == 1 {
        for event in 1..<10_000 { system.send(event) }
      }
    }
    system.send(0)
    #expect(system.state == Array(0..<10_000))
    #expect(seen == Array(1...10_000))
  }

  @Test func sendAfterStopIsIgnoredAndReported() async {
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    let log = Recorder(observing: system)
    system.send(.increment)
    system.stop()
    system.send(.increment)
    system.stop()
    #expect(system.state == 1)
    #expect(system.isStopped)
    #expect(log.ignored.map(\.0) == [.increment])
    #expect(log.ignored.map(\.1) == [.stopped])
  }

  @Test func userActionDropsStoppedSystems() {
    let action = CounterUserAction(trigger: .increment)
    let first = CounterSystem.pure(
      initialState: 0, context: EmptyContext(), reducer: counterReducer,
      uiBindings: [], userActions: [action], feedback: [])
    let second = CounterSystem.pure(
      initialState: 10, context: EmptyContext(), reducer: counterReducer,
      uiBindings: [], userActions: [action], feedback: [])
    action.execute()
    first.stop()
    action.execute()
    #expect(first.state == 1)
    #expect(second.state == 12)
  }

  @Test func stateIsObservable() {
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    let changed = Recorder<Bool>()
    withObservationTracking {
      _ = system.state
    } onChange: {
      changed.record(true)
    }
    #expect(changed.values.isEmpty)
    system.send(.increment)
    #expect(changed.values == [true])
  }

  @Test func statesDeliversTheCurrentStateThenEveryLaterState() async {
    let system = CounterSystem(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 })
    let states = system.states
    system.send(.increment)
    system.send(.increment)
    system.stop()
    var received: [Int] = []
    for await state in states { received.append(state) }
    #expect(received == [0, 1, 2])
  }

  @Test func releasingASystemReleasesItsStateAndContext() {
    final class Box: Sendable {}
    weak var weakState: Box?
    weak var weakContext: Box?
    do {
      let state = Box()
      let context = Box()
      weakState = state
      weakContext = context
      let system = System<Box, Int, Never, Box>(
        initialState: state,
        context: context,
        reduce: { _, _ in },
        feedback: [.react(request: { _ in 1 }, effects: { _ in .pure(2) })]
      )
      system.send(1)
    }
    #expect(weakState == nil)
    #expect(weakContext == nil)
  }
}

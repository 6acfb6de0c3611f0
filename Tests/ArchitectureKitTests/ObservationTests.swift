import ArchitectureKit
import Observation
import TestDoubles
import Testing

/// A state that is not `Equatable`, with a part a view can observe on its own.
private struct Scores {
  var count = 0
  var other = 0
}

private enum ScoresEvent: Sendable {
  case count
  case other
}

/// How Observation sees a system: once per burst of steps, when the mailbox has settled.
@MainActor
struct ObservationTests {
  typealias CounterSystem = System<Int, CounterEvent, CounterError, EmptyContext>

  /// A system whose loop callback sends `increment` until the state reaches `target`.
  private func countingSystem(to target: Int) -> CounterSystem {
    let system = CounterSystem.pure(
      initialState: 0, context: EmptyContext(), reducer: counterReducer, uiBindings: [],
      userActions: [], feedback: [])
    system.addLoopCallback { [unowned system] state in
      if state < target { system.send(.increment) }
    }
    return system
  }

  @Test func observationSeesTheStateTheBurstSettledOn() {
    let system = countingSystem(to: 3)
    let seen = Recorder<Int>()
    withObservationTracking {
      _ = system.state
    } onChange: {
      MainActor.assumeIsolated { seen.record(system.state) }
    }
    system.send(.increment)
    #expect(system.state == 3)
    #expect(seen.values == [3])
  }

  @Test func anEventAnObservationHandlerSendsIsQueuedAndReducedBeforeSendReturns() {
    let system = CounterSystem.pure(
      initialState: 0, context: EmptyContext(), reducer: counterReducer, uiBindings: [],
      userActions: [], feedback: [])
    var rendered: [Int] = []
    system.addUIBinding { rendered.append($0) }
    let seenAfterSending = Recorder<Int>()
    withObservationTracking {
      _ = system.state
    } onChange: {
      MainActor.assumeIsolated {
        system.send(.increment)
        seenAfterSending.record(system.state)
      }
    }
    system.send(.increment)
    // Queued behind the burst, not reduced inside the handler.
    #expect(seenAfterSending.values == [1])
    #expect(system.state == 2)
    #expect(rendered == [0, 1, 2])
  }

  @Test func aViewThatStartsTrackingDuringABurstIsNotifiedOfItsLaterSteps() {
    let system = countingSystem(to: 3)
    let changed = Flag()
    var isTracking = false
    system.addLoopCallback { [unowned system] state in
      guard state == 1, !isTracking else { return }
      isTracking = true
      withObservationTracking {
        _ = system.state
      } onChange: {
        changed.set()
      }
    }
    system.send(.increment)
    #expect(isTracking)
    #expect(changed.isSet)
  }

  @Test func aBurstThatEndsWhereItStartedNotifiesTheStateButNoSlice() {
    let system = CounterSystem.pure(
      initialState: 0, context: EmptyContext(), reducer: counterReducer, uiBindings: [],
      userActions: [], feedback: [])
    system.addLoopCallback { [unowned system] state in
      if state == 1 { system.send(.decrement) }
    }
    let stateChanged = Flag()
    withObservationTracking {
      _ = system.state
    } onChange: {
      stateChanged.set()
    }
    let sliceChanged = Flag()
    withObservationTracking {
      _ = system[dynamicMember: \.self]
    } onChange: {
      sliceChanged.set()
    }
    system.send(.increment)
    #expect(system.state == 0)
    // The whole state is not compared, so as not to keep a copy of it across steps.
    #expect(stateChanged.isSet)
    #expect(!sliceChanged.isSet)
  }

  @Test func aPartFirstObservedDuringABurstIsNotifiedWhenItChangesLaterInIt() {
    let system = System<Scores, ScoresEvent, Never, EmptyContext>(
      initialState: Scores(), context: EmptyContext(),
      reduce: { state, event in
        switch event {
        case .count: state.count += 1
        case .other: state.other += 1
        }
      })
    // Observed whole first: a state that is not `Equatable` keeps no state to compare with.
    _ = system.state
    let countChanged = Flag()
    system.addLoopCallback { [unowned system] state in
      guard state.other == 1, state.count == 0 else { return }
      withObservationTracking {
        _ = system.count
      } onChange: {
        countChanged.set()
      }
      system.send(.count)
    }
    system.send(.other)
    #expect(system.state.count == 1)
    #expect(countChanged.isSet)
  }
}

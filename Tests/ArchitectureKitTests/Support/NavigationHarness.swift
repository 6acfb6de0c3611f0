import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// The runtimes a navigation test runs on.
enum NavigationRuntime: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// ``System``, on the main actor.
  case system
  /// ``BackgroundSystem``, on an actor of its own.
  case backgroundSystem
  /// ``TestSystem``, running each effect as it starts and receiving what it sends.
  case testSystem

  var testDescription: String { rawValue }
}

/// One navigating feature on one runtime, driven from outside as an app drives it, its effects
/// stopped at checkpoints, everything it does recorded by an observer.
///
/// A ``TestSystem`` runs each effect as it starts (`effects: .automatic`) without exhaustivity,
/// so the three runtimes take the very same steps; the harness receives what its effects send.
@MainActor
final class NavigationHarness<State: Equatable & Sendable, Event: Equatable & Sendable> {
  typealias Activity = SystemActivity<State, Event, Never>

  private enum Runner {
    case live(Subject<State, Event, Never, CheckpointContext>)
    case test(TestSystem<State, Event, Never, CheckpointContext>)
  }

  let checkpoints = Checkpoints()
  let log = Recorder<SystemActivity<State, Event, Never>>()
  private var runner: Runner?
  /// How many activities ``changes()`` already reported.
  private var reported = 0

  init(
    _ runtime: NavigationRuntime,
    initialState: State,
    feature: @escaping @Sendable () -> Feature<State, Event, Never, CheckpointContext>
  ) async {
    let context = CheckpointContext(checkpoints: checkpoints)
    let log = self.log
    switch runtime {
    case .system, .backgroundSystem:
      let subject = await Subject.make(
        runtime == .system ? .main : .background, initialState: initialState, context: context,
        feature: feature)
      await subject.record(into: log)
      runner = .live(subject)
    case .testSystem:
      let system = TestSystem(
        initialState: initialState, context: context, feature: feature(), exhaustivity: .off,
        effects: .automatic)
      system.shell.addObserver { log.record($0) }
      runner = .test(system)
    }
  }

  func send(_ event: Event) async {
    switch runner {
    case .live(let subject): await subject.send(event)
    case .test(let system): system.send(event)
    case nil: Issue.record("The harness was stopped.")
    }
  }

  var state: State {
    get async {
      switch runner {
      case .live(let subject): await subject.state
      case .test(let system): system.state
      case nil: preconditionFailure("The harness was stopped.")
      }
    }
  }

  /// The requests that started and were cancelled since the last call, as their descriptions
  /// name them (`destination.editor: a`), in order.
  func changes() -> (started: [String], cancelled: [String]) {
    let activities = log.activities
    defer { reported = activities.count }
    var started: [String] = []
    var cancelled: [String] = []
    for activity in activities.dropFirst(reported) {
      switch activity {
      case .effectStarted(let request): started.append(request.description)
      case .effectCancelled(let request): cancelled.append(request.description)
      default: break
      }
    }
    return (started, cancelled)
  }

  /// Lets the `run`-th run at checkpoint `key` answer, and waits until its answer, `event`, is
  /// reduced.
  func answer(_ key: String, run: Int = 1, with event: Event) async {
    await checkpoints.arrival(at: key, run: run)
    let reduced = log.steps.count { $0 == event }
    checkpoints.release(key, run: run)
    switch runner {
    case .live:
      await log.wait(count: reduced + 1) { activity in
        if case .step(event, _, _) = activity { true } else { false }
      }
    case .test(let system): await system.receive(event)
    case nil: Issue.record("The harness was stopped.")
    }
  }

  /// Lets the `run`-th run at checkpoint `key`, whose screen has gone, answer `event`; waits
  /// until the runtime drops it as the event of a cancelled effect and checks that it was never
  /// reduced and changed nothing.
  func answerLate(
    _ key: String,
    run: Int = 1,
    with event: Event,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await checkpoints.arrival(at: key, run: run)
    let stateBefore = await state
    let reduced = log.steps.count { $0 == event }
    let dropped = log.ignored.count { $0.0 == event && $0.1 == .cancelledEffect }
    checkpoints.release(key, run: run)
    // Either fate ends the wait, so a runtime that reduces the answer fails at once.
    await log.wait(count: reduced + dropped + 1) { activity in
      switch activity {
      case .step(event, _, _), .eventIgnored(event, .cancelledEffect): true
      default: false
      }
    }
    #expect(
      log.ignored.count { $0.0 == event && $0.1 == .cancelledEffect } == dropped + 1,
      sourceLocation: sourceLocation)
    #expect(log.steps.count { $0 == event } == reduced, sourceLocation: sourceLocation)
    #expect(await state == stateBefore, sourceLocation: sourceLocation)
  }

  /// Stops the system and lets every effect go, so nothing outlives the test.
  func stop() async {
    switch runner {
    case .live(let subject): await subject.stop()
    case .test(let system): system.shell.stop()
    case nil: break
    }
    runner = nil
    checkpoints.releaseAll()
  }
}

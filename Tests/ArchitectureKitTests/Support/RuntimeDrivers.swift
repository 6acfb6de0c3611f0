import ArchitectureKit
import ArchitectureKitTestSupport
import Foundation
import FunctionalCore
import TestDoubles
import Testing

/// The runtimes the property tests drive beside the reference.
enum PropertyRuntime: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// ``SystemCore``, driven directly.
  case core
  /// ``System``, on the main actor.
  case system
  /// ``BackgroundSystem``, on an actor of its own.
  case backgroundSystem
  /// ``TestSystem``: effects wait for the test, results until they are received.
  case testSystem
  /// ``System`` with a journal (in memory and to a file) and printed changes attached.
  case recordedSystem
  /// ``BackgroundSystem`` with a journal (in memory and to a file) and printed changes attached.
  case recordedBackgroundSystem

  var testDescription: String { rawValue }

  @MainActor
  func makeDriver() -> any RuntimeDriver {
    switch self {
    case .core: CoreDriver()
    case .system: LiveSystemDriver(.main)
    case .backgroundSystem: LiveSystemDriver(.background)
    case .testSystem: TestSystemDriver()
    case .recordedSystem: LiveSystemDriver(.main, isRecorded: true)
    case .recordedBackgroundSystem: LiveSystemDriver(.background, isRecorded: true)
    }
  }
}

/// One runtime under the property test: it does what the test asks and reports what happened,
/// and the reference says what it must have reported.
@MainActor
protocol RuntimeDriver: AnyObject {
  /// Whether effects wait for the test to run them (``TestSystem``).
  var isParking: Bool { get }
  /// Makes the runtime, with a loop callback that sends each user event's follow-ups and an
  /// observer that records every activity and stops the system when a trigger is armed.
  func start() async
  /// Forgets what was reported so far: what comes next belongs to the next action.
  func clearHistory()
  /// Does `action` to the runtime; `wasRunning` tells whether its run was running before.
  func perform(_ action: PropertyAction, wasRunning: Bool) async
  /// Runs an effect that waits for the test (parking runtimes only).
  func launch(_ token: Token)
  /// Runs an inline effect that waits for the test and receives its result (parking only).
  func completeInline(_ token: Token, with outcome: EffectOutcome<PropertyEvent, CounterError>)
    async
  /// Waits for what the reference says the action caused, then lists every disagreement.
  func mismatches(with reference: ReferenceSystem) async -> [String]
  /// Stops the runtime and ends every effect body.
  func tearDown(_ reference: ReferenceSystem) async
}

/// Drives a runtime and the reference with the same random actions, checking after each.
@MainActor
enum PropertyRunner {
  /// Actions still taken once the system stopped: enough to see that it stays stopped.
  static let actionsAfterStop = 3

  /// Runs `count` actions drawn from `seed` (fewer when the system stops early); returns
  /// `false` at the first disagreement.
  static func run(
    _ driver: any RuntimeDriver,
    seed: UInt64,
    actions count: Int,
    navigating: Bool,
    sourceLocation: SourceLocation
  ) async -> Bool {
    var random = SplitMix64(seed: seed)
    var reference = ReferenceSystem(isParking: driver.isParking, navigates: navigating)
    reference.start()
    await driver.start()
    var agrees = await check(driver, with: reference, after: "start", at: sourceLocation)
    var index = 0
    var actionsAfterStop = 0
    while agrees, index < count, actionsAfterStop <= Self.actionsAfterStop {
      if reference.isStopped { actionsAfterStop += 1 }
      let action = ActionGenerator.next(using: &random, reference: reference)
      let wasRunning: Bool
      switch action {
      case .deliver(let token), .finish(let token, _): wasRunning = reference.isRunning(token)
      case .send, .armStop, .stop: wasRunning = false
      }
      reference.clearHistory()
      driver.clearHistory()
      reference.apply(action)
      await driver.perform(action, wasRunning: wasRunning)
      if driver.isParking { await settleParked(driver, &reference) }
      agrees = await check(
        driver, with: reference, after: "action \(index): \(action)", at: sourceLocation)
      index += 1
    }
    await driver.tearDown(reference)
    return agrees
  }

  /// How often the reference alone, over the actions of `seed`, met each per-element lifetime.
  static func coverage(
    seed: UInt64,
    actions count: Int,
    navigating: Bool
  ) -> ReferenceSystem.ChildCoverage {
    var random = SplitMix64(seed: seed)
    var reference = ReferenceSystem(navigates: navigating)
    reference.start()
    var actionsAfterStop = 0
    for _ in 0..<count where actionsAfterStop <= Self.actionsAfterStop {
      if reference.isStopped { actionsAfterStop += 1 }
      reference.apply(ActionGenerator.next(using: &random, reference: reference))
    }
    return reference.coverage
  }

  /// Runs what a parking runtime holds for the test, as an app's runtime would at once: the
  /// effects with work are launched, and inline effects (a cascade of them) are completed.
  private static func settleParked(
    _ driver: any RuntimeDriver,
    _ reference: inout ReferenceSystem
  ) async {
    while true {
      for token in reference.launchPending() { driver.launch(token) }
      guard let token = reference.pendingInline else { return }
      let outcome = PropertyState.inlineOutcome(of: token)
      reference.finish(token, with: outcome)
      await driver.completeInline(token, with: outcome)
    }
  }

  private static func check(
    _ driver: any RuntimeDriver,
    with reference: ReferenceSystem,
    after action: @autoclosure () -> String,
    at sourceLocation: SourceLocation
  ) async -> Bool {
    let mismatches = await driver.mismatches(with: reference)
    guard mismatches.isEmpty else {
      Issue.record(
        "After \(action()):\n\(mismatches.joined(separator: "\n"))", sourceLocation: sourceLocation)
      return false
    }
    return true
  }

  /// The disagreements every runtime is checked for: the state, the events reduced and ignored
  /// in order, and the effects started, cancelled, finished and failed (as multisets).
  static func mismatches(
    state: PropertyState,
    activities: [RecordedActivity],
    reference: ReferenceSystem
  ) -> [String] {
    var mismatches: [String] = []
    if state != reference.state {
      mismatches.append("state \(state), reference \(reference.state)")
    }
    // The common case, cheaply: the very same activities in the very same order.
    guard activities != reference.activities else { return mismatches }
    // Events in order, an ignored one with the scope of the missing child it was meant for.
    func events(_ activities: [RecordedActivity], ignored: Bool) -> [RecordedActivity] {
      activities.filter { activity in
        switch activity {
        case .step: !ignored
        case .ignored: ignored
        default: false
        }
      }
    }
    for (name, isIgnored) in [("reduced", false), ("ignored", true)] {
      let actual = events(activities, ignored: isIgnored)
      let expected = events(reference.activities, ignored: isIgnored)
      if actual != expected {
        mismatches.append("\(name) \(actual), reference \(expected)")
      }
    }
    for trigger in [StopTrigger.effectStarted, .effectCancelled, .effectFinished, .effectFailed] {
      let actual = requests(activities.filter(trigger.matches))
      let expected = requests(reference.activities.filter(trigger.matches))
      if actual != expected {
        mismatches.append("\(trigger): \(actual), reference \(expected)")
      }
    }
    return mismatches
  }

  private static func requests(_ activities: [RecordedActivity]) -> [RequestID] {
    activities.compactMap { activity in
      switch activity {
      case .started(let request), .cancelled(let request), .finished(let request),
        .failed(let request):
        request
      case .step, .ignored: nil
      }
    }.sorted()
  }
}

/// The feature of the runtime drivers.
///
/// It has one feedback of each form; children composed with `forEach`, each with a `run`
/// request and a set of streams; and screens, each with a `run` request, presented as an enum
/// destination (`presents` and `ifCase`) and on a stack (`forEach(stack:)`). Every effect with
/// work is run by `script`, and requests are named by their ``RequestID``.
func propertyFeature(
  script: EffectScript
) -> Feature<PropertyState, PropertyEvent, CounterError, EmptyContext> {
  let generations = Generations()
  let child = Feature<PropertyChild, ChildEvent, CounterError, EmptyContext>(
    reduce: PropertyChild.reduce,
    feedback: [
      .react(
        request: { child in
          child.single.map { RequestID(element: child.id, feedback: 0, value: $0) }
        },
        effect: .run { request, _ throws(CounterError) in
          try await script.single(request, embedded: { $0.child?.1 })
        }
      ),
      .react(
        requests: { child in
          Set(child.tags.map { RequestID(element: child.id, feedback: 1, value: $0) })
        },
        effect: .stream { request, _, send throws(CounterError) in
          let embedded = Send<PropertyEvent> { event in
            if case .child(_, let event) = event { await send(event) }
          }
          try await script.stream(request, send: embedded)
        }
      ),
    ]
  )
  let screen = Feature<PropertyScreen, ScreenEvent, CounterError, EmptyContext>(
    reduce: PropertyScreen.reduce,
    feedback: [
      .react(
        request: { screen in
          screen.single.map { RequestID(element: screen.place, feedback: 0, value: $0) }
        },
        effect: .run { request, _ throws(CounterError) in
          try await script.single(request, embedded: \.screenEvent)
        }
      )
    ]
  )
  return Feature(
    reduce: PropertyState.reduce,
    feedback: [
      .react(
        request: { $0.single.map { RequestID(feedback: 0, value: $0) } },
        effect: .run { request, _ throws(CounterError) in try await script.single(request) }
      ),
      .react(
        requests: { Set($0.tags.map { RequestID(feedback: 1, value: $0) }) },
        effect: .stream { request, _, send throws(CounterError) in
          try await script.stream(request, send: send)
        }
      ),
      .react(
        keyedRequests: { state in
          state.slots.reduce(into: [Int: RequestID]()) { requests, slot in
            requests[slot.key] = RequestID(feedback: 2, key: slot.key, value: slot.value)
          }
        },
        effect: .asyncResult { request in script.deferred(request) }
      ),
      .react({ _ in script.deferred(RequestID(feedback: 3, value: 1)) }, when: \.isOn),
      .react(
        request: { $0.echo.map { RequestID(feedback: 4, value: $0) } },
        effects: { request in
          let token = Token(request: request, generation: generations.next(request))
          return switch PropertyState.inlineOutcome(of: token) {
          case .event(let event): .pure(event)
          case .failed, .finished, .cancelled: .failure(.generic)
          }
        }
      ),
    ]
  )
  .forEach(
    child, elements: \.children, event: PropertyEvent.child, extract: { $0.child }, context: { $0 },
    error: { $0 }
  )
  .navigating(screen)
}

extension Feature
where
  State == PropertyState, Event == PropertyEvent, ErrorType == CounterError,
  Context == EmptyContext
{
  /// The property feature's destination and stack, both of `screen`.
  func navigating(
    _ screen: Feature<PropertyScreen, ScreenEvent, CounterError, EmptyContext>
  ) -> Feature {
    let destination = Feature<PropertyDestination, DestinationEvent, CounterError, EmptyContext>(
      reduce: { _, _ in }
    )
    .ifCase(
      screen, case: PropertyDestination.a, event: DestinationEvent.a,
      extract: { if case .a(let event) = $0 { event } else { nil } },
      context: { context, _ in context },
      error: { $0 }
    )
    .ifCase(
      screen, case: PropertyDestination.b, event: DestinationEvent.b,
      extract: { if case .b(let event) = $0 { event } else { nil } },
      context: { context, _ in context },
      error: { $0 })
    return
      self
      .presents(
        destination, state: \.$destination, event: PropertyEvent.destination,
        extract: { $0.destination }, context: { context, _ in context }, error: { $0 }
      )
      .forEach(
        screen, stack: \.path, event: PropertyEvent.path, extract: { $0.pathEvent },
        context: { context, _ in context }, error: { $0 })
  }
}

// MARK: - The core

/// Drives a ``SystemCore`` directly: the harness plays the runtime, so it also checks, after
/// every step, that the live requests are the ones the previous state asked for.
@MainActor
final class CoreDriver: RuntimeDriver {
  typealias Core = SystemCore<PropertyState, PropertyEvent, CounterError, EmptyContext>
  typealias Forwarder = CoreOutputForwarder<
    PropertyState, PropertyEvent, CounterError, EmptyContext
  >

  let core: Core
  private let hook = StopHook()
  /// The core's identifier of every run the harness handed out.
  private var ids: [Token: EffectID] = [:]
  private var startCounts: [RequestID: Int] = [:]
  private var activities: [RecordedActivity] = []
  private var problems: [String] = []
  /// Steps taken within the current action, to stop a runaway drain.
  private var steps = 0
  /// Plays the runtime: every report the core makes comes to ``handle(_:)``.
  private lazy var runtime = Forwarder { [unowned self] output in handle(output) }

  var isParking: Bool { false }

  init() {
    let generations = Generations()
    let child = Feature<PropertyChild, ChildEvent, CounterError, EmptyContext>(
      reduce: PropertyChild.reduce,
      feedback: [
        .react(request: \.single, effect: .run { _, _ in .user(.setSingle(nil)) }),
        .react(requests: \.tags, effect: .stream { _, _, _ in }),
      ]
    )
    let parent = Feature<PropertyState, PropertyEvent, CounterError, EmptyContext>(
      reduce: PropertyState.reduce,
      feedback: [
        .react(request: \.single, effect: .run { _, _ in .user(.setOn(false), then: []) }),
        .react(requests: \.tags, effect: .stream { _, _, _ in }),
        .react(keyedRequests: \.slots, effect: .run { _, _ in .user(.setOn(false), then: []) }),
        .react({ _ in .unfold { _, _ in } }, when: \.isOn),
        .react(
          request: \.echo,
          effects: { value in
            let request = RequestID(feedback: 4, value: value)
            let token = Token(request: request, generation: generations.next(request))
            return PropertyState.echoFails(value) ? .failure(.generic) : .pure(.result(token))
          }),
      ]
    )
    let screen = Feature<PropertyScreen, ScreenEvent, CounterError, EmptyContext>(
      reduce: PropertyScreen.reduce,
      feedback: [.react(request: \.single, effect: .run { _, _ in .setSingle(nil) })]
    )
    core = Core(
      initialState: PropertyState(),
      feature: parent.forEach(
        child, elements: \.children, event: PropertyEvent.child, extract: { $0.child },
        context: { $0 }, error: { $0 }
      )
      .navigating(screen))
    core.retainsPreviousState = true
  }

  func start() async {
    core.start(runtime: runtime)
  }

  func clearHistory() {
    activities = []
    problems = []
    steps = 0
  }

  func perform(_ action: PropertyAction, wasRunning: Bool) async {
    switch action {
    case .send(let event):
      core.send(event, runtime: runtime)
    case .deliver(let token):
      guard let id = ids[token] else { return problems.append("no run \(token)") }
      core.deliver(token.event, from: id, runtime: runtime)
    case .finish(let token, let outcome):
      guard let id = ids[token] else { return problems.append("no run \(token)") }
      core.finish(id, with: outcome, runtime: runtime)
    case .armStop(let trigger):
      hook.arm(trigger)
    case .stop:
      core.stop(runtime: runtime)
    }
  }

  func launch(_ token: Token) {}

  func completeInline(
    _ token: Token,
    with outcome: EffectOutcome<PropertyEvent, CounterError>
  ) async {}

  func mismatches(with reference: ReferenceSystem) async -> [String] {
    var mismatches =
      problems
      + PropertyRunner.mismatches(
        state: core.state, activities: activities, reference: reference)
    let liveRequests = core.liveRequests
    let live = Set(liveRequests.map { RequestID($0.request) })
    let wanted = core.isStopped ? [] : core.state.requests
    if live != wanted || live != Set(reference.live.keys) {
      mismatches.append("live \(live.sorted()), the state asks for \(wanted.sorted())")
    }
    let running = liveRequests.filter { core.isRunning($0.id) }.map { RequestID($0.request) }
      .sorted()
    if running != reference.runningRequests {
      mismatches.append("running \(running), reference \(reference.runningRequests)")
    }
    return mismatches
  }

  func tearDown(_ reference: ReferenceSystem) async {}

  private func handle(_ output: Forwarder.Output) {
    switch output {
    case .stepped(let event, let previous):
      // After every step, before the next one reconciles: the live requests are exactly the
      // ones the previous state asked for.
      if let previous {
        let live = Set(core.liveRequests.map { RequestID($0.request) })
        if live != previous.requests {
          problems.append(
            "live \(live.sorted()) but the state asks for \(previous.requests.sorted())")
        }
      }
      steps += 1
      if steps > 10_000 {
        problems.append("a drain ran away")
        core.stop(runtime: Forwarder { _ in })
        return
      }
      // A loop callback sends these during the step: they must queue behind it.
      for mutation in core.state.followUps {
        core.send(.user(mutation, then: []), runtime: runtime)
      }
      record(.step(event))
    case .effectStarted(let id, let request, let effect):
      if !request.scope.isEmpty, !request.description.hasPrefix("\(request.scope): ") {
        problems.append("request \(request) does not start with its scope \(request.scope)")
      }
      let request = RequestID(request)
      startCounts[request, default: 0] += 1
      let token = Token(request: request, generation: startCounts[request, default: 0])
      // A known outcome is reported at once, as the runtime does; the rest the test ends.
      if case .done(let result) = effect {
        core.finish(id, with: EffectOutcome(result), runtime: runtime)
      } else {
        ids[token] = id
      }
      record(.started(request))
    case .effectCancelled(_, let request):
      record(.cancelled(RequestID(request)))
    case .effectFinished(_, let request):
      record(.finished(RequestID(request)))
    case .effectFailed(_, let request, _):
      record(.failed(RequestID(request)))
    case .eventIgnored(let event, .missingChild(let scope)):
      record(.ignored(event, missingChild: scope))
    case .eventIgnored(let event, _):
      record(.ignored(event))
    }
  }

  /// Records an activity, and stops the core there if the hook waits for it, as an observer.
  private func record(_ activity: RecordedActivity) {
    activities.append(activity)
    if hook.shouldStop(after: activity) {
      core.stop(runtime: runtime)
    }
  }
}

// MARK: - System and BackgroundSystem

extension Subject {
  /// Makes and starts a system that runs a feature, recorded from the start by `journal`.
  static func make(
    _ runtime: Runtime,
    initialState: State,
    context: Context,
    feature: @escaping @Sendable () -> Feature<State, Event, ErrorType, Context>,
    journal: Journal<State, Event>? = nil
  ) async -> Subject {
    switch runtime {
    case .main:
      let system = await MainActor.run {
        System(
          initialState: initialState, context: context, feature: feature(), journal: journal)
      }
      return .main(system)
    case .background:
      return .background(
        await BackgroundSystem(
          initialState: initialState, context: context, feature: feature(), journal: journal))
    }
  }

  /// Prints the system's changes to `output`, on its isolation.
  func printChanges(to output: @escaping @Sendable (String) -> Void) async {
    switch self {
    case .main(let system): await system.printChanges(to: output)
    case .background(let system): await system.printChanges(to: output)
    }
  }
}

/// Drives a ``System`` or a ``BackgroundSystem`` through its public API, with effects that
/// the test completes through an ``EffectScript``.
///
/// Each wait is for something the reference says must happen: after an action, the runtime
/// must report as many activities as the reference did (a whole drain runs in one go on the
/// system's isolation, so reading the state afterwards sees its end).
@MainActor
final class LiveSystemDriver: RuntimeDriver {
  typealias PropertySubject = Subject<PropertyState, PropertyEvent, CounterError, EmptyContext>

  private let runtime: Runtime
  /// Whether a journal and printed changes record the system: it must behave exactly as
  /// without them.
  private let isRecorded: Bool
  private var journal: Journal<PropertyState, PropertyEvent>?
  private let printedSteps = Recorder<Int>()
  private var folder: TemporaryFolder?
  private let script = EffectScript()
  private let log = Recorder<RecordedActivity>()
  private let hook = StopHook()
  private var subject: PropertySubject?
  private var firstActivity = 0
  private var problems: [String] = []

  var isParking: Bool { false }

  init(_ runtime: Runtime, isRecorded: Bool = false) {
    self.runtime = runtime
    self.isRecorded = isRecorded
  }

  func start() async {
    let script = self.script
    if isRecorded {
      let folder = try? TemporaryFolder()
      self.folder = folder
      journal =
        (try? folder.map { folder in
          try Journal<PropertyState, PropertyEvent>(
            writingTo: folder.path("journal.jsonl"), capacity: 100_000, states: .everyStep)
        }) ?? nil
      if journal == nil { problems.append("no journal file") }
    }
    let subject = await PropertySubject.make(
      runtime,
      initialState: PropertyState(),
      context: EmptyContext(),
      feature: { propertyFeature(script: script) },
      journal: journal
    )
    if isRecorded {
      let printedSteps = self.printedSteps
      await subject.printChanges { line in
        if line.hasPrefix("step ") { printedSteps.record(1) }
      }
    }
    await subject.addLoopCallback { state, control in
      for mutation in state.followUps { control.send(.user(mutation, then: [])) }
    }
    let (log, hook) = (self.log, self.hook)
    await subject.addObserver { activity, control in
      let recorded = RecordedActivity(activity)
      log.record(recorded)
      if hook.shouldStop(after: recorded) { control.stop() }
    }
    self.subject = subject
  }

  func clearHistory() {
    firstActivity = log.values.count
    problems = []
  }

  func perform(_ action: PropertyAction, wasRunning: Bool) async {
    guard let subject else { return }
    switch action {
    case .send(let event):
      await subject.send(event)
    case .stop:
      await subject.stop()
    case .armStop(let trigger):
      hook.arm(trigger)
    case .deliver(let token):
      if !(await script.command(token, isLive: wasRunning, .send(token.event))) {
        problems.append("no effect of \(token) came to send")
      }
    case .finish(let token, let outcome):
      guard await script.command(token, isLive: wasRunning, .end(outcome)),
        await script.waitForExit(of: token)
      else { return problems.append("no effect of \(token) came to end") }
    }
  }

  func launch(_ token: Token) {}

  func completeInline(
    _ token: Token,
    with outcome: EffectOutcome<PropertyEvent, CounterError>
  ) async {}

  func mismatches(with reference: ReferenceSystem) async -> [String] {
    guard let subject else { return ["no system"] }
    let expected = firstActivity + reference.activities.count
    let log = self.log
    let arrived = await failsafe(
      until: { log.values.count >= expected }, wait: { await log.wait(count: expected) })
    if !arrived {
      problems.append("waited in vain for \(reference.activities.count) activities")
    }
    // Reading the state runs on the system's isolation, after the drain that reported them.
    let state = await subject.state
    return problems
      + PropertyRunner.mismatches(
        state: state, activities: Array(log.values[firstActivity...]), reference: reference)
      + (await runningMismatches(script, reference))
  }

  func tearDown(_ reference: ReferenceSystem) async {
    await subject?.stop()
    if !(await script.close(waitingFor: reference.launchedCount)) {
      Issue.record("Effect bodies did not end after the system stopped.")
    }
    subject = nil
    if let journal, let folder {
      checkRecords(of: journal, in: folder.path("journal.jsonl"))
    }
  }

  /// Checks that the journal (in memory and in its file) and the printed changes recorded
  /// every step the observer saw, once each.
  private func checkRecords(of journal: Journal<PropertyState, PropertyEvent>, in path: String) {
    let steps = log.values.filter { if case .step = $0 { true } else { false } }.count
    let inMemory = journal.lines.filter { $0.hasPrefix(#"{"kind":"step""#) }.count
    let inFile = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
      .split(separator: "\n").filter { $0.hasPrefix(#"{"kind":"step""#) }.count
    let printed = printedSteps.values.count
    if inMemory != steps || inFile != steps || printed != steps {
      Issue.record(
        "\(steps) steps, \(inMemory) in the journal, \(inFile) in its file, \(printed) printed")
    }
  }
}

/// Whether the effects that run (seen from the effects: started, not cancelled, not ended) are
/// the ones the reference runs.
@MainActor
private func runningMismatches(
  _ script: EffectScript,
  _ reference: ReferenceSystem
) async -> [String] {
  guard await script.waitUntilReady(count: reference.launchedCount) else {
    return ["fewer than \(reference.launchedCount) effect bodies started"]
  }
  let running = script.runningRequests
  guard running == reference.runningBodies else {
    return ["effects running \(running), reference \(reference.runningBodies)"]
  }
  return []
}

// MARK: - TestSystem

/// Drives a ``TestSystem`` through its public API (`send`, `run`, `receive`,
/// `runningRequests`), observing and stopping it through its runtime as an app's observer
/// would.
///
/// Its effects wait for the test: after each action the driver runs every effect that
/// started, as an app's runtime would at once, so the same script completes them. A live
/// run's result and a live stream's event are parked until the driver receives them.
@MainActor
final class TestSystemDriver: RuntimeDriver {
  typealias PropertyTestSystem = TestSystem<
    PropertyState, PropertyEvent, CounterError, EmptyContext
  >

  private let script = EffectScript()
  private let log = Recorder<RecordedActivity>()
  private let hook = StopHook()
  private var system: PropertyTestSystem?
  private var firstActivity = 0
  private var problems: [String] = []

  var isParking: Bool { true }

  func start() async {
    let system = PropertyTestSystem(
      initialState: PropertyState(),
      context: EmptyContext(),
      feature: propertyFeature(script: script),
      exhaustivity: .off,
      // A backstop only: a wrong runtime shows as a mismatch with the model. Under the thread
      // sanitizer on a busy machine, a scripted effect can take seconds to be scheduled.
      timeout: .seconds(20)
    )
    system.addLoopCallback { [unowned system] state in
      for mutation in state.followUps { system.send(.user(mutation, then: [])) }
    }
    system.shell.addObserver { [unowned system, log, hook] activity in
      let recorded = RecordedActivity(activity)
      log.record(recorded)
      if hook.shouldStop(after: recorded) { system.shell.stop() }
    }
    self.system = system
  }

  func clearHistory() {
    firstActivity = log.values.count
    problems = []
  }

  func perform(_ action: PropertyAction, wasRunning: Bool) async {
    guard let system else { return }
    switch action {
    case .send(let event):
      guard !system.shell.core.isStopped, let scope = system.state.missingChild(of: event) else {
        return system.send(event)
      }
      // A TestSystem fails on an event for a missing child, in any mode: it must, exactly once.
      let failures = await capturingFailures {
        system.send(event)
      }
      if failures.count != 1 || !failures.allSatisfy({ $0.contains("child at \(scope),") }) {
        problems.append("the event for the missing \(scope) reported \(failures), not one failure")
      }
    case .stop:
      system.shell.stop()
    case .armStop(let trigger):
      hook.arm(trigger)
    case .deliver(let token):
      guard await script.command(token, isLive: wasRunning, .send(token.event)) else {
        return problems.append("no effect of \(token) came to send")
      }
      if wasRunning { await system.receive(token.event) }
    case .finish(let token, let outcome):
      guard await script.command(token, isLive: wasRunning, .end(outcome)) else {
        return problems.append("no effect of \(token) came to end")
      }
      if wasRunning, case .event(let event) = outcome { await system.receive(event) }
      if !(await script.waitForExit(of: token)) {
        problems.append("the effect of \(token) did not end")
      }
    }
  }

  func launch(_ token: Token) {
    if token.element == nil, token.request.feedback == 3 {
      system?.run(true)
    } else {
      system?.run(token.request)
    }
  }

  func completeInline(
    _ token: Token,
    with outcome: EffectOutcome<PropertyEvent, CounterError>
  ) async {
    system?.run(token.request)
    if case .event(let event) = outcome { await system?.receive(event) }
  }

  func mismatches(with reference: ReferenceSystem) async -> [String] {
    guard let system else { return ["no system"] }
    let expected = firstActivity + reference.activities.count
    let log = self.log
    let arrived = await failsafe(
      until: { log.values.count >= expected }, wait: { await log.wait(count: expected) })
    if !arrived {
      problems.append("waited in vain for \(reference.activities.count) activities")
    }
    var mismatches =
      problems
      + PropertyRunner.mismatches(
        state: system.state, activities: Array(log.values[firstActivity...]),
        reference: reference)
    let running = system.runningRequests.map(RequestID.init).sorted()
    if running != reference.runningRequests {
      mismatches.append("runningRequests \(running), reference \(reference.runningRequests)")
    }
    if !system.shell.parked.isEmpty {
      mismatches.append("results left parked: \(system.shell.parked.map(\.event))")
    }
    return mismatches + (await runningMismatches(script, reference))
  }

  func tearDown(_ reference: ReferenceSystem) async {
    system?.shell.stop()
    if !(await script.close(waitingFor: reference.launchedCount)) {
      Issue.record("Effect bodies did not end after the system stopped.")
    }
    system = nil
  }
}

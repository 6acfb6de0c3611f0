import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

// DESIGN §3, "Hooks never break the mailbox" and "`stop()` takes effect at once": whatever a
// hook does while the system handles anything, an event it sends is queued behind the current
// step, and a stop it asks for is exact. Issue 11, defects 1, 2, 3, 8, 11 and 12, on both
// runtimes, plus every hook at every moment it can run at.

/// Counts the hooks running on the stack and the events reduced while one runs: a nested step.
final class Nesting: Sendable {
  private let counts = Lock((depth: 0, nestedSteps: 0))

  func inHook(_ body: () -> Void) {
    counts.withLock { $0.depth += 1 }
    body()
    counts.withLock { $0.depth -= 1 }
  }

  /// Called by the reducer.
  func reduced() {
    counts.withLock { if $0.depth > 0 { $0.nestedSteps += 1 } }
  }

  var nestedSteps: Int { counts.withLock(\.nestedSteps) }
}

/// Lets a hook act only the first time its moment comes.
final class Once: Sendable {
  private let isClaimed = Lock(false)

  func claim() -> Bool {
    isClaimed.withLock { isClaimed in
      defer { isClaimed = true }
      return !isClaimed
    }
  }
}

/// A number a hook writes and the test reads.
final class Mark: Sendable {
  private let value = Lock<Int?>(nil)

  func set(_ newValue: Int) { value.withLock { $0 = newValue } }
  var current: Int? { value.withLock { $0 } }
}

// MARK: - The hook × moment matrix

/// A hook that runs code while its system handles something.
enum Hook: String, Sendable {
  case binding
  case loopCallback
  case observer
  /// A task consuming ``System/states``.
  case stateStream
  /// An observer that executes a ``UserAction`` driving the system.
  case userAction
}

/// What the system is handling when the hook runs.
enum Moment: String, Sendable {
  /// A UI binding's first render, in ``System/addUIBinding(_:)``.
  case initialRender
  case step
  case effectStarted
  case effectFinished
  case effectFailed
  case effectCancelled
  case eventIgnored
}

struct HookCase: Sendable, CustomTestStringConvertible {
  let runtime: Runtime
  let hook: Hook
  let moment: Moment

  var testDescription: String { "\(hook.rawValue) at \(moment.rawValue) on \(runtime.rawValue)" }

  private static let observerMoments: [Moment] = [
    .step, .effectStarted, .effectFinished, .effectFailed, .effectCancelled, .eventIgnored,
  ]

  /// Every hook at every moment it runs at, on the runtimes that have it.
  static let sending: [HookCase] =
    [
      HookCase(runtime: .main, hook: .binding, moment: .initialRender),
      HookCase(runtime: .main, hook: .binding, moment: .step),
    ]
    + Runtime.allCases.flatMap { runtime in
      [
        HookCase(runtime: runtime, hook: .loopCallback, moment: .step),
        HookCase(runtime: runtime, hook: .stateStream, moment: .step),
      ] + observerMoments.map { HookCase(runtime: runtime, hook: .observer, moment: $0) }
    }
    + observerMoments.map { HookCase(runtime: .main, hook: .userAction, moment: $0) }

  /// The hooks that can stop their system (a user action only sends).
  static let stopping: [HookCase] = sending.filter { $0.hook != .userAction }
}

@Suite(.timeLimit(.minutes(10)))
struct HookReentrancyTests {
  typealias Strings = Subject<[String], String, CounterError, EmptyContext>
  typealias StringsLog = Recorder<SystemActivity<[String], String, CounterError>>
  typealias StringsFeedback = Feedback<[String], String, CounterError, EmptyContext>

  /// Feedback where `moment` comes once the test triggers it: `forever` runs from creation,
  /// `work` makes the moment, `follow` starts after `work` in the same reconciliation.
  static func feedback(for moment: Moment, hold: Hold) -> [StringsFeedback] {
    let forever = StringsFeedback.react(
      request: { _ in "forever" },
      effect: .stream { _, _, _ in await suspendUntilCancelled() }
    )
    let follow = StringsFeedback.react(
      request: { $0.contains("go") ? "follow" : nil },
      effect: .stream { _, _, _ in await suspendUntilCancelled() }
    )
    let work: StringsFeedback
    switch moment {
    case .initialRender, .step, .effectStarted:
      work = .react(
        request: { $0.contains("go") ? "work" : nil },
        effect: .stream { _, _, _ in await suspendUntilCancelled() }
      )
    case .effectFinished:
      work = .react(
        request: { $0.contains("go") ? "work" : nil }, effect: .run { _, _ in "worked" })
    case .effectFailed:
      work = .react(
        request: { $0.contains("go") ? "work" : nil },
        effect: .run { _, _ throws(CounterError) in throw .generic }
      )
    case .effectCancelled:
      work = .react(
        request: { $0.last == "go" ? "work" : nil },
        effect: .stream { _, _, _ in await suspendUntilCancelled() }
      )
    case .eventIgnored:
      // Its result comes after it was cancelled, so it is ignored as stale.
      work = .react(
        request: { $0.last == "go" ? "work" : nil },
        effect: .run { _, _ in
          await hold.wait()
          return "stale"
        }
      )
    }
    return [forever, work, follow]
  }

  /// Sends the events that bring `moment` about.
  static func trigger(_ moment: Moment, on subject: Strings, hold: Hold) async {
    switch moment {
    case .initialRender:
      return
    case .step, .effectStarted, .effectFinished, .effectFailed:
      await subject.send("go")
    case .effectCancelled:
      await subject.send("go")
      await subject.send("cancel")
    case .eventIgnored:
      await subject.send("go")
      await hold.entered.wait(untilAtLeast: 1)
      await subject.send("cancel")
      hold.resume()
    }
  }

  static func isMoment(_ moment: Moment, _ activity: Strings.Activity) -> Bool {
    switch (moment, activity) {
    case (.step, .step(let event, _, _)): event == "go"
    case (.effectStarted, .effectStarted(let request)): request.hasValue("work")
    case (.effectFinished, .effectFinished(let request)): request.hasValue("work")
    case (.effectFailed, .effectFailed(let request, _)): request.hasValue("work")
    case (.effectCancelled, .effectCancelled(let request)): request.hasValue("work")
    case (.eventIgnored, .eventIgnored(let event, let reason)):
      event == "stale" && reason == .cancelledEffect
    default: false
    }
  }

  static func isMoment(_ moment: Moment, _ state: [String]) -> Bool {
    moment == .initialRender ? state.isEmpty : state == ["go"]
  }

  /// Installs `hook` so that it calls `act` once, when `moment` comes; a state stream consumer
  /// is not a hook that runs inside the system, so it acts through `consume` instead.
  static func install(
    _ hookCase: HookCase,
    on subject: Strings,
    act: @escaping @Sendable (Control<String>) -> Void,
    consume: @escaping @Sendable () async -> Void
  ) async {
    let once = Once()
    let moment = hookCase.moment
    switch hookCase.hook {
    case .binding:
      await subject.addUIBinding { state, control in
        if isMoment(moment, state), once.claim() { act(control) }
      }
    case .loopCallback:
      await subject.addLoopCallback { state, control in
        if isMoment(moment, state), once.claim() { act(control) }
      }
    case .observer, .userAction:
      await subject.addObserver { activity, control in
        if isMoment(moment, activity), once.claim() { act(control) }
      }
    case .stateStream:
      await subject.consumeStates { state in
        guard isMoment(moment, state), once.claim() else { return false }
        await consume()
        return true
      }
    }
  }

  // MARK: A hook that sends

  static func expectedSteps(afterSendingAt moment: Moment) -> [String] {
    switch moment {
    case .initialRender: ["hook"]
    case .step, .effectStarted, .effectFailed: ["go", "hook"]
    case .effectFinished: ["go", "worked", "hook"]
    case .effectCancelled, .eventIgnored: ["go", "cancel", "hook"]
    }
  }

  @Test(arguments: HookCase.sending)
  func anEventAHookSendsIsQueuedBehindTheCurrentStepAndNothingIsLost(_ hookCase: HookCase) async {
    let hold = Hold()
    let nesting = Nesting()
    let action = UserAction<[String], String, CounterError, EmptyContext>(trigger: "hook")
    let subject = await Strings.make(
      hookCase.runtime, initialState: [], context: EmptyContext(),
      reduce: { state, event in
        nesting.reduced()
        state.append(event)
      },
      userActions: [action],
      feedback: { Self.feedback(for: hookCase.moment, hold: hold) }
    )
    let log = StringsLog()
    await subject.record(into: log)
    let isUserAction = hookCase.hook == .userAction
    await Self.install(
      hookCase, on: subject,
      act: { control in
        nesting.inHook {
          if isUserAction {
            MainActor.assumeIsolated { action.execute() }
          } else {
            control.send("hook")
          }
        }
      },
      consume: { await subject.send("hook") }
    )
    await Self.trigger(hookCase.moment, on: subject, hold: hold)
    await log.wait { if case .step("hook", _, _) = $0 { true } else { false } }

    #expect(await subject.state == Self.expectedSteps(afterSendingAt: hookCase.moment))
    #expect(nesting.nestedSteps == 0, "an event was reduced inside the hook that sent it")
    let expectedIgnored = hookCase.moment == .eventIgnored ? ["stale"] : []
    #expect(log.ignored.map(\.0) == expectedIgnored)
    #expect(log.ignored.allSatisfy { $0.1 == .cancelledEffect })
    await subject.stop()
  }

  // MARK: A hook that stops

  static func expectedSteps(afterStoppingAt moment: Moment) -> [String] {
    switch moment {
    case .initialRender: []
    case .step, .effectStarted, .effectFinished, .effectFailed: ["go"]
    case .effectCancelled, .eventIgnored: ["go", "cancel"]
    }
  }

  /// The requests whose effects are live when the hook stops the system.
  static func expectedCancelledByStop(_ hookCase: HookCase) -> [String] {
    switch (hookCase.hook, hookCase.moment) {
    // A consumer of the states acts after the step that made `work` and `follow` start.
    case (.stateStream, _): ["follow", "forever", "work"]
    case (_, .initialRender), (_, .step): ["forever"]
    case (_, .effectStarted): ["forever", "work"]
    default: ["follow", "forever"]
    }
  }

  /// The events reported ignored because of the stop, in order.
  static func expectedIgnoredByStop(_ hookCase: HookCase) -> [String] {
    switch (hookCase.hook, hookCase.moment) {
    case (.stateStream, _): ["late"]
    // The finished effect's event was queued before the hook ran.
    case (_, .effectFinished): ["worked", "queued", "late"]
    default: ["queued", "late"]
    }
  }

  @Test(arguments: HookCase.stopping)
  func aStopFromAHookTakesEffectAtOnce(_ hookCase: HookCase) async {
    let hold = Hold()
    let subject = await Strings.make(
      hookCase.runtime, initialState: [], context: EmptyContext(),
      reduce: { $0.append($1) },
      feedback: { Self.feedback(for: hookCase.moment, hold: hold) }
    )
    let log = StringsLog()
    await subject.record(into: log)
    let mark = Mark()
    await Self.install(
      hookCase, on: subject,
      act: { control in
        mark.set(log.activities.count)
        control.send("queued")
        control.stop()
        control.send("late")
      },
      consume: {
        // Wait for the step the consumer saw to be handled, then stop from outside.
        _ = await subject.state
        mark.set(log.activities.count)
        await subject.stop()
        await subject.send("late")
      }
    )
    await Self.trigger(hookCase.moment, on: subject, hold: hold)
    await log.wait { if case .eventIgnored("late", .stopped) = $0 { true } else { false } }
    _ = await subject.state

    #expect(await subject.isStopped)
    #expect(await subject.state == Self.expectedSteps(afterStoppingAt: hookCase.moment))
    let activities = log.activities
    let afterStop = activities[(mark.current ?? activities.count)...]
    let startedOrEnded = afterStop.filter { activity in
      switch activity {
      case .effectStarted, .effectFinished, .effectFailed: true
      default: false
      }
    }
    #expect(startedOrEnded.isEmpty, "after stop: \(startedOrEnded)")
    let cancelledByStop = afterStop.compactMap { activity -> String? in
      if case .effectCancelled(let request) = activity { "\(request)" } else { nil }
    }
    #expect(cancelledByStop.sorted() == Self.expectedCancelledByStop(hookCase))
    let cancelledTwice = Dictionary(grouping: log.cancelled.map(\.description), by: { $0 })
      .filter { $0.value.count > 1 }.keys
    #expect(cancelledTwice.isEmpty, "cancelled more than once: \(cancelledTwice.sorted())")
    let ignoredByStop = afterStop.compactMap { activity -> String? in
      if case .eventIgnored(let event, .stopped) = activity { event } else { nil }
    }
    #expect(ignoredByStop == Self.expectedIgnoredByStop(hookCase))
    #expect(log.ignored.allSatisfy { $0.1 == .stopped || $0.0 == "stale" })
  }

  // MARK: Defect 1 — an observer's send while an effect finishes

  @Test(arguments: Runtime.allCases)
  func anObserversSendWhenAnEffectFinishesIsQueuedBehindTheEffectsOwnEvent(
    _ runtime: Runtime
  ) async {
    let subject = await Strings.make(
      runtime, initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: {
        [
          .react(
            request: { $0.contains("load") && !$0.contains("reset") ? "load" : nil },
            effect: .run { _, _ in "loaded" })
        ]
      }
    )
    let log = StringsLog()
    await subject.record(into: log)
    await subject.addObserver { activity, control in
      if case .effectFinished = activity { control.send("reset") }
    }
    await subject.send("load")
    await log.wait { if case .step("reset", _, _) = $0 { true } else { false } }

    #expect(await subject.state == ["load", "loaded", "reset"])
    #expect(log.ignored.isEmpty)
    #expect(log.cancelled.isEmpty)
  }

  // MARK: Defect 2 — stop from an observer during a reconciliation

  enum RequestForm: String, CaseIterable, Sendable {
    case single
    case set
    case keyed
  }

  static func sixRequests(
    _ form: RequestForm
  ) -> [Feedback<Int, Int, Never, EmptyContext>] {
    switch form {
    case .single:
      (0..<6).map { index in
        .react(
          request: { $0 == 1 ? index : nil },
          effect: .stream { _, _, _ in await suspendUntilCancelled() })
      }
    case .set:
      [
        .react(
          requests: { $0 == 1 ? Set(0..<6) : [] },
          effect: .stream { _, _, _ in await suspendUntilCancelled() })
      ]
    case .keyed:
      [
        .react(
          keyedRequests: { state -> [Int: String] in
            state == 1
              ? Dictionary(uniqueKeysWithValues: (0..<6).map { ($0, "request \($0)") }) : [:]
          },
          effect: .stream { _, _, _ in await suspendUntilCancelled() })
      ]
    }
  }

  @Test(arguments: Runtime.allCases, RequestForm.allCases)
  func aStopFromAnObserverAsAnEffectStartsStartsNoOtherEffect(
    _ runtime: Runtime, _ form: RequestForm
  ) async {
    let subject = await Subject<Int, Int, Never, EmptyContext>.make(
      runtime, initialState: 0, context: EmptyContext(), reduce: { $0 += $1 },
      feedback: { Self.sixRequests(form) }
    )
    let log = Recorder<SystemActivity<Int, Int, Never>>()
    await subject.record(into: log)
    await subject.addObserver { activity, control in
      if case .effectStarted = activity { control.stop() }
    }
    await subject.send(1)
    _ = await subject.state

    #expect(log.started.count == 1)
    #expect(log.cancelled == log.started)
    let kinds = log.activities.map { activity in
      switch activity {
      case .step: "step"
      case .effectStarted: "started"
      case .effectCancelled: "cancelled"
      case .effectFinished: "finished"
      case .effectFailed: "failed"
      case .eventIgnored: "ignored"
      }
    }
    #expect(kinds == ["step", "started", "cancelled"])
  }

  // MARK: Defect 3 — an inline effect stopped as it starts

  @Test(arguments: Runtime.allCases)
  func anInlineEffectStoppedAsItStartsNeverFinishesAndItsEventIsReportedIgnored(
    _ runtime: Runtime
  ) async {
    let subject = await Strings.make(
      runtime, initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: {
        [.react(request: { $0 == ["go"] ? "inline" : nil }, effects: { _ in .pure("done") })]
      }
    )
    let log = StringsLog()
    await subject.record(into: log)
    let mark = Mark()
    await subject.addObserver { activity, control in
      if case .effectStarted = activity {
        mark.set(log.activities.count)
        control.stop()
      }
    }
    await subject.send("go")
    _ = await subject.state

    #expect(await subject.state == ["go"])
    let afterStop = log.activities[(mark.current ?? 0)...]
    let finished = afterStop.filter { if case .effectFinished = $0 { true } else { false } }
    #expect(finished.isEmpty, "an effect was reported finished after stop")
    #expect(log.ignored.map(\.0) == ["done"])
    #expect(log.ignored.map(\.1) == [.cancelledEffect])
    #expect(log.cancelled.map(\.description) == ["inline"])
  }

  // MARK: Defect 8 — a stream whose last event clears its own request

  @Test(arguments: Runtime.allCases)
  func aStreamWhoseLastEventClearsItsOwnRequestIsCancelledEveryRun(_ runtime: Runtime) async {
    for _ in 0..<20 {
      let subject = await Strings.make(
        runtime, initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
        feedback: {
          [
            .react(
              request: { $0.contains("go") && !$0.contains("done") ? "stream" : nil },
              effect: .stream { _, _, send in
                await send("progress")
                await send("done")
              })
          ]
        }
      )
      let log = StringsLog()
      await subject.record(into: log)
      await subject.send("go")
      await log.wait { if case .step("done", _, _) = $0 { true } else { false } }
      _ = await subject.state

      #expect(await subject.state == ["go", "progress", "done"])
      #expect(log.cancelled.map(\.description) == ["stream"])
      let finished = log.activities.filter { if case .effectFinished = $0 { true } else { false } }
      #expect(finished.isEmpty)
      guard log.cancelled.count == 1 else { break }
    }
  }

  // MARK: Defects 11 and 12 — a binding that sends on its first render

  @MainActor
  @Test func aBindingThatSendsOnItsFirstRenderAtCreationRendersTheInitialStateFirst() {
    let load = UserAction<Int, Int, Never, EmptyContext>(trigger: 1000)
    var renders: [Int] = []
    var depth = 0
    var deepest = 0
    var hasSent = false
    let system = System<Int, Int, Never, EmptyContext>.pure(
      initialState: 0, context: EmptyContext(), reducer: { $0 + $1 },
      uiBindings: [
        { state in
          depth += 1
          deepest = max(deepest, depth)
          defer { depth -= 1 }
          if !hasSent {
            hasSent = true
            load.execute()
          }
          renders.append(state)
        }
      ],
      userActions: [load], feedback: []
    )
    // Queued during the first render, reduced right after it, before `pure` returns.
    #expect(system.state == 1000)
    #expect(renders == [0, 1000])
    #expect(deepest == 1)
    system.stop()
  }

  @MainActor
  @Test func aBindingThatSendsOnItsFirstRenderInAddUIBindingRendersTheCurrentStateFirst() {
    let system = System<Int, Int, Never, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 += $1 })
    var renders: [Int] = []
    var depth = 0
    var deepest = 0
    var hasSent = false
    system.addUIBinding { [unowned system] state in
      depth += 1
      deepest = max(deepest, depth)
      defer { depth -= 1 }
      if !hasSent {
        hasSent = true
        system.send(1000)
      }
      renders.append(state)
    }
    // Queued during the first render, reduced right after it, before `addUIBinding` returns.
    #expect(system.state == 1000)
    #expect(renders == [0, 1000])
    #expect(deepest == 1)
  }
}

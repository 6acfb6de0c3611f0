import ArchitectureKit
import ArchitectureKitTestSupport
import Foundation
import TestDoubles
import Testing

/// Whatever the feedback does, a system gives its thread back.
///
/// Effects that never suspend run inline up to a budget per drain, and past it the loop goes on in later turns, step by step,
/// rendered and stoppable (Loop's, ReactiveFeedback's and CombineFeedback's "reducer with one
/// feedback loop"). Listeners added at any moment see every later state once, and a child
/// forgets each effect that ended.
@MainActor
@Suite(.timeLimit(.minutes(5)))
struct LivenessTests {
  /// How many effects one drain runs inline.
  static let budget = SystemCore<Int, Int, Never, EmptyContext>.inlineBudget

  /// The feedback of the peers' endless loop: every state is a request, whose effect answers
  /// `_a` without suspending.
  enum EndlessForm: String, CaseIterable, Sendable {
    /// `react(request:effect: .run)`: an `async` effect that never suspends.
    case run
    /// The seed's form with `AsyncResult.pure`: an outcome known without running anything.
    case pure

    nonisolated func feedback() -> Feedback<String, String, Never, EmptyContext> {
      switch self {
      case .run: .react(request: { $0 }, effect: .run { _, _ in "_a" })
      case .pure: .react(request: { $0 }, effects: { _ in .pure("_a") })
      }
    }
  }

  /// The states of the endless loop, from the initial one (`initial`, `initial_a`, …).
  nonisolated static func endlessStates(_ count: Int, from start: Int = 0) -> [String] {
    (start..<start + count).map { "initial" + String(repeating: "_a", count: $0) }
  }

  /// Lets the main actor run other jobs until `condition` holds.
  func yield(until condition: () -> Bool) async {
    while !condition() { await Task.yield() }
  }

  @Test(arguments: EndlessForm.allCases)
  func anEndlessChainOfImmediateEffectsRunsStepByStepOnASystem(_ form: EndlessForm) async {
    var rendered: [String] = []
    let system = System<String, String, Never, EmptyContext>.pure(
      initialState: "initial", context: EmptyContext(), reducer: { $0 + $1 },
      uiBindings: [{ rendered.append($0) }], userActions: [], feedback: [form.feedback()])
    // The creation returned: it ran the budget inline, no more.
    #expect(Array(rendered.prefix(4)) == Self.endlessStates(4))
    #expect(rendered.count <= Self.budget + 1)
    // The loop goes on in later turns of the main actor, which this test shares with it.
    await yield { rendered.count > 3 * Self.budget }
    system.stop()
    let stoppedAt = rendered.count
    for _ in 0..<10 { await Task.yield() }
    #expect(rendered.count == stoppedAt)
    #expect(rendered == Self.endlessStates(stoppedAt))
    #expect(system.runningRequests.isEmpty)
  }

  @Test(arguments: EndlessForm.allCases)
  func anEndlessChainOfImmediateEffectsRunsStepByStepOnABackgroundSystem(
    _ form: EndlessForm
  ) async {
    let steps = Recorder<Int>()
    let system = await Self.countingBackgroundSystem(form, recordingStepsIn: steps)
    // A stream made while the loop runs starts with the state of that moment, then has every
    // later state, once, in order.
    var states = await system.states.makeAsyncIterator()
    var streamed: [Int] = []
    // A few are enough: the loop runs at full speed meanwhile, on the cooperative pool the
    // rest of the suite shares.
    while streamed.count < 8, let state = await states.next() {
      streamed.append(state)
    }
    await system.stop()
    let stoppedAt = steps.values.count
    for _ in 0..<10 { await Task.yield() }
    #expect(steps.values.count == stoppedAt)
    #expect(await system.state == stoppedAt)
    #expect(steps.values == Array(1...stoppedAt))
    #expect(streamed == Array(streamed[0]..<streamed[0] + streamed.count))
  }

  /// A background system whose endless loop counts up from 0, with an observer that records
  /// each step's state from its creation on.
  nonisolated static func countingBackgroundSystem(
    _ form: EndlessForm, recordingStepsIn steps: Recorder<Int>
  ) async -> BackgroundSystem<Int, Int, Never, EmptyContext> {
    let feedback: Feedback<Int, Int, Never, EmptyContext> =
      switch form {
      case .run: .react(request: { $0 }, effect: .run { _, _ in 1 })
      case .pure: .react(request: { $0 }, effects: { _ in .pure(1) })
      }
    return await BackgroundSystem(
      initialState: 0, context: EmptyContext(),
      feature: Feature(reduce: { $0 += $1 }, feedback: [feedback]),
      observers: [
        { activity in
          if case .step(_, _, let current) = activity { steps.record(current) }
        }
      ])
  }

  @Test(arguments: EndlessForm.allCases)
  func anEndlessChainOfImmediateEffectsRunsStepByStepInATestSystem(_ form: EndlessForm) async {
    let system = TestSystem(
      initialState: "initial", context: EmptyContext(), reducer: { $0 + $1 },
      feedback: [form.feedback()])
    for state in Self.endlessStates(3) {
      system.expectStarted(state)
      system.run(state)
      await system.receive("_a") { $0 = state + "_a" }
    }
    system.expectStarted(Self.endlessStates(4)[3])
    system.exhaustivity = .off
    await system.finish()
  }

  /// Two feedbacks whose effects start in the same step and never suspend: their events come
  /// in feedback order, inline and in the later turns alike.
  @Test func twoImmediateFeedbacksStayInFeedbackOrderWithinTheBudgetAndBeyondIt() async {
    let system = System<[String], String, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(request: { $0.count / 2 }, effect: .run { _, _ in "a" }),
        .react(request: { $0.count / 2 }, effect: .run { _, _ in "b" }),
      ])
    #expect(system.state.count <= 2 * Self.budget)
    await yield { system.state.count > 4 * Self.budget }
    system.stop()
    let log = system.state
    #expect(log == (0..<log.count).map { $0 % 2 == 0 ? "a" : "b" })
  }

  /// A system whose stream counts 0, 1, 2, … into the state, sending without ever suspending,
  /// while `isRunning` holds for the state.
  static func countingStream(
    while isRunning: @escaping ([Int]) -> Bool
  ) -> System<[Int], Int, Never, EmptyContext> {
    System(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { isRunning($0) ? "go" : nil },
          effect: .stream { _, _, send in
            var next = 0
            while !Task.isCancelled {
              await send(next)
              next += 1
            }
          })
      ])
  }

  /// The same on a background system, whose effects known at once (`AsyncResult.pure`) are the
  /// ones it runs inline.
  @Test func twoImmediateFeedbacksStayInFeedbackOrderOnABackgroundSystem() async {
    let system = await Self.alternatingBackgroundSystem()
    var log: [String] = []
    while log.count <= 4 * Self.budget {
      log = await system.state
    }
    await system.stop()
    log = await system.state
    #expect(log == (0..<log.count).map { $0 % 2 == 0 ? "a" : "b" })
  }

  /// A background system whose two feedbacks answer `a` and `b` at once for each pair of
  /// events.
  nonisolated static func alternatingBackgroundSystem() async -> BackgroundSystem<
    [String], String, Never, EmptyContext
  > {
    await BackgroundSystem(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(request: { $0.count / 2 }, effects: { _ in .pure("a") }),
        .react(request: { $0.count / 2 }, effects: { _ in .pure("b") }),
      ])
  }

  /// A stream that sends without ever suspending is made to hop once it has used up the
  /// budget: its events keep their order, and the thread is given back.
  @Test func aStreamThatNeverSuspendsGivesTheThreadBack() async {
    let system = Self.countingStream(while: \.isEmpty)
    #expect(system.state.count <= Self.budget)
    // The request vanished with the first event: the stream is cancelled, its later events are
    // ignored, and the main actor runs this test meanwhile.
    #expect(system.state == [0])
    #expect(system.runningRequests.isEmpty)
  }

  @Test func aStreamThatNeverSuspendsKeepsItsEventsInOrderBeyondTheBudget() async {
    let system = Self.countingStream(while: { _ in true })
    #expect(system.state.count <= Self.budget)
    await yield { system.state.count > 3 * Self.budget }
    system.stop()
    #expect(system.state == Array(0..<system.state.count))
  }

  @Test func stopEndsAnEndlessChainBetweenTurns() async {
    let system = System<Int, Int, Never, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 += $1 },
      feedback: [.react(request: { $0 }, effect: .run { _, _ in 1 })])
    let log = Recorder(observing: system)
    #expect(system.state == Self.budget)
    system.stop()
    for _ in 0..<10 { await Task.yield() }
    #expect(system.state == Self.budget)
    #expect(log.activities.filter { if case .step = $0 { true } else { false } }.isEmpty)
    #expect(log.cancelled.count == 1)
  }

  // MARK: Starting off the caller's thread

  /// A system whose one effect, for the empty state, records the thread it starts on and
  /// answers `1`.
  static func threadRecordingSystem(
    detached: Bool, threads: Recorder<UInt>
  ) -> System<[Int], Int, Never, EmptyContext> {
    let feedback = Feedback<[Int], Int, Never, EmptyContext>.react(
      request: { $0.isEmpty ? "go" : nil },
      effect: .run { _, _ in
        threads.record(currentThread())
        return 1
      })
    return System(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [detached ? feedback.startingDetached() : feedback])
  }

  @Test func aDetachedEffectRunsNoneOfItsCodeOnTheCallersThread() async {
    let threads = Recorder<UInt>()
    let system = Self.threadRecordingSystem(detached: true, threads: threads)
    // Not reduced during the creation: the effect started as a task of its own.
    #expect(system.state == [])
    let log = Recorder(observing: system)
    await log.wait { if case .step = $0 { true } else { false } }
    #expect(system.state == [1])
    #expect(threads.values.count == 1)
    #expect(threads.values.first != currentThread())
  }

  @Test func anEffectThatIsNotDetachedStartsOnTheCallersThread() {
    let threads = Recorder<UInt>()
    let system = Self.threadRecordingSystem(detached: false, threads: threads)
    #expect(system.state == [1])
    #expect(threads.values == [currentThread()])
  }

  @Test func aDetachedEffectKeepsItsPolicies() async {
    let clock = ManualClock()
    let threads = Recorder<UInt>()
    let system = System<[Int], Int, Never, ManualClock>(
      initialState: [], context: clock, reduce: { $0.append($1) },
      feedback: [
        Feedback.react(
          request: { $0.isEmpty ? "go" : nil },
          effect: .run { _, _ in
            threads.record(currentThread())
            return 1
          }
        )
        .startingDetached()
        .debounced(for: .seconds(1), clock: { $0 })
      ])
    let log = Recorder(observing: system)
    // The debounce's sleep is the detached effect's first line: it starts off this thread.
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(999))
    #expect(threads.values.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await log.wait { if case .step = $0 { true } else { false } }
    #expect(system.state == [1])
    #expect(threads.values.count == 1)
    #expect(threads.values.first != currentThread())
  }

  // MARK: Listeners added in the middle of a step

  enum Hook: String, CaseIterable, Sendable {
    case loopCallback, observer, binding
  }

  /// A state that is not `Equatable`, beside an `Int` that is.
  struct Plain: Sendable { var value: Int }

  @Test(arguments: Hook.allCases, [true, false])
  func aBindingAddedInTheMiddleOfAStepLetsTheOthersRenderIt(_ hook: Hook, equatable: Bool) {
    if equatable {
      checkAddedBinding(hook, state: 0, value: { $0 }, make: { $0 })
    } else {
      checkAddedBinding(hook, state: Plain(value: 0), value: \.value, make: Plain.init)
    }
  }

  private func checkAddedBinding<State>(
    _ hook: Hook, state initial: State, value: @escaping (State) -> Int,
    make: @escaping (Int) -> State
  ) {
    var existing: [Int] = []
    var added: [Int] = []
    let system = System<State, Int, Never, EmptyContext>(
      initialState: initial, context: EmptyContext(), reduce: { $0 = make($1) })
    system.addUIBinding { existing.append(value($0)) }
    var isAdded = false
    let add = { (state: State) in
      guard value(state) == 1, !isAdded else { return }
      isAdded = true
      system.addUIBinding { added.append(value($0)) }
    }
    switch hook {
    case .loopCallback: system.addLoopCallback(add)
    case .observer:
      system.addObserver { activity in
        if case .step(_, _, let current) = activity { add(current) }
      }
    case .binding: system.addUIBinding(add)
    }
    system.send(1)
    system.send(2)
    #expect(existing == [0, 1, 2])
    #expect(added == [1, 2])
  }

  @Test func aLoopCallbackAddedByAnotherSeesEachLaterStateOnce() {
    var added: [Int] = []
    let system = System<Int, Int, Never, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 = $1 })
    system.addLoopCallback { state in
      guard state == 1 else { return }
      system.addLoopCallback { added.append($0) }
    }
    system.send(1)
    system.send(2)
    system.send(3)
    #expect(added == [2, 3])
  }

  @Test func aLoopCallbackAddedByAnotherOnABackgroundSystemSeesEachLaterStateOnce() async {
    let added = Recorder<Int>()
    let system = await BackgroundSystem<Int, Int, Never, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 = $1 })
    await system.addCallbackAddingAnother(at: 1, recordingIn: added)
    for state in 1...3 { await system.send(state) }
    #expect(added.values == [2, 3])
    await system.stop()
  }

  // MARK: A child forgets its ended effects

  struct Child: Equatable, Identifiable, Sendable {
    var id = 1
    var count = 0
  }

  enum ChildEvent: Sendable {
    case tap
  }

  struct Parent: Equatable, Sendable {
    var scoped = Child()
    var rows = [Child()]
    var optional: Child? = Child()
  }

  enum ParentEvent: Sendable {
    case scoped(ChildEvent)
    case row(Int, ChildEvent)
    case optional(ChildEvent)
  }

  enum Composition: String, CaseIterable, Sendable {
    case scope, forEach, ifLet
  }

  nonisolated static var child: Feature<Child, ChildEvent, Never, EmptyContext> {
    Feature(
      reduce: { state, _ in state.count += 1 },
      feedback: [.react(on: { _, _ in "analytics" }, effect: .perform { _, _ in nil })])
  }

  // The census children register with exists in debug builds only.
  #if DEBUG
    @Test(arguments: Composition.allCases)
    func aChildForgetsEveryEventTriggeredEffectThatEnded(_ composition: Composition) async {
      let census = ChildEffectCensus()
      let system = ChildEffectCensus.$current.withValue(census) {
        System(
          initialState: Parent(), context: EmptyContext(),
          feature: Feature<Parent, ParentEvent, Never, EmptyContext>(reduce: { _, _ in })
            .scope(
              Self.child, state: \.scoped, event: ParentEvent.scoped,
              extract: { if case .scoped(let event) = $0 { event } else { nil } }, context: { $0 }
            )
            .forEach(
              Self.child, elements: \.rows, event: ParentEvent.row,
              extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
              context: { $0 }
            )
            .ifLet(
              Self.child, state: \.optional, event: ParentEvent.optional,
              extract: { if case .optional(let event) = $0 { event } else { nil } },
              context: { $0 }))
      }
      #expect(census.children == 3)
      let event: ParentEvent =
        switch composition {
        case .scope: .scoped(.tap)
        case .forEach: .row(1, .tap)
        case .ifLet: .optional(.tap)
        }
      let count = StressLoad.scaled(200_000)
      for index in 0..<count {
        system.send(event)
        // Other tests share the main actor.
        if index % 1_000 == 0 { await Task.yield() }
      }
      #expect(census.trackedEffects == 0)
      #expect(system.runningRequests.isEmpty)
      let counts = [
        system.state.scoped.count, system.state.rows[0].count, system.state.optional?.count,
      ]
      #expect(counts.reduce(0) { $0 + ($1 ?? 0) } == count)
    }

    @Test func aChildStillTracksTheEffectsThatRun() async {
      let census = ChildEffectCensus()
      let gate = AsyncStream.makeStream(of: Void.self)
      let system = ChildEffectCensus.$current.withValue(census) {
        System(
          initialState: Parent(), context: EmptyContext(),
          feature: Feature<Parent, ParentEvent, Never, EmptyContext>(reduce: { _, _ in })
            .scope(
              Feature(
                reduce: { state, _ in state.count += 1 },
                feedback: [
                  .react(
                    on: { _, _ in "wait" },
                    effect: .perform { _, _ in
                      for await _ in gate.stream { break }
                      return nil
                    })
                ]),
              state: \.scoped, event: ParentEvent.scoped, context: { $0 }))
      }
      system.send(.scoped(.tap))
      system.send(.scoped(.tap))
      #expect(census.trackedEffects == 2)
      system.stop()
      gate.continuation.finish()
    }
  #endif
}

/// The calling thread, as a number threads can be compared by.
nonisolated private func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

extension BackgroundSystem where State == Int {
  /// Adds a loop callback that, at state `trigger`, adds another that records every state it
  /// receives.
  fileprivate func addCallbackAddingAnother(at trigger: Int, recordingIn added: Recorder<Int>) {
    addLoopCallback { [unowned self] state in
      guard state == trigger else { return }
      // Loop callbacks run on the system's actor.
      self.assumeIsolated { system in
        _ = system.addLoopCallback { added.record($0) }
      }
    }
  }
}

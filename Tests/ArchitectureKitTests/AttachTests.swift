import ArchitectureKit
import TestDoubles
import Testing

/// `attach(_:)` on the app's runtimes: the call waits while the effects its event started run,
/// and cancelling the calling task cancels them.
@Suite(.timeLimit(.minutes(3)))
struct AttachTests {
  enum Event: Equatable, Sendable {
    case observe
    case tick
    case other
  }

  /// Waits for the task of an `attach(_:)` call to return.
  ///
  /// A runtime that never noted the end of the effects the call waits for would hang the test
  /// (and the run): past the failsafe (``awaitEnd(of:seconds:)``), the wait is cancelled, which
  /// cancels the call (a cancelled call always returns), and the test fails.
  static func awaitReturn(
    of call: Task<Void, Never>, seconds: Int = 60,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let returned = await awaitEnd(of: call, seconds: seconds)
    #expect(
      returned, "attach(_:) had not returned after \(seconds) s: its task was cancelled",
      sourceLocation: sourceLocation)
  }

  /// A stream that never ends until cancelled, and a step that starts nothing.
  static func feature(gate: Gate) -> Feature<Int, Event, Never, Void> {
    Feature(
      reduce: { count, event in if event == .tick { count += 1 } },
      feedback: [
        .react(
          on: { event, _ in event == .observe ? "observation" : nil },
          effect: .stream { _, _, send in
            await send(.tick)
            await gate.wait()
          })
      ])
  }

  @MainActor
  @Test func cancellingTheCallersTaskCancelsItsEffectsOnSystem() async {
    let gate = Gate()
    let system = System(initialState: 0, context: (), feature: Self.feature(gate: gate))
    let activities = Recorder(observing: system)
    let task = Task { await system.attach(.observe) }
    await system.send(.other, while: { $0 == 0 })
    task.cancel()
    await Self.awaitReturn(of: task)
    #expect(activities.cancelled.map(\.description) == ["observation"])
    #expect(system.state == 1)
  }

  @MainActor
  @Test func theCallReturnsWhenTheEffectsEnd() async {
    let gate = Gate()
    let system = System(initialState: 0, context: (), feature: Self.feature(gate: gate))
    let task = Task { await system.attach(.observe) }
    await system.send(.other, while: { $0 == 0 })
    gate.open()
    await Self.awaitReturn(of: task)
    #expect(system.runningRequests.isEmpty)
  }

  @MainActor
  @Test func anEventThatStartsNothingReturnsAtOnce() async {
    let system = System(initialState: 0, context: (), feature: Self.feature(gate: Gate()))
    await system.attach(.other)
    #expect(system.state == 0)
  }

  @MainActor
  @Test func stoppingTheSystemEndsTheWait() async {
    let gate = Gate()
    let system = System(initialState: 0, context: (), feature: Self.feature(gate: gate))
    let task = Task { await system.attach(.observe) }
    await system.send(.other, while: { $0 == 0 })
    system.stop()
    await Self.awaitReturn(of: task)
  }

  @Test func cancellingTheCallersTaskCancelsItsEffectsOnBackgroundSystem() async {
    let gate = Gate()
    let system = await BackgroundSystem(
      initialState: 0, context: (), feature: Self.feature(gate: gate))
    let activities = Recorder<SystemActivity<Int, Event, Never>>()
    await activities.observe(system)
    let task = Task { await system.attach(.observe) }
    await system.send(.other, while: { $0 == 0 })
    task.cancel()
    await Self.awaitReturn(of: task)
    #expect(activities.cancelled.map(\.description) == ["observation"])
  }

  @MainActor
  @Test func onlyTheEffectsOfTheEventsOwnStepAreAttached() async {
    enum Chain: Equatable, Sendable {
      case observe
      case followUp
      case tick
    }
    let gate = Gate()
    let feature = Feature<Int, Chain, Never, Void>(
      reduce: { count, event in if event == .tick { count += 1 } },
      feedback: [
        .react(
          on: { event, _ in event == .observe ? "observation" : nil },
          effect: .stream { _, _, send in
            await send(.tick)
            await gate.wait()
          }),
        // The same step also asks for a follow-up, which comes back at once and starts work of
        // its own in a later step: that work is not the attached event's.
        .react(
          on: { event, _ in event == .observe ? "ask" : nil }, effect: .run { _, _ in .followUp }),
        .react(
          on: { event, _ in event == .followUp ? "second" : nil },
          effect: .stream { _, _, _ in await gate.wait() }),
      ])
    let system = System(initialState: 0, context: (), feature: feature)
    let activities = Recorder(observing: system)
    let task = Task { await system.attach(.observe) }
    await system.send(.tick, while: { $0 < 2 })
    task.cancel()
    await Self.awaitReturn(of: task)
    #expect(activities.cancelled.map(\.description) == ["observation"])
    #expect(system.runningRequests.map { "\($0)" } == ["second"])
    system.stop()
    gate.open()
  }
}

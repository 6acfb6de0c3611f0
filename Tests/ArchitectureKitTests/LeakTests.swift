import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

/// What the leak tests' effects report: how many bodies started, saw cancellation and ended.
final class EffectCensus: Sendable {
  let entered = Tally()
  let cancelled = Tally()
  let exited = Tally()
  private let gates = Lock<[Gate]>([])

  /// An effect body that runs until its task is cancelled (or the test gives up on it).
  func blockUntilCancelled() async {
    let gate = Gate()
    gates.withLock { $0.append(gate) }
    await withTaskCancellationHandler {
      // Counted inside the handler's scope: once every body is counted, a cancellation runs
      // the handler at once, on the cancelling thread.
      entered.increment()
      await gate.wait()
    } onCancel: {
      cancelled.increment()
      gate.open()
    }
    exited.increment()
  }

  /// Ends every body still waiting, so a failing run does not hang.
  func releaseAll() {
    for gate in gates.withLock({ $0 }) { gate.open() }
  }
}

/// Requests present from the start: a one-event effect and a stream, both in flight until
/// cancelled.
struct Busy: Sendable, Equatable {
  var load = "load"
  var watch: Set<Int> = [1]
}

@Suite(.timeLimit(.minutes(10)))
struct LeakTests {
  static let systemCount = StressLoad.scaled(10_000)
  static let effectsPerSystem = 2

  static func feedback() -> [Feedback<Busy, Int, Never, EffectCensus>] {
    [
      .react(
        request: \.load,
        effect: .run { _, census in
          await census.blockUntilCancelled()
          return 0
        }),
      .react(
        requests: \.watch,
        effect: .stream { _, census, _ in await census.blockUntilCancelled() }),
    ]
  }

  /// A countdown: each state above zero asks an async effect for the next one down.
  static func countdown() -> Feedback<Int, Int, Never, EmptyContext> {
    .react(request: { $0 > 0 ? $0 : nil }, effect: .run { remaining, _ in remaining - 1 })
  }

  @MainActor
  @Test func aSystemForgetsTheTaskOfEachEffectThatEnded() async {
    let system = System(
      initialState: 0, context: EmptyContext(), reduce: { $0 = $1 }, feedback: [Self.countdown()])
    await system.send(50, while: { $0 > 0 })
    #expect(system.state == 0)
    #expect(system.tasks.count == 0)
  }

  @Test func aBackgroundSystemForgetsTheTaskOfEachEffectThatEnded() async {
    let system = await BackgroundSystem(
      initialState: 0, context: EmptyContext(), reduce: { $0 = $1 }, feedback: [Self.countdown()])
    await system.send(50, while: { $0 > 0 })
    #expect(await system.state == 0)
    #expect(system.tasks.count == 0)
  }

  @Test func tenThousandReleasedBackgroundSystemsAreFreedAndTheirEffectsCancelled() async {
    let census = EffectCensus()
    var systems: [BackgroundSystem<Busy, Int, Never, EffectCensus>] = []
    for _ in 0..<Self.systemCount {
      await systems.append(
        BackgroundSystem(
          initialState: Busy(), context: census, reduce: { _, _ in }, feedback: Self.feedback()))
    }
    let references = systems.map { WeakReference(object: $0) }
    let effects = Self.systemCount * Self.effectsPerSystem
    // Every effect is in flight before the systems go.
    await census.entered.wait(untilAtLeast: effects)
    var random = SplitMix64(seed: 10_000)
    systems.shuffle(using: &random)
    systems.removeAll()

    #expect(references.allSatisfy { $0.object == nil }, "systems kept alive")
    // Releasing a system cancels its tasks at once, so the handlers have already run.
    #expect(census.cancelled.value == effects, "effects not cancelled by deinit")
    guard census.cancelled.value == effects else { return census.releaseAll() }
    await census.exited.wait(untilAtLeast: effects)
    #expect(census.exited.value == effects)
  }

  @MainActor
  @Test func tenThousandReleasedSystemsAreFreedAndTheirEffectsCancelled() async {
    let census = EffectCensus()
    var systems = (0..<Self.systemCount).map { _ in
      System<Busy, Int, Never, EffectCensus>(
        initialState: Busy(), context: census, reduce: { _, _ in }, feedback: Self.feedback())
    }
    let references = systems.map { WeakReference(object: $0) }
    let effects = Self.systemCount * Self.effectsPerSystem
    await census.entered.wait(untilAtLeast: effects)
    var random = SplitMix64(seed: 10_000)
    systems.shuffle(using: &random)
    systems.removeAll()

    #expect(references.allSatisfy { $0.object == nil }, "systems kept alive")
    #expect(census.cancelled.value == effects, "effects not cancelled by deinit")
    guard census.cancelled.value == effects else { return census.releaseAll() }
    await census.exited.wait(untilAtLeast: effects)
    #expect(census.exited.value == effects)
  }

  @MainActor
  @Test func systemsReleasedOffTheMainActorAreFreedAndTheirEffectsCancelled() async {
    // A system's deinit is nonisolated: the last reference may go on any thread, and the
    // deinit then reads the task bag the main actor made when the effects started.
    let census = EffectCensus()
    let count = StressLoad.scaled(1_000)
    var systems = (0..<count).map { _ in
      System<Busy, Int, Never, EffectCensus>(
        initialState: Busy(), context: census, reduce: { _, _ in }, feedback: Self.feedback())
    }
    let references = systems.map { WeakReference(object: $0) }
    let effects = count * Self.effectsPerSystem
    await census.entered.wait(untilAtLeast: effects)
    let holder = Lock<[System<Busy, Int, Never, EffectCensus>]>(systems)
    systems.removeAll()
    await Task.detached {
      holder.withLock { $0.removeAll() }
    }.value

    #expect(references.allSatisfy { $0.object == nil }, "systems kept alive")
    #expect(census.cancelled.value == effects, "effects not cancelled by deinit")
    guard census.cancelled.value == effects else { return census.releaseAll() }
    await census.exited.wait(untilAtLeast: effects)
    #expect(census.exited.value == effects)
  }
}

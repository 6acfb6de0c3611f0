import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

/// The journal's ring under the sends an app makes: events from a user action, a UI binding, a
/// loop callback and an observer, and results of effects that wait on the test's own fakes.
@MainActor
struct JournalHookTests {
  /// A state of plain values: its app-sent steps are dropped by the ring without destruction,
  /// its effects' steps (whose origins name a request) with it.
  struct Tally: Equatable, Sendable, Encodable {
    var taps = 0
    var hooks = 0
    var streamed = 0
    var fetched = 0
    var grouped = 0
  }

  enum Signal: Equatable, Sendable {
    case tap, binding, callback, observer
    case streamed(Int)
    case fetched(Int)
    case grouped(Int)
  }

  static func reduce(_ tally: consuming Tally, _ signal: Signal) -> Tally {
    switch signal {
    case .tap: tally.taps += 1
    case .binding, .callback, .observer: tally.hooks += 1
    case .streamed(let value): tally.streamed += value
    case .fetched(let value): tally.fetched += value
    case .grouped(let value): tally.grouped += value
    }
    return tally
  }

  /// A backend whose every fetch waits until the test releases it.
  actor GatedBackend {
    private var waiting: [CheckedContinuation<Int, Never>] = []
    /// One value per fetch that began waiting.
    let began = Recorder<Int>()

    func fetch() async -> Int {
      await withCheckedContinuation { continuation in
        waiting.append(continuation)
        began.record(waiting.count)
      }
    }

    func release(_ value: Int) {
      waiting.removeFirst().resume(returning: value)
    }
  }

  /// Every step, whatever sent its event, is journaled once and in order.
  ///
  /// A ring of three steps that keeps states, and a journal that keeps them all, record a user
  /// action's step, a UI binding's, a loop callback's, an observer's, and the results of
  /// effects that wait on an `AsyncStream` the test yields into, on a backend actor the test
  /// releases, and on a task group of two fetches. The states they hold are those an observer
  /// saw.
  @Test func everyStepIsJournaledOnceWhateverSentItAndWhateverItsEffectWaitedOn() async throws {
    let (values, yield) = AsyncStream<Int>.makeStream()
    let backend = GatedBackend()
    let tap = UserAction<Tally, Signal, Never, Void>(trigger: .tap)
    let system = System<Tally, Signal, Never, Void>.pure(
      initialState: Tally(), context: (), reducer: Self.reduce, uiBindings: [], userActions: [tap],
      feedback: [
        .react(
          request: { $0.taps >= 1 ? 1 : nil },
          effect: .stream { _, _, send in
            for await value in values { await send(.streamed(value)) }
          }),
        .react(
          request: { $0.taps >= 2 && $0.fetched == 0 ? 2 : nil },
          effect: .run { _, _ in .fetched(await backend.fetch()) }),
        .react(
          request: { $0.taps >= 3 && $0.grouped == 0 ? 3 : nil },
          effect: .run { _, _ in
            await withTaskGroup(of: Int.self) { group in
              group.addTask { await backend.fetch() }
              group.addTask { await backend.fetch() }
              return .grouped(await group.reduce(0, +))
            }
          }),
      ])
    let ring = Journal<Tally, Signal>(capacity: 3, states: .everyStep)
    let whole = Journal<Tally, Signal>(capacity: 1_000, states: .everyStep)
    system.record(into: ring)
    system.record(into: whole)
    let seen = Recorder<Tally>()
    system.addObserver { [unowned system] activity in
      guard case .step(let signal, _, let tally) = activity else { return }
      seen.record(tally)
      if signal == .callback { system.send(.observer) }
    }
    system.addUIBinding { [unowned system] tally in
      if tally.taps == 1, tally.hooks == 0 { system.send(.binding) }
    }
    system.addLoopCallback { [unowned system] tally in
      if tally.taps == 2, tally.hooks == 1 { system.send(.callback) }
    }

    tap.execute()  // tap, then the binding's
    yield.yield(5)
    await seen.wait(count: 3)
    tap.execute()  // tap, then the loop callback's, then the observer's
    await backend.began.wait(count: 1)
    await backend.release(7)
    await seen.wait(count: 7)
    system.send(.tap)
    await backend.began.wait(count: 3)
    await backend.release(1)
    await backend.release(2)
    await seen.wait(count: 9)
    yield.yield(4)
    await seen.wait(count: 10)
    system.stop()
    yield.finish()

    #expect(system.state == Tally(taps: 3, hooks: 3, streamed: 9, fetched: 7, grouped: 3))
    let states = seen.values.map(Self.fields)
    let wholeSteps = try JournalLines(whole.lines).records.filter {
      $0["kind"] as? String == "step"
    }
    #expect(wholeSteps.compactMap { $0["step"] as? Int } == Array(1...10))
    #expect(wholeSteps.map { Self.fields($0["state"]) } == states)
    let ringLines = try JournalLines(ring.lines)
    let ringSteps = ringLines.records.filter { $0["kind"] as? String == "step" }
    #expect(ringSteps.compactMap { $0["step"] as? Int } == [8, 9, 10])
    #expect(ringSteps.map { Self.fields($0["state"]) } == Array(states.suffix(3)))
    // The base snapshot is the state before the oldest step kept: step 7's.
    #expect(ringLines.records.first?["kind"] as? String == "snapshot")
    #expect(Self.fields(ringLines.records.first?["state"]) == states[6])
  }

  /// An endless chain of immediate effects, journaled: the main actor stays alive (this test
  /// runs on it meanwhile), the ring keeps its last ten steps, consecutive, and stopping ends
  /// the chain.
  @Test func anEndlessChainOfImmediateEffectsIsJournaledWithoutHoldingTheMainActor() async throws {
    let system = System<Int, Int, Never, Void>(
      initialState: 0, context: (), reduce: { $0 += $1 },
      feedback: [.react(request: { $0 }, effect: .run { _, _ in 1 })])
    let journal = Journal<Int, Int>(capacity: 10, states: .everyStep)
    // Its creation ran the inline budget; the chain goes on in later turns of the main actor.
    let attachedAt = system.state
    system.record(into: journal)
    var turns = 0
    while system.state < attachedAt + 3_000, turns < 1_000_000 {
      await Task.yield()
      turns += 1
    }
    system.stop()
    let stoppedAt = system.state
    #expect(stoppedAt >= attachedAt + 3_000)

    let steps = try JournalLines(journal.lines).records.filter { $0["kind"] as? String == "step" }
    let numbers = steps.compactMap { $0["step"] as? Int }
    #expect(numbers.count == 10)
    #expect(numbers == Array(numbers.first.map { $0..<$0 + 10 } ?? 0..<0))
    #expect(steps.last?["state"] as? Int == stoppedAt)
  }

  /// A state's fields as the journal writes them, in the order of ``Tally``'s.
  static func fields(_ state: Any?) -> [Int] {
    let object = state as? [String: Any] ?? [:]
    return ["taps", "hooks", "streamed", "fetched", "grouped"].map { object[$0] as? Int ?? -1 }
  }

  static func fields(_ tally: Tally) -> [Int] {
    [tally.taps, tally.hooks, tally.streamed, tally.fetched, tally.grouped]
  }
}

import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

// RequestSet as a user drives it: uploads through a backend actor whose calls wait until the
// test releases them, each upload a task group of chunks, progress streamed from an
// AsyncStream the test yields into, and events sent from a loop callback, an observer and a UI
// binding in the middle of bursts. A cancelled upload's result never reaches the state, and
// every wait here ends, with what it waited for or at the suite's time limit.
//
// The limit is a failsafe, not a speed bound: in a full run under the thread sanitizer, every
// main-actor test's hops wait behind the others', and these tests took over two minutes.

@Suite(.timeLimit(.minutes(10)))
@MainActor
struct RequestSetUserScenarioTests {
  /// A backend whose every chunk upload waits until the test releases it, or its task is
  /// cancelled; it answers whether the chunk went through.
  actor Backend {
    private var gates: [Int: Gate] = [:]
    /// The chunks whose upload started, in order.
    nonisolated let started = Recorder<Int>()

    private func gate(_ chunk: Int) -> Gate {
      if let gate = gates[chunk] { return gate }
      let gate = Gate()
      gates[chunk] = gate
      return gate
    }

    func upload(_ chunk: Int) async -> Bool {
      started.record(chunk)
      return await gate(chunk).opens()
    }

    func release(_ chunks: Int...) {
      for chunk in chunks { gate(chunk).open() }
    }
  }

  struct Context: Sendable {
    let backend: Backend
    let progress: @Sendable (Int) -> AsyncStream<Int>
  }

  struct State: Equatable, Sendable {
    var pending: RequestSet<Int> = []
    var uploaded: [Int] = []
    var progress: [Int: Int] = [:]
  }

  enum Event: Equatable, Sendable {
    case chose([Int])
    case cancel(Int)
    case uploaded(Int, Bool)
    case progress(Int, Int)
  }

  nonisolated static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .chose(let files): for file in files { state.pending.insert(file) }
    case .cancel(let file): state.pending.remove(file)
    case .uploaded(let file, _):
      state.pending.remove(file)
      state.uploaded.append(file)
    case .progress(let file, let percent): state.progress[file] = percent
    }
  }

  /// Each pending file uploads as two chunks in a task group, and streams its progress.
  nonisolated static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(
          requests: \.pending,
          effect: .run { file, context in
            let ok = await withTaskGroup(of: Bool.self) { group in
              for chunk in 0..<2 {
                group.addTask { await context.backend.upload(file * 10 + chunk) }
              }
              return await group.reduce(true) { $0 && $1 }
            }
            return .uploaded(file, ok)
          }),
        .react(
          requests: \.pending,
          effect: .stream { file, context, send in
            for await percent in context.progress(file) { await send(.progress(file, percent)) }
          }),
      ])
  }

  @Test func uploadsStartedAndCancelledFromEveryHookEndWithExactlyTheirResults() async {
    let backend = Backend()
    var progress: [Int: AsyncStream<Int>.Continuation] = [:]
    var streams: [Int: AsyncStream<Int>] = [:]
    for file in 1...4 {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      streams[file] = stream
      progress[file] = continuation
    }
    let handedOut = Lock(streams)
    let system = System(
      initialState: State(),
      context: Context(
        backend: backend,
        progress: { file in
          handedOut.withLock { $0.removeValue(forKey: file) } ?? AsyncStream { $0.finish() }
        }),
      feature: Self.feature)
    let states = Recorder<State>()
    let activities = Recorder(observing: system)
    // The observer cancels file 2 as soon as its upload starts.
    system.addObserver { [unowned system] activity in
      if case .effectStarted(let request) = activity, request.feedbackIndex == 0,
        request.value as? Int == 2
      {
        system.send(.cancel(2))
      }
    }
    // The loop callback chooses file 3 once file 1 is uploaded (once: a hook that sent on
    // every step would make every step send another, without end).
    var choseThree = false
    system.addLoopCallback { [unowned system] state in
      states.record(state)
      if state.uploaded == [1], !choseThree {
        choseThree = true
        system.send(.chose([3]))
      }
    }
    // The binding chooses file 4 when file 1 is half done.
    system.addUIBinding { [unowned system] state in
      if state.progress[1] == 50, !state.pending.contains(4), !state.uploaded.contains(4) {
        system.send(.chose([4]))
      }
    }

    system.send(.chose([1, 2]))
    #expect(system.state.pending == [1])
    await backend.started.wait(count: 2) { $0 == 10 || $0 == 11 }
    progress[1]?.yield(50)
    await states.wait { $0.pending.contains(4) }
    await backend.started.wait(count: 2) { $0 == 40 || $0 == 41 }
    await backend.release(10, 11)
    await states.wait { $0.pending.contains(3) }
    await backend.release(30, 31, 40, 41)
    await states.wait { $0.uploaded.count == 3 && $0.pending.isEmpty }

    #expect(system.state.uploaded.sorted() == [1, 3, 4])
    #expect(system.state.progress == [1: 50])
    #expect(system.runningRequests.isEmpty)
    let started = activities.started.map(\.description)
    let cancelled = activities.cancelled.map(\.description)
    let finished = activities.finished.map(\.description)
    // File 2 started both its upload and its stream, and the cancel event ended both.
    #expect(started.filter { $0 == "2" }.count == 2)
    #expect(cancelled.filter { $0 == "2" }.count == 2)
    // The other uploads finished; their streams were cancelled when their files left the set.
    #expect(finished.filter { ["1", "3", "4"].contains($0) }.count == 3)
    #expect(cancelled.filter { ["1", "3", "4"].contains($0) }.count == 3)
    #expect(!system.state.uploaded.contains(2))
    system.stop()
    for continuation in progress.values { continuation.finish() }
  }

  /// Each result inserts the next element: an endless chain of immediate effects.
  ///
  /// A send runs the inline budget and returns; the chain goes on in later turns of the main
  /// actor, one budget a turn, and work the test puts on the main actor meanwhile runs between
  /// them; a stop ends it.
  @Test func anEndlessChainThroughARequestSetLeavesTheMainActorFree() async {
    let budget = SystemCore<Int, Int, Never, EmptyContext>.inlineBudget
    var steps = 0
    let system = System<RequestSet<Int>, Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(),
      feature: Feature(
        reduce: { pending, done in
          pending.remove(done)
          pending.insert(done + 1)
        },
        feedback: [.react(requests: \.self, effect: .asyncResult { .pure($0) })]))
    system.addLoopCallback { _ in steps += 1 }
    system.send(0)
    let stepsAfterSend = steps
    #expect(stepsAfterSend == budget + 1)
    // Jobs of one priority run on the main actor in the order they were enqueued, and the chain
    // keeps one turn enqueued at a time. Each look is a job on the main actor that enqueues the
    // next look there: it runs after the turn enqueued before it, so each look sees exactly one
    // more turn. (The test's own task is no probe: it resumes from an await through the global
    // executor, and the chain may run several turns while that hop waits for a thread.)
    let looks: [Int] = await withCheckedContinuation { done in
      MainActorLooks(until: { steps >= 5 * budget }, done: { done.resume(returning: $0) })
        .look(at: { steps })
    }
    #expect(looks.count == 4)
    for (before, after) in zip([stepsAfterSend] + looks, looks) {
      #expect(after - before == budget, "Each look saw one turn of the chain.")
    }
    system.stop()
    let stoppedAt = steps
    for _ in 0..<10 { _ = await Task { @MainActor in }.value }
    #expect(steps == stoppedAt)
    // Step k reduced event k - 1, which left k pending.
    #expect(system.state == [stoppedAt])
    #expect(system.runningRequests.isEmpty)
  }
}

/// Looks at a value from jobs on the main actor, each enqueued by the one before, until a
/// condition holds or after 100 looks; then hands over what each look saw.
@MainActor
final class MainActorLooks {
  private let until: () -> Bool
  private let done: ([Int]) -> Void
  private var seen: [Int] = []

  init(until: @escaping () -> Bool, done: @escaping ([Int]) -> Void) {
    self.until = until
    self.done = done
  }

  /// Enqueues a look at `value` on the main actor.
  func look(at value: @escaping () -> Int) {
    Task { @MainActor in
      seen.append(value())
      // A chain that stopped going on would leave the condition false: the count ends the wait.
      if until() || seen.count == 100 { done(seen) } else { look(at: value) }
    }
  }
}

import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

@Suite(.timeLimit(.minutes(5)))
struct CancellationStormTests {
  /// Even requests run a one-event effect (its result comes back as the task's value), odd
  /// ones a stream (its result comes back through `send`), so both delivery paths are hit.
  static func feedback() -> [Feedback<StormState, StormEvent, Never, StormProbe>] {
    [
      .react(
        request: { $0.request.flatMap { $0.isMultiple(of: 2) ? $0 : nil } },
        effect: .run { request, probe in
          await probe.body(request)
          return .result(request)
        }),
      .react(
        request: { $0.request.flatMap { $0.isMultiple(of: 2) ? nil : $0 } },
        effect: .stream { request, probe, send in
          await probe.body(request)
          await send(.result(request))
        }),
    ]
  }

  @Test(arguments: [0x5EED_0001 as UInt64])
  func aHundredThousandRequestChangesDeliverNoStaleEventAndLeaveNoEffectRunning(
    seed: UInt64
  ) async {
    let changes = StressLoad.scaled(100_000)
    let probe = StormProbe()
    let observer = StormObserver()
    let system = await BackgroundSystem<StormState, StormEvent, Never, StormProbe>(
      initialState: StormState(), context: probe, reduce: StormState.reduce,
      feedback: Self.feedback()
    )
    await system.addObserver { activity in observer.record(activity, probe: probe) }

    var random = SplitMix64(seed: seed)
    var current: Int?
    var lastRequest = 0
    var expectedStarts: [Int] = []
    var recent: [Int] = []
    for _ in 0..<changes {
      // Effects finish at random moments: the current one right before the next change, so
      // its result races the change on another thread; or an older one, long cancelled.
      if let current, random.chance(30) {
        probe.release(current)
      } else if let older = recent.randomElement(using: &random), random.chance(15) {
        probe.release(older)
      }
      let next: Int?
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<10: next = nil
      case 10..<20: next = current  // An equal request keeps its effect.
      default:
        lastRequest += 1
        next = lastRequest
        expectedStarts.append(lastRequest)
        recent.append(lastRequest)
        if recent.count > 64 { recent.removeFirst() }
      }
      await system.send(.change(next))
      if let current, next != current { probe.noteSuperseded(current) }
      current = next
    }
    await system.stop()
    if let current { probe.noteSuperseded(current) }
    probe.releaseAll()

    let started = observer.started
    await probe.exited.wait(untilAtLeast: started.count)
    await observer.resultsAccountedFor.wait(untilAtLeast: started.count)

    let state = await system.state
    #expect(state.stale == 0, "stale results were reduced")
    // Each new request starts once; an equal one is kept. (Compared by position: the lists
    // hold some 80,000 requests, too many to print.)
    let firstDifference =
      zip(started, expectedStarts).enumerated().first { $1.0 != $1.1 }?.offset
      ?? (started.count == expectedStarts.count ? nil : min(started.count, expectedStarts.count))
    if let firstDifference {
      let differing = Array(started.dropFirst(firstDifference).prefix(5))
      Issue.record("Starts differ from position \(firstDifference): \(differing).")
    }
    #expect(probe.timelines.count == started.count)
    #expect(probe.exited.value == started.count, "effects still running after stop()")
    #expect(observer.failures == 0)
    // The storm did produce late results, and the system dropped them.
    #expect(observer.staleIgnored > 0)

    let timelines = probe.timelines
    // Every effect the model says was superseded, and every effect the system reports as
    // cancelled, was cancelled at once: its task saw it before the system moved on.
    let unaware = timelines.filter { _, timeline in
      [timeline.superseded, timeline.cancelled].contains { moment in
        moment.map { !timeline.sawCancellation(atOnceBy: $0) } ?? false
      }
    }
    #expect(
      unaware.count == 0,
      "effects not cancelled at once, among them \(unaware.keys.sorted().prefix(10))")
    // Only the test's gates may end an effect that the system did not cancel: every other one
    // ended because its request changed or the system stopped.
    let orphaned = timelines.filter { _, timeline in
      timeline.released == nil && timeline.sawCancellation == nil
    }
    #expect(
      orphaned.count == 0,
      "effects neither finished nor cancelled, among them \(orphaned.keys.sorted().prefix(10))")
  }
}

import ArchitectureKit
import TestDoubles
import Testing

// DESIGN §3 and §5, "One runtime": the core and the three runtimes built on it behave exactly
// like a naïve reference (ReferenceSystem.swift) over the same seeded random sequences of
// sends (with follow-ups a loop callback sends during the step), effect results (live and
// stale), stream events, failures, and stops from outside and from an observer on any kind of
// activity. The drivers are in RuntimeDrivers.swift.
//
// DESIGN §8 and issue 15, "forEach": the feature has children composed with `forEach`, added,
// removed, moved and changed at random, each with requests of its own, and events for children
// present and missing. The reference models every element's lifetime on its own: its requests
// start when it appears, removing it cancels exactly its running effects (their late results
// are dropped), it starts afresh when it comes back, and an event for a missing child is
// reduced by neither reducer and reported with the child's scope.
//
// DESIGN §8, "Navigation", issue 28: more sequences also navigate. The feature presents an
// enum destination (`presents` with two `ifCase` screens) and a stack (`forEach(stack:)`) of
// screens with a request each; the sequences present, switch case (anew and in place),
// present an equal screen anew, dismiss, push, pop and pop to the root, and send screens
// events, present and missing. The reference models a presentation's identity on its own: a
// screen presented anew is a new screen, whose equal request starts again while the old
// screen's run is cancelled and its late result dropped.
@MainActor
struct PropertyTests {
  @Test func theGeneratorReplaysTheReferenceSequence() {
    var random = SplitMix64(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }

  /// 8 seeds × 250 sequences of 10 to 60 random actions, then 125 that also navigate, on the
  /// core alone.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func theCoreBehavesLikeTheReferenceOverRandomSequences(seed: UInt64) async {
    await runSequences(
      on: .core, seed: seed, count: StressLoad.scaled(250),
      navigating: StressLoad.scaled(125))
  }

  /// The first 20 sequences of seeds 0 to 3 (the very ones the core runs), then 15 that also
  /// navigate, on each runtime: effects run in tasks (or wait for the test), and every result
  /// hops back to the system's isolation.
  @Test(
    arguments: [PropertyRuntime.system, .backgroundSystem, .testSystem], 0..<4 as Range<UInt64>)
  func everyRuntimeBehavesLikeTheReferenceOverTheSameSequences(
    runtime: PropertyRuntime,
    seed: UInt64
  ) async {
    await runSequences(
      on: runtime, seed: seed, count: StressLoad.scaled(20), navigating: StressLoad.scaled(15))
  }

  /// DESIGN §10, "Recording never changes behaviour": with a journal (in memory and to a file)
  /// and printed changes attached, each runtime still behaves exactly like the reference over
  /// the same sequences — the same states and activities as without them — and the journal
  /// and the printer record every step once.
  @Test(
    arguments: [PropertyRuntime.recordedSystem, .recordedBackgroundSystem], 0..<4 as Range<UInt64>)
  func recordingChangesNothingOverTheSameSequences(runtime: PropertyRuntime, seed: UInt64) async {
    await runSequences(
      on: runtime, seed: seed, count: StressLoad.scaled(20), navigating: StressLoad.scaled(15))
  }

  /// The sequences every runtime runs in a full run reach each lifetime.
  ///
  /// Those are 20, and 15 navigating, of seeds 0 to 3: they reach each per-element and
  /// per-screen lifetime, so the tests above fail when one is wrong. Not scaled down under the sanitizers: the model alone runs here, and a tenth of the
  /// sequences reaches too few lifetimes to check the generator.
  @Test func theSequencesReachEveryChildLifetime() {
    var coverage = ReferenceSystem.ChildCoverage()
    for seed in 0..<4 as Range<UInt64> {
      let sequences = Self.sequences(of: seed, count: 20, navigating: 15)
      for sequence in sequences {
        coverage += PropertyRunner.coverage(
          seed: sequence.seed, actions: sequence.actions, navigating: sequence.navigates)
      }
    }
    for (name, count) in ReferenceSystem.ChildCoverage.counts {
      #expect(coverage[keyPath: count] > 0, "\(name)")
    }
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func theFinalStateIsTheReducerFoldedOverTheEvents(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let events = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        Int.random(in: -100...100, using: &random)
      }
      let reduce: (inout [Int], Int) -> Void = { state, event in
        state.append(event)
        if state.count > 5, event < 0 { state.removeFirst() }
      }
      let core = SystemCore<[Int], Int, Never, EmptyContext>(
        initialState: [], reduce: reduce, feedback: [])
      let runtime = CoreOutputForwarder<[Int], Int, Never, EmptyContext> { _ in }
      core.start(runtime: runtime)
      for event in events { core.send(event, runtime: runtime) }
      let folded = events.reduce(into: [Int]()) { reduce(&$0, $1) }
      #expect(core.state == folded)
    }
  }

  /// The first `count` sequences of `seed`, then `navigating` more that also navigate.
  ///
  /// Each comes with its seed, its number of actions, and whether it navigates. The first
  /// `count` are the sequences drawn before the model navigated, action for action.
  static func sequences(
    of seed: UInt64,
    count: Int,
    navigating: Int
  ) -> [(seed: UInt64, actions: Int, navigates: Bool)] {
    var random = SplitMix64(seed: seed)
    return (0..<count + navigating).map { index in
      let sequenceSeed = random.next()
      return (sequenceSeed, Int.random(in: 10...60, using: &random), index >= count)
    }
  }

  /// Runs the first `count` sequences of `seed`, then `navigating` more, on `runtime`,
  /// stopping at the first that disagrees with the reference.
  private func runSequences(
    on runtime: PropertyRuntime,
    seed: UInt64,
    count: Int,
    navigating: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let sequences = Self.sequences(of: seed, count: count, navigating: navigating)
    for (index, sequence) in sequences.enumerated() {
      let agrees = await PropertyRunner.run(
        runtime.makeDriver(), seed: sequence.seed, actions: sequence.actions,
        navigating: sequence.navigates, sourceLocation: sourceLocation)
      guard agrees else {
        let kind = sequence.navigates ? "navigating" : "not navigating"
        Issue.record(
          "\(runtime): sequence \(index) of seed \(seed) (sequence seed \(sequence.seed), \(kind)).",
          sourceLocation: sourceLocation)
        return
      }
      // The core never suspends: let the other runtimes' effect results onto the main actor.
      await Task.yield()
    }
  }
}

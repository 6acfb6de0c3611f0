import Foundation
import Scenarios

// Runs one scenario of the benchmarks for a number of operations, without package-benchmark, so
// that `valgrind --tool=callgrind` can count its instructions. `Scripts/profile.sh` runs each
// scenario twice, for N and 2N operations, and divides the difference by N: set-up, start-up
// and tear-down cancel out, and what is left is the exact cost of N operations.
//
//   Scripts/profile.sh counter-1 round-trip-immediate      # instructions per operation
//   .build/release/ProfileScenario counter-1 10000           # by hand
//
// The `hand-` scenarios run the hand-rolled baselines. Top-level code runs on the main actor,
// as the systems need.

/// The scenarios by name, each run for a number of operations.
let scenarios: [String: @MainActor (Int) async -> Void] = [
  "raw": { count in consume(rawCounterLoop(count)) },
  "counter-1": { count in CounterFixture(bindings: 1).send(count) },
  "counter-10": { count in CounterFixture(bindings: 10).send(count) },
  "large-pure": { count in LargeStateFixture(form: .pure).send(count) },
  "large-inout": { count in LargeStateFixture(form: .mutating).send(count) },
  "large-equatable": { count in LargeStateFixture(form: .mutatingEquatable).send(count) },
  "feedbacks-10": { count in UnchangedFeedbackFixture(feedbacks: 10).send(count) },
  "feedbacks-100": { count in UnchangedFeedbackFixture(feedbacks: 100).send(count) },
  "feedbacks-100-detailed": { count in
    UnchangedFeedbackFixture(feedbacks: 100, detailedState: true).send(count)
  },
  // A first run reads the state, as the benchmark's warm-up iterations do, so the counted runs
  // notify Observation on each step, as the benchmark's measured iterations do.
  "round-trip-immediate": { count in
    let fixture = RoundTripFixture(form: .immediate)
    fixture.runInline(1)
    fixture.runInline(count)
  },
  "round-trip-async": { count in await RoundTripFixture(form: .async).run(count) },
  "round-trip-async-background": { count in await BackgroundRoundTripFixture().run(count) },
  "keyed": { count in KeyedRequestFixture().send(count) },
  "keyed-dictionary": { count in KeyedDictionaryRequestFixture().send(count) },
  "create": { count in create(count, with: CreationFixture()) },
  "composed-10": { count in ComposedFixture(count: 10).send(count) },
  "composed-100": { count in ComposedFixture(count: 100).send(count) },
  "composed-1000": { count in ComposedFixture(count: 1_000).send(count) },
  "stack-20": { count in StackFixture(depth: 20).send(count) },
  "stack-100": { count in StackFixture(depth: 100).send(count) },
  "stack-push-pop": { count in StackFixture(depth: 20).pushAndPop(count) },
  "destination": { count in DestinationFixture().presentSendDismiss(count) },
  "fanout-set-1000": { count in FanOutFixture(form: .set).send(count) },
  "fanout-requestset-1000": { count in FanOutFixture(form: .requestSet).send(count) },
  // Recording: the counter of `counter-1` with a journal in memory, or written to a file in a
  // directory of its own under the temporary directory.
  "journal": { count in
    do { try JournalCounterFixture().send(count) } catch { fatalError("\(error)") }
  },
  "journal-file": { count in
    let directory = FileManager.default.temporaryDirectory
      .appending(path: "ProfileScenario-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appending(path: "journal.jsonl").path
    do { try JournalCounterFixture(writingTo: path).send(count) } catch { fatalError("\(error)") }
  },
  "hand-counter-1": { count in HandRolledCounterFixture(bindings: 1).send(count) },
  "hand-counter-10": { count in HandRolledCounterFixture(bindings: 10).send(count) },
  "hand-large": { count in HandRolledLargeStateFixture().send(count) },
  "hand-feedbacks-100": { count in
    HandRolledUnchangedFeedbackFixture(feedbacks: 100).send(count)
  },
  "hand-round-trip-immediate": { count in
    HandRolledRoundTripFixture(form: .immediate).runInline(count)
  },
  "hand-round-trip-async": { count in await HandRolledRoundTripFixture(form: .async).run(count) },
  "hand-keyed": { count in HandRolledKeyedRequestFixture().send(count) },
  "hand-create": { count in create(count, with: HandRolledCreationFixture()) },
  "hand-fanout-set-1000": { count in HandRolledFanOutFixture().send(count) },
  "hand-destination": { count in HandRolledDestinationFixture().presentSendDismiss(count) },
  "hand-journal": { count in HandRolledJournalFixture().send(count) },
  "hand-stack-20": { count in HandRolledComposedFixture(count: 20).sendToLast(count) },
  "hand-stack-100": { count in HandRolledComposedFixture(count: 100).sendToLast(count) },
  "hand-composed-10": { count in HandRolledComposedFixture(count: 10).send(count) },
  "hand-composed-100": { count in HandRolledComposedFixture(count: 100).send(count) },
  "hand-composed-1000": { count in HandRolledComposedFixture(count: 1_000).send(count) },
]

/// The creation fixtures, never released: the process exits with them.
var keptUntilExit: [any CreatingFixture] = []

/// Creates `count` systems (rounded up to whole batches), keeping every one alive to the end of
/// the process, so that the difference of two runs holds creations only, no releases (the
/// benchmark releases the systems outside its measurement too).
@MainActor
func create(_ count: Int, with fixture: some CreatingFixture) {
  fixture.prepare()
  for _ in 0..<max(1, count / CreationFixture.count) {
    fixture.create()
  }
  keptUntilExit.append(fixture)
}

/// The creation fixtures, library and hand-rolled.
@MainActor
protocol CreatingFixture {
  /// Empties the fixture and reserves room for one batch.
  func prepare()
  /// Creates one batch of systems and keeps them.
  func create()
}

extension CreationFixture: CreatingFixture {}
extension HandRolledCreationFixture: CreatingFixture {}

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let scenario = scenarios[name],
  let count = arguments.dropFirst().first.flatMap({ Int($0) })
else {
  print("usage: ProfileScenario <scenario> <operations>")
  print("scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
  exit(64)
}
await scenario(count)

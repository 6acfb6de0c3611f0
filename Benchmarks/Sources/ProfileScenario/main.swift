import Foundation
import Scenarios

// Runs one scenario of the benchmarks for a number of operations, without package-benchmark, so
// that `valgrind --tool=callgrind` can count its instructions:
//
//   swift build -c release --scratch-path .build-profile -Xswiftc -gnone --product ProfileScenario
//   valgrind --tool=callgrind --toggle-collect='*Fixture*' \
//     .build-profile/release/ProfileScenario counter-1 10000
//
// `--toggle-collect` on the fixtures' methods leaves the set-up out of the counts; divide the
// total by the operations. Top-level code runs on the main actor, as the systems need.

/// The scenarios by name, each run for a number of operations.
let scenarios: [String: @MainActor (Int) async -> Void] = [
  "raw": { count in consume(rawCounterLoop(count)) },
  "counter-1": { count in CounterFixture(bindings: 1).send(count) },
  "counter-10": { count in CounterFixture(bindings: 10).send(count) },
  "large-pure": { count in LargeStateFixture(form: .pure).send(count) },
  "large-inout": { count in LargeStateFixture(form: .mutating).send(count) },
  "feedbacks-10": { count in UnchangedFeedbackFixture(feedbacks: 10).send(count) },
  "feedbacks-100": { count in UnchangedFeedbackFixture(feedbacks: 100).send(count) },
  "round-trip-immediate": { count in RoundTripFixture(form: .immediate).runInline(count) },
  "round-trip-async": { count in await RoundTripFixture(form: .async).run(count) },
  "keyed": { count in KeyedRequestFixture().send(count) },
  "create": { count in
    let fixture = CreationFixture()
    for _ in 0..<max(1, count / CreationFixture.count) {
      fixture.prepare()
      fixture.create()
    }
  },
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let scenario = scenarios[name],
  let count = arguments.dropFirst().first.flatMap({ Int($0) })
else {
  print("usage: ProfileScenario <scenario> <operations>")
  print("scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
  exit(64)
}
await scenario(count)

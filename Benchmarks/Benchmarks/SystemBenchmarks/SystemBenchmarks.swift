import Benchmark
import BenchmarkSettings
import Scenarios

/// The benchmarks of `System`, registered for package-benchmark's generated runner.
///
/// Every benchmark measures wall-clock time, allocations and allocated bytes per iteration; an
/// iteration performs the benchmark's scaling factor of operations (events, round trips,
/// systems), and `Scripts/bench.sh` reports the median per operation. The scenarios live in the
/// `Scenarios` module, which the `ProfileScenario` tool runs under callgrind too. Systems live
/// on the main actor, so their fixtures are created there in `setup`, and each iteration hops
/// there once (see `onMainActor(_:)`).
let benchmarks: @Sendable () -> Void = {
  registerCounterBenchmarks()
  registerLargeStateBenchmarks()
  registerUnchangedFeedbackBenchmarks()
  registerRoundTripBenchmarks()
  registerKeyedRequestBenchmarks()
  registerCreationBenchmarks()
  registerComposedBenchmarks()
  registerNavigationBenchmarks()
}

/// The name every ratio in `Scripts/bench.sh` is taken against.
let rawBaselineName = "raw-reducer-loop"

/// Registers the raw reducer loop and the counter's `send` benchmarks.
func registerCounterBenchmarks() {
  Benchmark(
    rawBaselineName,
    configuration: .architectureKit(scalingFactor: .mega, allocates: false)
  ) { benchmark in
    blackHole(rawCounterLoop(benchmark.scaledIterations.count))
  }

  for bindings in [1, 10] {
    Benchmark(
      "counter-send-\(bindings)-binding\(bindings == 1 ? "" : "s")",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await CounterFixture(bindings: bindings)
    }
  }
}

/// Registers the large-state benchmarks: the raw loop, both reducer forms, and the mutating
/// form on an `Equatable` state.
func registerLargeStateBenchmarks() {
  Benchmark(
    "\(rawBaselineName)-100k-array",
    // A million bumps (ten passes over the array) per iteration: a thousand take 4 µs, too
    // short to time steadily.
    configuration: .architectureKit(scalingFactor: .mega, allocates: false)
  ) { benchmark, fixture in
    fixture.run(benchmark.scaledIterations.count)
  } setup: {
    RawLargeFixture()
  }

  for (form, label) in [
    (ReducerForm.pure, "pure"), (.mutating, "inout"), (.mutatingEquatable, "inout-equatable"),
  ] {
    Benchmark(
      "100k-array-send-\(label)-reducer",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await LargeStateFixture(form: form)
    }
  }
}

/// Registers the benchmarks of 10 and 100 feedback loops whose requests do not change, the
/// 100 also over a state that holds references.
func registerUnchangedFeedbackBenchmarks() {
  for feedbacks in [10, 100] {
    Benchmark(
      "\(feedbacks)-unchanged-feedbacks-send",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await UnchangedFeedbackFixture(feedbacks: feedbacks)
    }
  }

  // The same 100 loops over a state that holds references (an array and a string), as an
  // app's state does: what a feedback costs must not depend on what the state holds.
  Benchmark(
    "100-unchanged-feedbacks-detailed-state-send",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await UnchangedFeedbackFixture(feedbacks: 100, detailedState: true)
  }
}

/// Registers the feedback round-trip benchmarks, with an immediate and an `async` effect.
func registerRoundTripBenchmarks() {
  Benchmark(
    "round-trip-immediate-effect",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.runInline(count) }
  } setup: {
    await RoundTripFixture(form: .immediate)
  }

  // This closure is `async`: package-benchmark runs it in a task off the main actor, and the
  // fixture's `run` awaits on the main actor, which stays free for the effects' hops back.
  Benchmark(
    "round-trip-async-effect",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true, isScheduled: true)
  ) { benchmark, fixture async in
    let count = benchmark.scaledIterations.count
    await fixture.run(count)
  } setup: {
    await RoundTripFixture(form: .async)
  }

  // The same chain on a `BackgroundSystem`, an actor: the events hop back to it.
  Benchmark(
    "round-trip-async-effect-background",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true, isScheduled: true)
  ) { benchmark, fixture async in
    let count = benchmark.scaledIterations.count
    await fixture.run(count)
  } setup: {
    await BackgroundRoundTripFixture()
  }
}

/// Registers the keyed-request benchmarks: 10,000 active, one changing per event, in a
/// `KeyedRequests` (whose journal makes a step cost the change) and in a dictionary (compared
/// whole on every step).
func registerKeyedRequestBenchmarks() {
  Benchmark(
    "10000-keyed-requests-1-changing",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true, maxDuration: .seconds(3))
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await KeyedRequestFixture()
  }

  Benchmark(
    "10000-keyed-requests-1-changing-dictionary",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true, maxDuration: .seconds(3))
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await KeyedDictionaryRequestFixture()
  }
}

/// Registers the creation benchmark: 10,000 idle systems per iteration, time and bytes each.
func registerCreationBenchmarks() {
  Benchmark(
    "create-idle-system-x\(CreationFixture.count)",
    configuration: .architectureKit(
      scalingFactor: .one,
      operations: CreationFixture.count,
      allocates: true
    )
  ) { benchmark, fixture in
    onMainActor { fixture.prepare() }
    benchmark.startMeasurement()
    onMainActor { fixture.create() }
    benchmark.stopMeasurement()
  } setup: {
    await CreationFixture()
  }
}

/// Registers the composed benchmarks: a parent with 10, 100 or 1,000 `forEach` children, one
/// event to one child; a fan-out of 1,000 effects through a `Set` of requests, per result.
func registerComposedBenchmarks() {
  for children in [10, 100, 1_000] {
    Benchmark(
      "composed-\(children)-children-send",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await ComposedFixture(count: children)
    }
  }
  for (name, form) in [("set", FanOutForm.set), ("requestset", .requestSet)] {
    Benchmark(
      "fanout-\(name)-1000-results",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await FanOutFixture(form: form)
    }
  }
}

/// Registers the navigation benchmarks: one event to the top of a 20- or 100-screen stack; a
/// push then a pop; a presentation, one event to it, its dismissal.
func registerNavigationBenchmarks() {
  Benchmark(
    "stack-20-screens-send",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await StackFixture(depth: 20)
  }
  Benchmark(
    "stack-100-screens-send",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await StackFixture(depth: 100)
  }
  Benchmark(
    "destination-present-send-dismiss",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.presentSendDismiss(count) }
  } setup: {
    await DestinationFixture()
  }
  Benchmark(
    "stack-20-screens-push-pop",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.pushAndPop(count) }
  } setup: {
    await StackFixture(depth: 20)
  }
}

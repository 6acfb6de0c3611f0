import Benchmark
import BenchmarkSettings
import Scenarios

/// The hand-rolled baselines, registered for package-benchmark's generated runner.
///
/// Each benchmark has the name of the `SystemBenchmarks` benchmark it is the baseline of and
/// runs the same scenario, with the same events, bindings and operations per iteration, on a
/// store written by hand: `HandRolledStore` (a class with a reducer, subscribers, a queue and
/// effect closures), or `HandRolledTaskStore` (a main-actor store with a `Task` per effect) for
/// the async round trip. `Scripts/bench.sh` prints each library median beside its baseline's
/// and their ratio.
let benchmarks: @Sendable () -> Void = {
  for bindings in [1, 10] {
    Benchmark(
      "counter-send-\(bindings)-binding\(bindings == 1 ? "" : "s")",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await HandRolledCounterFixture(bindings: bindings)
    }
  }

  // One baseline for both states: written by hand, an `Equatable` state costs nothing more.
  for label in ["inout", "inout-equatable"] {
    Benchmark(
      "100k-array-send-\(label)-reducer",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await HandRolledLargeStateFixture()
    }
  }

  for feedbacks in [10, 100] {
    Benchmark(
      "\(feedbacks)-unchanged-feedbacks-send",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await HandRolledUnchangedFeedbackFixture(feedbacks: feedbacks)
    }
  }

  Benchmark(
    "round-trip-immediate-effect",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.runInline(count) }
  } setup: {
    await HandRolledRoundTripFixture(form: .immediate)
  }

  Benchmark(
    "round-trip-async-effect",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true, isScheduled: true)
  ) { benchmark, fixture async in
    let count = benchmark.scaledIterations.count
    await fixture.run(count)
  } setup: {
    await HandRolledRoundTripFixture(form: .async)
  }

  Benchmark(
    "10000-keyed-requests-1-changing",
    configuration: .architectureKit(
      scalingFactor: .kilo, allocates: false, maxDuration: .seconds(3))
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await HandRolledKeyedRequestFixture()
  }

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
    await HandRolledCreationFixture()
  }

  for children in [10, 100, 1_000] {
    Benchmark(
      "composed-\(children)-children-send",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.send(count) }
    } setup: {
      await HandRolledComposedFixture(count: children)
    }
  }

  // Written by hand, a stack of screens is a list: the composed baseline with as many rows,
  // one event to the last.
  for screens in [20, 100] {
    Benchmark(
      "stack-\(screens)-screens-send",
      configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
    ) { benchmark, fixture in
      let count = benchmark.scaledIterations.count
      onMainActor { fixture.sendToLast(count) }
    } setup: {
      await HandRolledComposedFixture(count: screens)
    }
  }

  Benchmark(
    "fanout-set-1000-results",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count) }
  } setup: {
    await HandRolledFanOutFixture()
  }

  Benchmark(
    "destination-present-send-dismiss",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.presentSendDismiss(count) }
  } setup: {
    await HandRolledDestinationFixture()
  }
}

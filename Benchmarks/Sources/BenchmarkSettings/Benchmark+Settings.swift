public import Benchmark
import Foundation

extension Benchmark.Configuration {
  /// The configuration of an ArchitectureKit benchmark: what it measures and how much it may
  /// drift before `swift package benchmark thresholds check` calls it a regression.
  ///
  /// Every benchmark measures wall-clock time, heap allocations and allocated bytes. Only the
  /// allocation count is gated: wall time on a shared machine is noise, not a verdict. The
  /// checked-in static thresholds (`Benchmarks/Thresholds/<swift version>/*.p90.json`) hold the
  /// p90 of `mallocCountTotal` per iteration for the toolchain; the tolerances here say how far a
  /// run may stray from them:
  ///
  /// - a benchmark that allocates: half an allocation per operation either way, so one more (or
  ///   one less) allocation per event, round trip or system fails the check, where a relative
  ///   tolerance would hide one allocation among fifteen;
  /// - a benchmark that must not allocate: a tenth of an allocation per operation, so a single
  ///   new allocation per event is a regression, even though a relative tolerance of zero would
  ///   never fire;
  /// - a benchmark whose allocations depend on thread scheduling (the async round trip: the
  ///   concurrency runtime allocates more when a job is enqueued while another thread runs):
  ///   10 % either way; two runs of 25 iterations differed by 0.45 allocation per round trip.
  ///
  /// `Scripts/bench.sh --check` sets `ARCHITECTUREKIT_BENCH_GATE=1`: the benchmarks then measure
  /// allocations only, for at most 25 iterations each, which is enough for a count that does
  /// not depend on the machine's load.
  ///
  /// ```swift
  /// Benchmark(
  ///   "counter-send-1-binding",
  ///   configuration: .architectureKit(scalingFactor: .kilo, allocates: false)
  /// ) { benchmark, fixture in
  ///   let count = benchmark.scaledIterations.count
  ///   onMainActor { fixture.send(count) }
  /// } setup: {
  ///   await CounterFixture(bindings: 1)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - scalingFactor: The operations in one iteration, when they fit a power of 1,000.
  ///   - operations: The operations in one iteration, when they are not the scaling factor;
  ///     the benchmark's name must then end in `-x<operations>`, which `Scripts/bench.sh` divides
  ///     by instead of the scaling factor. (A tag would do, but package-benchmark puts tags in
  ///     the name with spaces, and 1.38.1 cannot read back the static thresholds of such names.)
  ///   - allocates: Whether the operation is expected to allocate in steady state.
  ///   - isScheduled: Whether its allocations depend on how threads are scheduled.
  ///   - maxDuration: How long to keep iterating; longer for slow operations.
  /// - Returns: The configuration.
  public static func architectureKit(
    scalingFactor: BenchmarkScalingFactor,
    operations: Int? = nil,
    allocates: Bool,
    isScheduled: Bool = false,
    maxDuration: Duration = .seconds(1)
  ) -> Self {
    let operationsPerIteration = operations ?? scalingFactor.rawValue
    let counts =
      isScheduled
      ? BenchmarkThresholds(relative: [.p90: 10])
      : BenchmarkThresholds(absolute: [.p90: max(1, operationsPerIteration / (allocates ? 2 : 10))])
    let isGate = ProcessInfo.processInfo.environment["ARCHITECTUREKIT_BENCH_GATE"] == "1"
    return .init(
      metrics: isGate ? [.mallocCountTotal] : [.wallClock, .mallocCountTotal, .mallocBytesCount],
      warmupIterations: 3,
      scalingFactor: scalingFactor,
      maxDuration: maxDuration,
      maxIterations: isGate ? 25 : 100_000,
      thresholds: [.mallocCountTotal: counts]
    )
  }
}

public import Benchmark

extension Benchmark.Configuration {
  /// The configuration of an ArchitectureKit benchmark: what it measures and how much it may
  /// drift before `swift package benchmark thresholds check` calls it a regression.
  ///
  /// Every benchmark measures wall-clock time, heap allocations and allocated bytes. The checked-in
  /// static thresholds (`Benchmarks/Thresholds/*.p90.json`) hold the p90 of each metric on the
  /// reference machine; the tolerances here say how far a run may stray from them:
  ///
  /// - time: 50 % either way, because the reference machine is shared and noisy;
  /// - allocations and bytes of a benchmark that allocates: 10 % either way;
  /// - allocations and bytes of a benchmark that must not allocate: a tenth of an allocation
  ///   (and 8 bytes) per operation, so a single new allocation per event is a regression, even
  ///   though a relative tolerance of zero would never fire.
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
  ///   - maxDuration: How long to keep iterating; longer for slow operations.
  /// - Returns: The configuration.
  public static func architectureKit(
    scalingFactor: BenchmarkScalingFactor,
    operations: Int? = nil,
    allocates: Bool,
    maxDuration: Duration = .seconds(1)
  ) -> Self {
    let operationsPerIteration = operations ?? scalingFactor.rawValue
    let counts =
      allocates
      ? BenchmarkThresholds(relative: [.p90: 10])
      : BenchmarkThresholds(absolute: [.p90: max(1, operationsPerIteration / 10)])
    let bytes =
      allocates
      ? BenchmarkThresholds(relative: [.p90: 10])
      : BenchmarkThresholds(absolute: [.p90: max(8, operationsPerIteration * 8)])
    return .init(
      metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount],
      warmupIterations: 3,
      scalingFactor: scalingFactor,
      maxDuration: maxDuration,
      maxIterations: 100_000,
      thresholds: [
        .wallClock: BenchmarkThresholds(relative: [.p90: 50]),
        .mallocCountTotal: counts,
        .mallocBytesCount: bytes,
      ]
    )
  }
}

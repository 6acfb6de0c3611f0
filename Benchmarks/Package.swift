// swift-tools-version: 6.2
import PackageDescription

/// The performance suite of ArchitectureKit, run by package-benchmark (`swift package benchmark`).
///
/// It is a package of its own so that the library's clients never resolve package-benchmark:
/// the root manifest has no dependency, ever. `Scripts/bench.sh` runs it and prints the summary.
let package = Package(
  name: "ArchitectureKitBenchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    // The library under test, by path, so every run measures the working tree.
    .package(name: "ArchitectureKit", path: ".."),
    // The malloc interposer gives the allocation counts; the runtime interposer is left off.
    .package(
      url: "https://github.com/ordo-one/benchmark",
      from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
  ],
  targets: [
    // The settings every benchmark shares: metrics, regression tolerances, main-actor access.
    .target(
      name: "BenchmarkSettings",
      dependencies: [.product(name: "Benchmark", package: "benchmark")]
    ),
    // The measured scenarios: fixtures that drive systems, for the benchmarks and the profiler.
    .target(
      name: "Scenarios",
      dependencies: [.product(name: "ArchitectureKit", package: "ArchitectureKit")]
    ),
    // Runs one scenario without package-benchmark, for `valgrind --tool=callgrind`.
    .executableTarget(name: "ProfileScenario", dependencies: ["Scenarios"]),
    // `System`: the send path, large states, feedback, round trips, keyed requests, creation.
    .executableTarget(
      name: "SystemBenchmarks",
      dependencies: [
        "BenchmarkSettings",
        "Scenarios",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/SystemBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // The hand-rolled baselines of the `System` benchmarks, under the same names.
    .executableTarget(
      name: "HandRolledBenchmarks",
      dependencies: [
        "BenchmarkSettings",
        "Scenarios",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/HandRolledBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // `TestSystem` from the test support module: send throughput, with and without assertions.
    .executableTarget(
      name: "TestSystemBenchmarks",
      dependencies: [
        "BenchmarkSettings",
        "Scenarios",
        .product(name: "ArchitectureKitTestSupport", package: "ArchitectureKit"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/TestSystemBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ]
)

// The house language settings, as in the root manifest, so benchmark code reads like library code.
for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .enableUpcomingFeature("InferIsolatedConformances"),
    ]
}

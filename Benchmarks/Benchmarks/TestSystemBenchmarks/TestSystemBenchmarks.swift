import ArchitectureKitTestSupport
import Benchmark
import BenchmarkSettings
import Scenarios

/// The benchmarks of `TestSystem`, registered for package-benchmark's generated runner.
///
/// They live apart from `SystemBenchmarks` so that the `System` figures never depend on the test
/// support module building.
let benchmarks: @Sendable () -> Void = {
  Benchmark(
    "testsystem-send-exhaustivity-off",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count, asserting: false) }
  } setup: {
    await TestSystemFixture(exhaustivity: .off)
  }

  Benchmark(
    "testsystem-send-asserted",
    configuration: .architectureKit(scalingFactor: .kilo, allocates: true)
  ) { benchmark, fixture in
    let count = benchmark.scaledIterations.count
    onMainActor { fixture.send(count, asserting: true) }
  } setup: {
    await TestSystemFixture(exhaustivity: .on)
  }
}

/// The seed's counter in a `TestSystem`, as a test drives it.
@MainActor
final class TestSystemFixture {
  private let system: TestSystem<Int, CounterEvent, CounterError, EmptyContext>

  /// Creates the harness around the counter reducer, with no feedback.
  ///
  /// - Parameter exhaustivity: Whether each state change must be asserted.
  init(exhaustivity: Exhaustivity) {
    system = TestSystem(
      initialState: 0,
      context: EmptyContext(),
      reducer: { state, event in
        switch event {
        case .increment: state + 1
        case .decrement: state - 1
        }
      }
    )
    system.exhaustivity = exhaustivity
  }

  /// Sends `count` increments; with `asserting`, each with the assertion a test would write.
  ///
  /// - Parameters:
  ///   - count: The number of events.
  ///   - asserting: Whether to pass the state assertion.
  func send(_ count: Int, asserting: Bool) {
    for _ in 0..<count {
      if asserting {
        system.send(.increment) { $0 += 1 }
      } else {
        system.send(.increment)
      }
    }
  }
}

import Dispatch
import Foundation

/// Runs `body` on the main actor and returns its result, from any thread.
///
/// package-benchmark calls a synchronous benchmark closure on a thread of the cooperative pool,
/// not on the main thread, while the main thread waits in the main queue (the runner's `main` is
/// `async`). A `System` lives on the main actor, so each iteration hops there with one
/// `DispatchQueue.main.sync` and runs all its operations in one go: the hop costs a few
/// microseconds per iteration, which the scaling factor spreads over a thousand operations or
/// more.
///
/// ```swift
/// Benchmark("counter-send-1-binding") { benchmark, fixture in
///   let count = benchmark.scaledIterations.count
///   onMainActor { fixture.send(count) }
/// } setup: {
///   await CounterFixture()
/// }
/// ```
///
/// - Parameter body: The work to run on the main actor.
/// - Returns: What `body` returned.
public func onMainActor<Result: Sendable>(_ body: @MainActor () -> Result) -> Result {
  // `DispatchQueue.main.sync` from the main thread would deadlock.
  if Thread.isMainThread {
    return MainActor.assumeIsolated(body)
  }
  return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
}

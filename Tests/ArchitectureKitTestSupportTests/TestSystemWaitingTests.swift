import ArchitectureKitTestSupport
import FunctionalCore
import Testing

// A wait of the harness never hangs (issue 11, defect 4): an effect that works without end
// runs into the failsafe, which fails the wait naming it; an effect suspended on something the
// test never resumes waits for the test, which a wait knows at once; and cancelling the
// waiting task ends a wait. The other guarantees of the harness and its clock are in
// HarnessDeterminismTests.

/// Work stuck until the test lets it go: on a continuation nobody resumes (``wait()``, which
/// ignores cancellation, like a callback that never comes), or working without end.
final class StuckWork: Sendable {
  private let state = Lock<(isReleased: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, [])
  )

  func wait() async {
    await withCheckedContinuation { continuation in
      let isReleased = state.withLock { state in
        if !state.isReleased { state.waiters.append(continuation) }
        return state.isReleased
      }
      if isReleased { continuation.resume() }
    }
  }

  /// Whether the test let the work go.
  var isReleased: Bool {
    state.withLock(\.isReleased)
  }

  func release() {
    let waiters = state.withLock { state in
      state.isReleased = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

struct StuckContext: Sendable {}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct TestSystemWaitingTests {
  typealias Harness = TestSystem<[String], String, Never, StuckContext>

  nonisolated static let stuckRequest = "stuck-on-a-continuation"

  /// A harness whose one effect, once run, never ends on its own.
  ///
  /// It works without end, never waiting for anything, until the test lets it go or it is
  /// cancelled: only the failsafe can tell it from work about to end (`spinning`); or it waits
  /// on a continuation the test never resumes, which is waiting for the test.
  func harnessWithAStuckEffect(
    _ work: StuckWork, timeout: Duration, spinning: Bool = true
  ) -> Harness {
    let system = Harness(
      initialState: [], context: StuckContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0 == ["go"] ? Self.stuckRequest : nil },
          effect: .run { _, _ in
            if spinning {
              while !work.isReleased, !Task.isCancelled { await Task.yield() }
            } else {
              await work.wait()
            }
            return "never"
          })
      ],
      timeout: timeout
    )
    system.send("go") { $0 = ["go"] }
    system.expectStarted(Self.stuckRequest)
    system.run(Self.stuckRequest)
    return system
  }

  /// Whether a failure says the failsafe ended the wait and names the stuck effect.
  nonisolated static func namesTheStuckEffect(_ failure: String) -> Bool {
    failure.contains("(the failsafe); still working: [\"\(stuckRequest)\"]")
  }

  /// Whether a failure says the wait was cancelled.
  nonisolated static func saysTheWaitWasCancelled(_ failure: String) -> Bool {
    failure.contains("was cancelled")
  }

  /// Runs `wait` on a harness whose one effect never ends on its own, then lets the effect go,
  /// and returns the failures the wait reported.
  func failuresOfAWait(
    timeout: Duration, _ wait: @MainActor (Harness) async -> Void
  ) async -> [String] {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: timeout)
    defer { work.release() }
    return await capturingFailures { await wait(system) }
  }

  // MARK: A stuck effect fails the wait, naming it

  @Test func anEffectStuckOnAContinuationWaitsForTheTestAndFailsAReceiveAtOnce() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .seconds(3_600), spinning: false)
    defer { work.release() }
    // No failsafe is needed to end these waits: an hour would fail the time limit.
    let failures = await capturingFailures {
      await system.settle()
      await system.receive("never")
    }
    #expect(failures.count == 1)
    #expect(
      failures.allSatisfy {
        $0.contains("the effects still running wait for the test: [\"\(Self.stuckRequest)\"]")
      })
  }

  @Test func receiveEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let failures = await failuresOfAWait(timeout: .milliseconds(200)) {
      await $0.receive("never")
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy(Self.namesTheStuckEffect))
  }

  @Test func settleEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let failures = await failuresOfAWait(timeout: .milliseconds(200)) { await $0.settle() }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy(Self.namesTheStuckEffect))
  }

  @Test func finishEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let failures = await failuresOfAWait(timeout: .milliseconds(200)) { await $0.finish() }
    // The failsafe ends the wait; then the effect is still running at the end of the test.
    #expect(failures.count == 2)
    #expect(failures.first.map(Self.namesTheStuckEffect) == true)
    #expect(failures.last?.contains("Effects are still running") == true)
    #expect(failures.allSatisfy { $0.contains(Self.stuckRequest) })
  }

  @Test func theTimeoutIsASettableProperty() async {
    let failures = await failuresOfAWait(timeout: .seconds(3_600)) { system in
      system.timeout = .milliseconds(200)
      await system.receive("never")
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy(Self.namesTheStuckEffect))
  }

  // MARK: Cancelling the test's task ends every wait

  // The failsafe is an hour, so only the cancellation can end these waits in time. What they
  // check is that the wait ends; whether a cancelled wait also fails the test is left open, but
  // a failure it reports must say that the wait was cancelled.

  /// Runs `wait` as ``failuresOfAWait(timeout:_:)`` does, in a task cancelled at once.
  func failuresOfACancelledWait(
    _ wait: @escaping @MainActor (Harness) async -> Void
  ) async -> [String] {
    await failuresOfAWait(timeout: .seconds(3_600)) { system in
      let waiting = Task { await wait(system) }
      waiting.cancel()
      await waiting.value
    }
  }

  @Test func cancellingTheWaitingTaskEndsReceive() async {
    let failures = await failuresOfACancelledWait { await $0.receive("never") }
    #expect(failures.count <= 1)
    #expect(failures.allSatisfy(Self.saysTheWaitWasCancelled))
  }

  @Test func cancellingTheWaitingTaskEndsSettle() async {
    let failures = await failuresOfACancelledWait { await $0.settle() }
    #expect(failures.count <= 1)
    #expect(failures.allSatisfy(Self.saysTheWaitWasCancelled))
  }

  @Test func cancellingTheWaitingTaskEndsFinish() async {
    let failures = await failuresOfACancelledWait { await $0.finish() }
    // Finishing with the effect still running may also say so.
    #expect(failures.count <= 2)
    #expect(
      failures.allSatisfy {
        Self.saysTheWaitWasCancelled($0) || $0.contains("Effects are still running")
      })
  }
}

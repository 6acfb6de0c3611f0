import ArchitectureKitTestSupport
import FunctionalCore
import Testing

// Issue 11, defect 4 (DESIGN §5, "Never hangs, never flakes"), written against API the rebuilt
// harness adds: `TestSystem.init(…, timeout:)`. The tests of defects 5, 6, 7, 8, 9 and 13 that
// compile against today's harness are in HarnessDefectTodayTests.

/// Work stuck on a continuation nobody resumes until the test lets it go; it ignores
/// cancellation, like a callback that never comes.
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
struct HarnessDefectTests {
  typealias Harness = TestSystem<[String], String, Never, StuckContext>

  nonisolated static let stuckRequest = "stuck-on-a-continuation"

  /// A harness whose one effect, once run, never ends on its own.
  func harnessWithAStuckEffect(_ work: StuckWork, timeout: Duration) -> Harness {
    let system = Harness(
      initialState: [], context: StuckContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0 == ["go"] ? Self.stuckRequest : nil },
          run: { _, _ in
            await work.wait()
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

  nonisolated static func namesTheStuckEffect(_ issue: Issue) -> Bool {
    issue.comments.contains { $0.rawValue.contains(stuckRequest) }
      || "\(issue)".contains(stuckRequest)
  }

  // MARK: A stuck effect fails the wait, naming it

  @Test func receiveEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .milliseconds(200))
    await withKnownIssue {
      await system.receive("never")
    } matching: {
      Self.namesTheStuckEffect($0)
    }
    work.release()
  }

  @Test func settleEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .milliseconds(200))
    await withKnownIssue {
      await system.settle()
    } matching: {
      Self.namesTheStuckEffect($0)
    }
    work.release()
  }

  @Test func finishEndsWithAFailureNamingAnEffectThatNeverEnds() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .milliseconds(200))
    await withKnownIssue {
      await system.finish()
    } matching: {
      Self.namesTheStuckEffect($0)
    }
    work.release()
  }

  @Test func theTimeoutIsASettableProperty() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .seconds(3_600))
    system.timeout = .milliseconds(200)
    await withKnownIssue {
      await system.receive("never")
    } matching: {
      Self.namesTheStuckEffect($0)
    }
    work.release()
  }

  // MARK: Cancelling the test's task ends every wait

  // The failsafe is an hour, so only the cancellation can end these waits in time.

  @Test func cancellingTheWaitingTaskEndsReceive() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .seconds(3_600))
    await withKnownIssue(isIntermittent: true) {
      let waiting = Task { await system.receive("never") }
      waiting.cancel()
      await waiting.value
    }
    work.release()
  }

  @Test func cancellingTheWaitingTaskEndsSettle() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .seconds(3_600))
    await withKnownIssue(isIntermittent: true) {
      let waiting = Task { await system.settle() }
      waiting.cancel()
      await waiting.value
    }
    work.release()
  }

  @Test func cancellingTheWaitingTaskEndsFinish() async {
    let work = StuckWork()
    let system = harnessWithAStuckEffect(work, timeout: .seconds(3_600))
    await withKnownIssue(isIntermittent: true) {
      let waiting = Task { await system.finish() }
      waiting.cancel()
      await waiting.value
    }
    work.release()
  }
}

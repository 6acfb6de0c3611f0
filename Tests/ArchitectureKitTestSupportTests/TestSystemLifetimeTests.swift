import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

private struct NoContext: Sendable {}

@MainActor
@Suite(.timeLimit(.minutes(10)))
struct TestSystemLifetimeTests {
  /// A test that ends without `finish()` leaves no effect behind: releasing the harness cancels
  /// what still runs, as releasing a `System` does (the effects reach the runtime only while
  /// its owner is there, so the owner must close them first).
  @Test func aReleasedTestSystemCancelsTheEffectsStillRunning() async {
    let entered = Gate()
    let cancelled = Gate()
    var system: TestSystem<[String], String, Never, NoContext>? = TestSystem(
      initialState: ["ask"], context: NoContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0 == ["ask"] ? "answer" : nil },
          effect: .run { _, _ in
            await withTaskCancellationHandler {
              entered.open()
              await cancelled.wait()
            } onCancel: {
              cancelled.open()
            }
            return "answered"
          })
      ])
    system?.expectStarted("answer")
    system?.run("answer")
    await entered.wait()
    weak let released = system
    #expect(!cancelled.isOpen)

    system = nil

    #expect(released == nil, "the harness was kept alive")
    // The release cancels the task at once, so its handler has already run.
    #expect(cancelled.isOpen, "the running effect was not cancelled")
    cancelled.open()
  }
}

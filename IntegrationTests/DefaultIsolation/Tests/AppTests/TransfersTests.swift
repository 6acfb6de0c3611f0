import ArchitectureKitTestSupport
import Testing

@testable import App

/// Every set and keyed feedback form, with each effect form, in a feature that stays on the
/// main actor and marks only its request and event types `nonisolated`.
@Suite(.timeLimit(.minutes(10)))
struct TransfersTests {
  typealias Harness = TestSystem<Transfers.State, Transfers.Event, Never, Transfers.Context>
  typealias Transfer = Transfers.Transfer

  func harness() -> Harness {
    Harness(initialState: Transfers.State(), context: .test, feature: Transfers.feature)
  }

  /// What a transfer of each kind sends: the effects and run forms one last event, a stream
  /// its progress, a job its progress and then its last event.
  func events(of transfer: Transfer) -> [Transfers.Event] {
    let progress: [Transfers.Event] = [.progress(transfer.id, "a"), .progress(transfer.id, "b")]
    switch transfer.kind {
    case .effects, .run: return [.finished(transfer.id)]
    case .stream: return progress
    case .job: return progress + [.finished(transfer.id)]
    }
  }

  /// Receives what the transfer sends, asserting each line it logs and its removal when done.
  func receiveEvents(of transfer: Transfer, in system: Harness) async {
    for event in events(of: transfer) {
      await system.receive(event) { state in
        switch event {
        case .progress(let id, let chunk): state.log.append("\(id): \(chunk)")
        case .finished(let id):
          state.log.append("\(id): done")
          state.queue = []
          state.mirrors = [:]
        case .enqueue, .mirror: Issue.record("Unexpected \(event)")
        }
      }
    }
  }

  @Test(arguments: Transfer.Kind.allCases)
  func aQueuedTransferRunsWithItsEffectForm(kind: Transfer.Kind) async {
    let system = harness()
    let transfer = Transfer(id: 7, kind: kind)
    system.send(.enqueue(transfer)) { $0.queue = [transfer] }
    system.expectStarted(transfer)
    system.run(transfer)
    await receiveEvents(of: transfer, in: system)
    await system.finish()
  }

  @Test(arguments: Transfer.Kind.allCases)
  func aMirroredTransferRunsWithItsEffectForm(kind: Transfer.Kind) async {
    let system = harness()
    let transfer = Transfer(id: 7, kind: kind)
    system.send(.mirror(transfer)) { $0.mirrors = [7: transfer] }
    system.expectStarted(transfer)
    #expect(system.runningRequests.map(\.description) == ["7: \(transfer)"])
    system.run(transfer)
    await receiveEvents(of: transfer, in: system)
    await system.finish()
  }

  @Test func aKeyWhoseRequestChangesIsRestarted() async {
    let system = harness()
    let first = Transfer(id: 7, kind: .run)
    let second = Transfer(id: 7, kind: .job)
    system.send(.mirror(first)) { $0.mirrors = [7: first] }
    system.expectStarted(first)
    system.send(.mirror(second)) { $0.mirrors = [7: second] }
    system.expectCancelled(first)
    system.expectStarted(second)
    system.simulate(second, event: .finished(7))
    await system.receive(.finished(7)) {
      $0.log = ["7: done"]
      $0.mirrors = [:]
    }
    await system.finish()
  }
}

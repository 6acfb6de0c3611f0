import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

/// One event of a numbered stream: the `sequence`-th event of `sender`.
struct Numbered: Sendable {
  let sender: Int
  let sequence: Int
}

/// What a system saw of many numbered streams: enough to prove each event was reduced exactly
/// once and each sender's order was kept.
struct SenderLedger: Sendable, Equatable {
  var lastSequence: [Int]
  var count = 0
  var checksum = 0
  /// Events reduced out of their sender's order, or twice: must stay 0.
  var outOfOrder = 0

  init(senders: Int) {
    lastSequence = Array(repeating: -1, count: senders)
  }

  static func reduce(_ ledger: inout SenderLedger, _ event: Numbered) {
    if event.sequence != ledger.lastSequence[event.sender] + 1 { ledger.outOfOrder += 1 }
    ledger.lastSequence[event.sender] = event.sequence
    ledger.count += 1
    ledger.checksum &+= event.sender &* 1_000_003 &+ event.sequence
  }

  /// The ledger after every sender sent `events` events in order.
  static func expected(senders: Int, events: Int) -> SenderLedger {
    var ledger = SenderLedger(senders: senders)
    for sender in 0..<senders {
      for sequence in 0..<events {
        reduce(&ledger, Numbered(sender: sender, sequence: sequence))
      }
    }
    return ledger
  }
}

@Suite(.timeLimit(.minutes(5)))
struct ConcurrencyStressTests {
  /// Sends `events` numbered events from each of `senders` tasks, which all start at once.
  static func send(
    _ events: Int, fromEachOf senders: Int, to send: @escaping @Sendable (Numbered) async -> Void
  ) async {
    // Every sender waits at the gate, so all of them start sending at once.
    let start = Gate()
    let ready = Tally()
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          ready.increment()
          await start.wait()
          for sequence in 0..<events {
            await send(Numbered(sender: sender, sequence: sequence))
          }
        }
      }
      await ready.wait(untilAtLeast: senders)
      start.open()
    }
  }

  @Test func eightSendersOfAHundredThousandEventsEachAreReducedExactlyOnceInOrder() async {
    let senders = 8
    let events = StressLoad.scaled(100_000)
    let system = await BackgroundSystem<SenderLedger, Numbered, Never, EmptyContext>(
      initialState: SenderLedger(senders: senders),
      context: EmptyContext(),
      reduce: SenderLedger.reduce
    )
    await Self.send(events, fromEachOf: senders) { await system.send($0) }
    let ledger = await system.state
    #expect(ledger.outOfOrder == 0)
    #expect(ledger.count == senders * events)
    #expect(ledger == SenderLedger.expected(senders: senders, events: events))
  }

  @MainActor
  @Test func eightSendersHoppingToTheMainActorAreReducedExactlyOnceInOrder() async {
    let senders = 8
    let events = StressLoad.scaled(10_000)
    let system = System<SenderLedger, Numbered, Never, EmptyContext>(
      initialState: SenderLedger(senders: senders),
      context: EmptyContext(),
      reduce: SenderLedger.reduce
    )
    await Self.send(events, fromEachOf: senders) { await system.send($0) }
    #expect(system.state == SenderLedger.expected(senders: senders, events: events))
  }
}

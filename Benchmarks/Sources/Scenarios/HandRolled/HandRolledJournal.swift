/// One step of the hand-rolled journal: when, the event, and the state before and after.
struct HandRolledJournalEntry {
  /// When the step happened.
  var time: ContinuousClock.Instant
  /// The event reduced.
  var event: CounterEvent
  /// The state before the step.
  var before: Int
  /// The state after it.
  var after: Int
}

/// The journal scenario on ``HandRolledStore``: the baseline of `JournalCounterFixture`.
///
/// The counter with a log of its last 1,000 steps, kept as values in a ring written by hand:
/// the time, the event, the state before and after (the library keeps the change, described
/// as text, and the event's origin).
@MainActor
public final class HandRolledJournalFixture {
  private let store: HandRolledStore<Int, CounterEvent>
  private var ring: [HandRolledJournalEntry] = []
  private var next = 0

  /// Creates the store with one subscriber and an empty log.
  public init() {
    store = HandRolledStore(
      initialState: 0,
      reduce: { state, event in state = reduceCounter(state, event) }
    )
    ring.reserveCapacity(1_000)
    store.subscribe { state in consume(state) }
  }

  /// Sends `count` events, logging each step.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for index in 0..<count {
      let event = counterEvents[index & 1_023]
      let before = store.state
      store.send(event)
      log(HandRolledJournalEntry(time: .now, event: event, before: before, after: store.state))
    }
  }

  private func log(_ entry: HandRolledJournalEntry) {
    if ring.count < 1_000 {
      ring.append(entry)
    } else {
      ring[next] = entry
    }
    next = next == 999 ? 0 : next + 1
  }
}

public import ArchitectureKit

/// The counter of `counter-1` with a journal attached: what recording costs per step, in memory
/// (the ring of the last steps) or written to a file as it goes.
@MainActor
public final class JournalCounterFixture {
  private let system: CounterSystem

  /// Creates the counter with one UI binding and a journal of the last 1,000 steps, kept in
  /// memory, and written to `path` when one is given.
  ///
  /// - Parameter path: The journal file, or `nil` for memory only.
  /// - Throws: A ``JournalError`` when the file cannot be written.
  public init(writingTo path: String? = nil) throws(JournalError) {
    let journal =
      try path.map { path throws(JournalError) in
        try Journal<Int, CounterEvent>(writingTo: path, capacity: 1_000)
      } ?? Journal<Int, CounterEvent>(capacity: 1_000)
    system = CounterSystem(
      initialState: 0,
      context: EmptyContext(),
      feature: Feature(reducer: { state, event in reduceCounter(state, event) }),
      journal: journal
    )
    system.addUIBinding { state in consume(state) }
  }

  /// Sends `count` events through `System.send(_:)`.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for index in 0..<count {
      system.send(counterEvents[index & 1_023])
    }
  }
}

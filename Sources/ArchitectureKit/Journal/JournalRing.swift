/// The last steps of a journal in memory: each step with the records that follow it (the
/// effects its reconciliation started and cancelled, those that ended before the next step).
///
/// Appending is amortized constant time: the oldest step is dropped by moving a start index,
/// and the array is compacted once the dropped part is most of it.
struct JournalRing<Entry> {
  /// How many steps it keeps; 0 keeps nothing.
  let capacity: Int
  /// The entries; those before ``head`` are dropped.
  private var entries: [Entry] = []
  private var head = 0
  /// The positions in ``entries`` of the steps kept, from ``stepHead`` on.
  private var steps: [Int] = []
  private var stepHead = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The entries kept, oldest first.
  var kept: ArraySlice<Entry> {
    entries[head...]
  }

  /// Appends an entry; a step beyond the capacity drops the oldest step kept, with everything
  /// before the next one.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - isStep: Whether it is a step.
  ///   - returningDropped: Whether the caller wants the step dropped (a copy of it).
  /// - Returns: The step dropped, if any and if asked for.
  mutating func append(_ entry: consuming Entry, isStep: Bool, returningDropped: Bool) -> Entry? {
    guard capacity > 0 else { return isStep && returningDropped ? entry : nil }
    var dropped: Entry?
    if isStep {
      if steps.count - stepHead == capacity {
        if returningDropped { dropped = entries[steps[stepHead]] }
        stepHead += 1
        head = stepHead < steps.count ? steps[stepHead] : entries.count
      }
      steps.append(entries.count)
    }
    entries.append(entry)
    if head >= 64, head * 2 >= entries.count { compact() }
    return dropped
  }

  /// Drops the storage of what was dropped.
  private mutating func compact() {
    entries.removeFirst(head)
    steps.removeFirst(stepHead)
    for index in steps.indices { steps[index] -= head }
    head = 0
    stepHead = 0
  }
}

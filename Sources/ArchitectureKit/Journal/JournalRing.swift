/// The last steps of a journal in memory: each step with the records that follow it (the
/// effects its reconciliation started and cancelled, those that ended before the next step).
///
/// The entries sit in a circular buffer: appending and dropping the oldest step are constant
/// time (amortized, for the buffer's growth), nothing kept is moved again until the buffer
/// grows, and a dropped entry is released at once, with the state and event it holds.
///
/// The buffer is memory of its own rather than an array of optionals (see PerformanceLedger:
/// the journal's ring): an entry is moved in and destroyed where it lies, without an optional's
/// checks through the entry's value witnesses. **Invariant**: the `count` slots from `first`
/// on, wrapping round, hold entries, and no other slot does; the ring belongs to one journal,
/// which uses it under its lock.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the ring is used under its journal's lock, one call
/// at a time, and what its methods call while they hold one (the standard library, the
/// deinitializers of the values a dropped entry held) can reach the ring only through that
/// journal, whose lock is held: a deinitializer that used the journal would wait for the lock
/// forever, as it would have when the array was compacted, never reach the ring.
@usableFromInline
final class JournalRing<Entry> {
  /// How many steps it keeps; 0 keeps nothing.
  @usableFromInline let capacity: Int
  /// The buffer, `size` slots long (a power of two, or 0).
  @exclusivity(unchecked) @usableFromInline var slots: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) @usableFromInline var size = 0
  /// The slot of the oldest entry kept, and how many are kept.
  @exclusivity(unchecked) @usableFromInline var first = 0
  @exclusivity(unchecked) @usableFromInline var count = 0
  /// How many entries were dropped since the start: the entry at position `p` of the history
  /// is `p - dropped` slots after `first`.
  @exclusivity(unchecked) @usableFromInline var dropped = 0
  /// The positions in the history of the steps kept, from ``stepHead`` on.
  @exclusivity(unchecked) @usableFromInline var steps: [Int] = []
  @exclusivity(unchecked) @usableFromInline var stepHead = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
    slots = UnsafeMutablePointer.allocate(capacity: 0)
  }

  deinit {
    dropFirst(count)
    slots.deallocate()
  }

  /// The entries kept, oldest first.
  var kept: [Entry] {
    (0..<count).map { slots[slot($0)] }
  }

  /// Appends an entry; a step beyond the capacity drops the oldest step kept, with everything
  /// before the next one.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - isStep: Whether it is a step.
  ///   - returningDropped: Whether the caller wants the step dropped (a copy of it).
  /// - Returns: The step dropped, if any and if asked for.
  @inlinable
  func append(_ entry: consuming Entry, isStep: Bool, returningDropped: Bool) -> Entry? {
    guard capacity > 0 else { return isStep && returningDropped ? entry : nil }
    var droppedStep: Entry?
    if isStep {
      if steps.count - stepHead == capacity {
        if returningDropped { droppedStep = slots[slot(steps[stepHead] - dropped)] }
        stepHead += 1
        dropFirst((stepHead < steps.count ? steps[stepHead] : dropped + count) - dropped)
        if stepHead >= 64, stepHead * 2 >= steps.count {
          steps.removeFirst(stepHead)
          stepHead = 0
        }
      }
      steps.append(dropped + count)
    }
    if count == size { grow() }
    (slots + slot(count)).initialize(to: entry)
    count += 1
    return droppedStep
  }

  /// The slot of the entry `offset` places after the oldest one kept.
  @inlinable
  func slot(_ offset: Int) -> Int {
    (first + offset) & (size - 1)
  }

  /// Drops the oldest `n` entries kept, destroying them.
  @inlinable
  func dropFirst(_ n: Int) {
    assert(n <= count, "dropping more entries than the ring keeps")
    for _ in 0..<n {
      (slots + first).deinitialize(count: 1)
      first = slot(1)
    }
    count -= n
    dropped += n
  }

  /// Doubles the buffer, moving the entries kept to its start.
  @usableFromInline
  func grow() {
    let grown = UnsafeMutablePointer<Entry>.allocate(capacity: max(16, size * 2))
    for offset in 0..<count {
      (grown + offset).moveInitialize(from: slots + slot(offset), count: 1)
    }
    slots.deallocate()
    slots = grown
    size = max(16, size * 2)
    first = 0
  }
}

/// The last steps of a journal in memory: each step with the records that follow it (the
/// effects its reconciliation started and cancelled, those that ended before the next step).
///
/// Steps and the other records sit in two circular buffers (``RingBuffer``): a step in its
/// system's own types (``JournalStep``), any other record as a ``JournalEntry`` beside the
/// number of steps before it, which places it among the steps. Appending and dropping the
/// oldest step are constant time (amortized, for the buffers' growth), and a dropped step is
/// released at once, with the state and event it holds and the records before the next step.
///
/// Two buffers rather than one of an enum of both (see PerformanceLedger: the journal's ring):
/// an entry holds `Any`, which made such an enum a type only its value witnesses could copy
/// and destroy, even in code specialized for the system's types, and a counter's step paid
/// about 200 instructions for it. A ``JournalStep`` of plain values is destroyed in a few.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the ring is used under its journal's lock, one call
/// at a time, and what its methods call while they hold one (the standard library, the
/// deinitializers of the values a dropped record held) can reach the ring only through that
/// journal, whose lock is held: a deinitializer that used the journal would wait for the lock
/// forever, never reach the ring.
@usableFromInline
final class JournalRing<State, Event> {
  /// A record other than a step, with the number of steps recorded before it.
  @usableFromInline
  struct Placed {
    @usableFromInline let stepsBefore: Int
    @usableFromInline let entry: JournalEntry

    @usableFromInline
    init(stepsBefore: Int, entry: consuming JournalEntry) {
      self.stepsBefore = stepsBefore
      self.entry = entry
    }
  }

  /// How many steps it keeps; 0 keeps nothing.
  @usableFromInline let capacity: Int
  /// The steps kept, oldest first.
  @exclusivity(unchecked) @usableFromInline var steps = RingBuffer<JournalStep<State, Event>>()
  /// The other records kept, oldest first.
  @exclusivity(unchecked) @usableFromInline var others = RingBuffer<Placed>()
  /// How many steps were dropped since the start.
  @exclusivity(unchecked) @usableFromInline var droppedSteps = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The records kept, oldest first, as the journal writes them.
  var kept: [JournalEntry] {
    var entries: [JournalEntry] = []
    entries.reserveCapacity(steps.count + others.count)
    var other = 0
    /// Appends the other records not yet appended that came after at most `stepCount` steps.
    func appendOthers(after stepCount: Int) {
      while other < others.count, others[other].stepsBefore <= stepCount {
        entries.append(others[other].entry)
        other += 1
      }
    }
    for offset in 0..<steps.count {
      // The records before this step: those recorded after fewer steps than its position.
      appendOthers(after: droppedSteps + offset)
      entries.append(steps[offset].entry)
    }
    appendOthers(after: .max)
    return entries
  }

  /// Appends a step; a step beyond the capacity drops the oldest one kept, with the records
  /// before the next one.
  ///
  /// Returns nothing, unlike ``appendReturningDropped(_:)``: the common path, which no
  /// optional step passes through (an optional step is copied and destroyed through its value
  /// witnesses).
  @inlinable
  func append(_ step: consuming JournalStep<State, Event>) {
    guard capacity > 0 else { return }
    if steps.count == capacity {
      dropOldestStep()
    }
    steps.append(step)
  }

  /// Appends a step, as `append(_:)` does, and returns the step it dropped, if any.
  @usableFromInline
  func appendReturningDropped(
    _ step: consuming JournalStep<State, Event>
  ) -> JournalStep<State, Event>? {
    guard capacity > 0 else { return step }
    var dropped: JournalStep<State, Event>?
    if steps.count == capacity {
      dropped = steps.first
      dropOldestStep()
    }
    steps.append(step)
    return dropped
  }

  /// Drops the oldest step kept, with the records before the next one.
  @inlinable
  func dropOldestStep() {
    if steps.first.holdsOnlyPlainValues {
      steps.dropFirstWithoutDestroying()
    } else {
      steps.dropFirst()
    }
    droppedSteps += 1
    if !others.isEmpty { dropOthersOfDroppedSteps() }
  }

  /// Appends a record other than a step, after the steps kept.
  @inlinable
  func append(_ entry: consuming JournalEntry) {
    guard capacity > 0 else { return }
    others.append(Placed(stepsBefore: droppedSteps + steps.count, entry: entry))
  }

  /// Drops the records that were before the oldest step kept.
  @usableFromInline
  func dropOthersOfDroppedSteps() {
    while !others.isEmpty, others[0].stepsBefore <= droppedSteps {
      others.dropFirst()
    }
  }
}

/// A first-in, first-out buffer that grows by doubling: appending and dropping the oldest
/// element are constant time (amortized), and nothing kept moves until the buffer grows.
///
/// Memory of its own rather than an array of optionals: an element is moved in and destroyed
/// where it lies. **Invariant**: the `count` slots from `head` on, wrapping round, hold
/// elements, and no other slot does; `size` is 0 or a power of two.
@usableFromInline
struct RingBuffer<Element>: ~Copyable {
  /// The buffer, `size` slots long.
  @usableFromInline var slots: UnsafeMutablePointer<Element>
  @usableFromInline var size = 0
  /// The slot of the oldest element, and how many are kept.
  @usableFromInline var head = 0
  @usableFromInline var count = 0

  @usableFromInline
  init() {
    slots = UnsafeMutablePointer.allocate(capacity: 0)
  }

  @inlinable
  deinit {
    for offset in 0..<count {
      (slots + ((head + offset) & (size - 1))).deinitialize(count: 1)
    }
    slots.deallocate()
  }

  @inlinable var isEmpty: Bool { count == 0 }

  /// The element `offset` places after the oldest one.
  @inlinable
  subscript(offset: Int) -> Element {
    _read { yield slots[slot(offset)] }
  }

  /// The slot of the element `offset` places after the oldest one.
  @inlinable
  func slot(_ offset: Int) -> Int {
    (head + offset) & (size - 1)
  }

  /// Appends an element.
  @inlinable
  mutating func append(_ element: consuming Element) {
    if count == size { grow() }
    (slots + slot(count)).initialize(to: element)
    count += 1
  }

  /// The oldest element.
  @inlinable
  var first: Element {
    _read {
      assert(count > 0, "reading an element of an empty ring buffer")
      yield slots[head]
    }
  }

  /// Destroys the oldest element.
  @inlinable
  mutating func dropFirst() {
    assert(count > 0, "dropping an element of an empty ring buffer")
    (slots + head).deinitialize(count: 1)
    head = slot(1)
    count -= 1
  }

  /// Forgets the oldest element without destroying it: for an element that holds only plain
  /// values (no reference, no storage of a collection), whose destruction does nothing but
  /// costs calls through its type's value witnesses.
  ///
  /// - Precondition: The element holds only plain values.
  @inlinable
  mutating func dropFirstWithoutDestroying() {
    assert(count > 0, "dropping an element of an empty ring buffer")
    head = slot(1)
    count -= 1
  }

  /// Doubles the buffer, moving the elements to its start.
  @usableFromInline
  mutating func grow() {
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: max(16, size * 2))
    for offset in 0..<count {
      (grown + offset).moveInitialize(from: slots + slot(offset), count: 1)
    }
    slots.deallocate()
    slots = grown
    size = max(16, size * 2)
    head = 0
  }
}

/// The storage of a ``KeyedRequests`` value: its requests and the journal of the keys whose
/// request changed, newest last.
///
/// A journal entry's stamp is unique in the process and stamps grow along every journal, so a
/// stamp names one moment of one history. Values share a storage until one of them is
/// mutated, which copies it whole, journal included, and the copy stamps its own entries from
/// then on. So when a storage's journal holds stamp `s`, its history up to `s` is exactly the
/// history of every value whose latest stamp was `s`, and the keys changed since that value are
/// the entries after `s`. A stamp from another branch of a copy is in no other branch's
/// journal, and a stamp dropped by compaction is no longer found: the reconciler then compares
/// everything.
///
/// - Invariant: the storage is mutated only through a ``KeyedRequests`` that holds the only
///   strong reference to it (`isKnownUniquelyReferenced`), so no two threads ever see it change;
///   shared storages are only read. That is what makes the `@unchecked Sendable` conformance
///   sound, as for the standard library's copy-on-write collections. `KeyedRequestsTests`
///   mutates copies of one storage from many tasks at once under the thread sanitizer.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: a shared storage is only read, and a unique one is
/// changed by one ``KeyedRequests`` mutation at a time, which calls no code of the user's while
/// it holds an access.
@usableFromInline
final class KeyedRequestsStorage<Key: Hashable & Sendable, Request: Equatable & Sendable>:
  @unchecked Sendable
{
  /// The requests.
  @exclusivity(unchecked) @usableFromInline var entries: [Key: Request]
  /// The journal of the keys whose request changed.
  @exclusivity(unchecked) @usableFromInline var journal: ChangeJournal<Key>

  /// Creates a storage with a fresh history.
  @usableFromInline
  init(entries: [Key: Request]) {
    self.entries = entries
    self.journal = ChangeJournal()
  }

  /// Creates a copy of `other` that continues its history with stamps of its own.
  @usableFromInline
  init(copying other: KeyedRequestsStorage) {
    self.entries = other.entries
    self.journal = other.journal.continued()
  }

  /// Appends a change of `key` to the journal; `removed` says the key's request was removed.
  @inlinable
  func record(_ key: Key, removed: Bool = false) {
    journal.record(key, removed: removed, entryCount: entries.count)
  }
}

/// The journal of a collection's changes, newest last: what a ``KeyedRequests`` or a
/// ``RequestSet`` records of each mutation, and what its feedback reads since the moment it
/// last looked.
///
/// A journal entry's stamp is unique in the process and stamps grow along every journal, so a
/// stamp names one moment of one history (see `KeyedRequestsStorage`). A storage stamps its
/// entries with consecutive sequence numbers of its own serial, so the journal keeps no stamp
/// per entry: only where each storage's *run* of entries starts, and its first stamp (one run,
/// plus one per copy the history went through). An entry's stamp is its run's first stamp
/// advanced by its distance from the run's start (see PerformanceLedger: the KeyedRequests
/// journal).
@usableFromInline
struct ChangeJournal<Change> {
  /// Entries of one storage, stamped with consecutive sequence numbers of its serial.
  @usableFromInline
  struct Run {
    /// The position of the run's first entry in ``ChangeJournal/changes``.
    @usableFromInline var start: Int
    /// The stamp of the run's first entry.
    @usableFromInline var first: JournalStamp

    @inlinable
    init(start: Int, first: JournalStamp) {
      self.start = start
      self.first = first
    }
  }

  /// The journal's changes; a key changed several times is in it several times.
  @usableFromInline var changes: [Change]
  /// The runs the changes form, in order; the first starts at 0 unless there is no change.
  @usableFromInline var runs: [Run]
  /// The stamp of the moment just before the journal's first entry: the storage's creation, or
  /// the last entry compaction dropped.
  @usableFromInline var base: JournalStamp
  /// The latest stamp this journal made; the next entry takes the one after it.
  @usableFromInline var latest: JournalStamp
  /// The stamp of the latest change, or ``base`` when there is none: names this moment of the
  /// history.
  @usableFromInline var mark: JournalStamp
  /// The mark before the latest change: what a reconciler that saw everything but that change
  /// holds (``removedAlone(since:)``).
  @usableFromInline var markBeforeLast: JournalStamp
  /// Whether the next change starts a run: a fresh storage's first, or a copy's.
  @usableFromInline var startsRun = true
  /// Whether the journal's last entry removed its key: a reconciler that finds only that entry
  /// since its mark knows the key has no request without looking it up
  /// (``removedAlone(since:)``).
  @usableFromInline var lastEntryRemoved = false

  /// A journal with a fresh history.
  @usableFromInline
  init() {
    let stamp = JournalStamp.fresh()
    self.changes = []
    self.runs = []
    self.base = stamp
    self.latest = stamp
    self.mark = stamp
    self.markBeforeLast = stamp
  }

  /// A copy that continues this history with stamps of its own.
  @usableFromInline
  func continued() -> ChangeJournal {
    var copy = self
    copy.latest = JournalStamp.fresh()
    copy.startsRun = true
    return copy
  }

  /// Appends a change.
  ///
  /// - Parameters:
  ///   - change: The change: a key, or an element and its hash.
  ///   - removed: Whether it removed its key.
  ///   - entryCount: How many entries the collection holds.
  /// - Complexity: Amortized O(1): the journal drops its older half when it outgrows
  ///   `max(64, entryCount)`.
  @inlinable
  mutating func record(_ change: Change, removed: Bool, entryCount: Int) {
    lastEntryRemoved = removed
    latest = latest.next
    if startsRun {
      startsRun = false
      runs.append(Run(start: changes.count, first: latest))
    }
    markBeforeLast = mark
    mark = latest
    changes.append(change)
    if changes.count > Swift.max(64, entryCount) { compact() }
  }

  /// The stamp of the change at `position`, in the run that starts at or before it.
  @inlinable
  func stamp(at position: Int, inRun run: Int) -> JournalStamp {
    let first = runs[run].first
    return JournalStamp(
      serial: first.serial, sequence: first.sequence + UInt64(position - runs[run].start))
  }

  /// Drops the older half of the journal; a mark in it is then no longer found.
  ///
  /// Inlinable, so that it runs specialized: unspecialized, it looked up the generic metadata
  /// of its arrays on every call.
  @inlinable @inline(never)
  mutating func compact() {
    let dropped = changes.count / 2
    // The run of the last dropped change, and of the first kept one.
    var run = runs.count - 1
    while runs[run].start > dropped - 1 { run -= 1 }
    base = stamp(at: dropped - 1, inRun: run)
    if run + 1 < runs.count, runs[run + 1].start == dropped {
      run += 1
    } else {
      runs[run] = Run(start: dropped, first: stamp(at: dropped, inRun: run))
    }
    runs.removeFirst(run)
    for index in runs.indices { runs[index].start -= dropped }
    changes.removeFirst(dropped)
  }

  /// The journal's last change when it removed its key and is the only one after the moment
  /// `mark` names; otherwise `nil`.
  ///
  /// - Complexity: O(1).
  @inlinable
  func removedAlone(since mark: JournalStamp) -> Change? {
    guard lastEntryRemoved, mark == markBeforeLast, let last = changes.last else { return nil }
    return last
  }

  /// The changes since the moment `mark` names, or `nil` when this history does not reach
  /// back to it.
  ///
  /// - Complexity: O(*r*), where *r* is the number of runs: 1, plus one per copy of the
  ///   collection the journal's history went through.
  @inlinable
  func changes(since mark: JournalStamp) -> ArraySlice<Change>? {
    if mark == base { return changes[...] }
    var end = changes.count
    for run in runs.reversed() {
      if run.first.serial == mark.serial, mark.sequence >= run.first.sequence {
        let distance = mark.sequence - run.first.sequence
        guard distance < UInt64(end - run.start) else { return nil }
        return changes[(run.start + Int(distance) + 1)...]
      }
      end = run.start
    }
    return nil
  }
}

/// A moment in the history of a ``KeyedRequests`` value: unique in the process, and growing
/// along every journal.
///
/// A stamp is a storage's serial, unique and growing (taken under a lock when the storage is
/// made), and the count of changes that storage made. A storage made later has a larger serial
/// than every stamp it inherits, so stamps grow along every journal, and the lock is taken once
/// per storage, not once per change.
@usableFromInline
package struct JournalStamp: Comparable, Sendable {
  @usableFromInline let serial: UInt64
  @usableFromInline let sequence: UInt64

  @usableFromInline
  init(serial: UInt64, sequence: UInt64) {
    self.serial = serial
    self.sequence = sequence
  }

  /// The stamp after this one, in the same storage.
  @inlinable
  var next: JournalStamp {
    JournalStamp(serial: serial, sequence: sequence + 1)
  }

  /// The first stamp of a new storage.
  @usableFromInline
  static func fresh() -> JournalStamp {
    let serial = journalSerials.withLock { last in
      last += 1
      return last
    }
    return JournalStamp(serial: serial, sequence: 0)
  }

  @inlinable
  package static func < (lhs: JournalStamp, rhs: JournalStamp) -> Bool {
    (lhs.serial, lhs.sequence) < (rhs.serial, rhs.sequence)
  }
}

/// The last storage serial handed out.
private let journalSerials = Lock<UInt64>(0)

/// A hash table that keeps each key's hash beside it, so that the hash computed once — when a
/// ``RequestSet`` inserts or removes an element — serves every later lookup, move and removal
/// of that key: the set's own, the journal's, and the feedback's table of running effects.
///
/// Open addressing with linear probing; a removal shifts the following entries back rather
/// than leaving a tombstone, reading their stored hashes instead of hashing them again (see
/// PerformanceLedger: hashes kept beside their keys).
///
/// It is not a value: it owns its memory, which its owner frees with ``deallocate()`` in its
/// `deinit`, and copies with ``copy()``. **Invariant**: `hashes[slot] == 0` exactly when the slot
/// holds no entry; a stored hash is never 0 (``hash(of:)``); every key is in the run of
/// occupied slots that starts at its hash's slot; fewer than three slots in four are occupied,
/// so a probe always meets an empty slot.
@usableFromInline
struct HashSlots<Key: Hashable, Value> {
  @usableFromInline typealias Entry = (key: Key, value: Value)

  /// Each slot's hash, 0 when it is empty; `capacity` of them, or none.
  @usableFromInline var hashes: UnsafeMutablePointer<Int>?
  /// Each slot's entry, initialized where its hash is not 0.
  @usableFromInline var entries: UnsafeMutablePointer<Entry>?
  /// The number of slots: 0, or a power of two of at least 8.
  @usableFromInline var capacity = 0
  /// The number of entries.
  @usableFromInline var count = 0

  @inlinable
  init() {}

  /// The hash a key is stored and looked up with: its `hashValue`, never 0.
  @inlinable
  static func hash(of key: Key) -> Int {
    let hash = key.hashValue
    return hash == 0 ? 1 : hash
  }

  @inlinable var isEmpty: Bool { count == 0 }

  /// The slot of `key`, whose hash is `hash`, or `nil` when the table does not hold it.
  @inlinable
  func slot(of key: Key, hash: Int) -> Int? {
    guard count > 0 else { return nil }
    let hashes = hashes.unsafelyUnwrapped
    let entries = entries.unsafelyUnwrapped
    let mask = capacity &- 1
    var slot = hash & mask
    while true {
      let stored = hashes[slot]
      if stored == 0 { return nil }
      if stored == hash, entries[slot].key == key { return slot }
      slot = (slot &+ 1) & mask
    }
  }

  /// The slot of `key`, or `nil` when the table does not hold it.
  @inlinable
  func slot(of key: Key) -> Int? {
    guard count > 0 else { return nil }
    return slot(of: key, hash: Self.hash(of: key))
  }

  /// Whether the table holds `key`.
  @inlinable
  func contains(_ key: Key) -> Bool {
    slot(of: key) != nil
  }

  /// The entry in an occupied slot, read in place: reading one of its fields copies that
  /// field only.
  @inlinable
  subscript(slot slot: Int) -> Entry {
    unsafeAddress { UnsafePointer(entries.unsafelyUnwrapped + slot) }
  }

  /// The hash stored in a slot, 0 when it is empty.
  @inlinable
  func hash(at slot: Int) -> Int {
    hashes.unsafelyUnwrapped[slot]
  }

  /// The first occupied slot at or after `slot`, or ``capacity`` when there is none.
  @inlinable
  func occupiedSlot(from slot: Int) -> Int {
    var slot = slot
    while slot < capacity, hashes.unsafelyUnwrapped[slot] == 0 { slot &+= 1 }
    return slot
  }

  /// The occupied slots, in order; the table must not change while they are walked.
  @inlinable
  var occupiedSlots: OccupiedSlots {
    OccupiedSlots(table: self)
  }

  /// The keys of the occupied slots that `isIncluded` accepts, in slot order.
  @inlinable
  func keys(where isIncluded: (_ slot: Int) -> Bool) -> [Key] {
    var keys: [Key] = []
    for slot in occupiedSlots where isIncluded(slot) { keys.append(self[slot: slot].key) }
    return keys
  }

  /// The occupied slots of a table, in order.
  @usableFromInline
  struct OccupiedSlots: Sequence, IteratorProtocol {
    @usableFromInline let table: HashSlots
    @usableFromInline var slot = 0

    @inlinable
    init(table: HashSlots) {
      self.table = table
    }

    @inlinable
    mutating func next() -> Int? {
      slot = table.occupiedSlot(from: slot)
      guard slot < table.capacity else { return nil }
      defer { slot &+= 1 }
      return slot
    }
  }

  /// Inserts a key the table does not hold, with its hash, and returns its slot.
  @inlinable
  @discardableResult
  mutating func insertNew(_ key: Key, _ value: Value, hash: Int) -> Int {
    assert(slot(of: key, hash: hash) == nil, "a key inserted twice in a hash table")
    if (count &+ 1) &* 4 > capacity &* 3 { grow() }
    let hashes = hashes.unsafelyUnwrapped
    let mask = capacity &- 1
    var slot = hash & mask
    while hashes[slot] != 0 { slot = (slot &+ 1) & mask }
    hashes[slot] = hash
    (entries.unsafelyUnwrapped + slot).initialize(to: (key, value))
    count &+= 1
    return slot
  }

  /// Removes the entry in an occupied slot and returns it; the entries after it in its run
  /// move back, so that no probe stops short of them.
  @inlinable
  @discardableResult
  mutating func remove(at slot: Int) -> Entry {
    let hashes = hashes.unsafelyUnwrapped
    let entries = entries.unsafelyUnwrapped
    let mask = capacity &- 1
    let removed = (entries + slot).move()
    var hole = slot
    var next = (slot &+ 1) & mask
    while hashes[next] != 0 {
      // The entry at `next` may fill the hole unless its own slot lies after the hole.
      if (next &- hashes[next]) & mask >= (next &- hole) & mask {
        hashes[hole] = hashes[next]
        (entries + hole).moveInitialize(from: entries + next, count: 1)
        hole = next
      }
      next = (next &+ 1) & mask
    }
    hashes[hole] = 0
    count &-= 1
    return removed
  }

  /// Doubles the slots (or makes the first 8), moving each entry by its stored hash.
  @inlinable @inline(never)
  mutating func grow() {
    var grown = HashSlots(capacity: Swift.max(8, capacity &* 2))
    if let hashes, let entries {
      for slot in 0..<capacity where hashes[slot] != 0 {
        grown.moveIn(from: entries + slot, hash: hashes[slot])
      }
      hashes.deallocate()
      entries.deallocate()
    }
    grown.count = count
    self = grown
  }

  /// Empty slots, `capacity` of them (a power of two).
  @inlinable
  init(capacity: Int) {
    let hashes = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    hashes.initialize(repeating: 0, count: capacity)
    self.hashes = hashes
    self.entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
    self.capacity = capacity
  }

  /// Empty slots enough for `count` entries.
  @inlinable
  init(minimumCount count: Int) {
    var capacity = 8
    while count &* 4 > capacity &* 3 { capacity &*= 2 }
    self.init(capacity: capacity)
  }

  /// Moves an entry into its first free slot, without counting it.
  @inlinable
  func moveIn(from source: UnsafeMutablePointer<Entry>, hash: Int) {
    let hashes = hashes.unsafelyUnwrapped
    let mask = capacity &- 1
    var slot = hash & mask
    while hashes[slot] != 0 { slot = (slot &+ 1) & mask }
    hashes[slot] = hash
    (entries.unsafelyUnwrapped + slot).moveInitialize(from: source, count: 1)
  }

  /// A table of its own with the same entries in the same slots.
  @inlinable
  func copy() -> HashSlots {
    guard let hashes, let entries else { return HashSlots() }
    var copy = HashSlots(capacity: capacity)
    let copiedHashes = copy.hashes.unsafelyUnwrapped
    let copiedEntries = copy.entries.unsafelyUnwrapped
    copiedHashes.update(from: hashes, count: capacity)
    for slot in 0..<capacity where hashes[slot] != 0 {
      (copiedEntries + slot).initialize(to: entries[slot])
    }
    copy.count = count
    return copy
  }

  /// Destroys every entry and frees the memory: the table is empty afterwards.
  ///
  /// Plain entries (`_isPOD`, such as a `RequestSet<Int>`'s) need no destroying, and an empty
  /// table has none: neither walks its slots.
  @inlinable
  mutating func deallocate() {
    guard let hashes, let entries else { return }
    if count > 0, !_isPOD(Entry.self) {
      for slot in 0..<capacity where hashes[slot] != 0 {
        (entries + slot).deinitialize(count: 1)
      }
    }
    hashes.deallocate()
    entries.deallocate()
    self = HashSlots()
  }
}

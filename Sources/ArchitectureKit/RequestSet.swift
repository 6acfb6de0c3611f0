/// A set of requests for a state to hold: a `Set` that remembers which elements came and went,
/// so a feedback over it costs the elements that changed, not the set.
///
/// It reads and writes like a `Set`. Keep it in the state and give it to
/// ``Feedback/react(requests:effect:)-((State)->RequestSet<Request>,_)``:
///
/// ```swift
/// struct State {
///   var pending: RequestSet<ItemID> = []
/// }
///
/// // In the reducer:
/// state.pending.insert(item)   // starts the item's work
/// state.pending.remove(item)   // cancels it, or forgets it once its result came back
///
/// Feedback<State, Event, Never, Context>.react(
///   requests: \.pending,
///   effect: .run { item, context in .loaded(item, await context.store.load(item)) }
/// )
/// ```
///
/// A feedback over a `Set` compares the whole set whenever it changed, so a fan-out of 1,000
/// effects whose results each remove their element costs 1,000 comparisons per result. Over a
/// `RequestSet`, each insertion and removal is written to a journal (as a ``KeyedRequests``
/// does), and the feedback reads only the entries since its last step: a result costs one
/// element, however large the set.
///
/// That holds while the value in the state is *mutated in place*. A value built afresh
/// (`state.pending = RequestSet(items)`), or an older copy put back, has another history: the
/// feedback then compares the whole set once, and is back to the cost of the changes from the
/// next step on. Like `Set`, it is a value with copy-on-write storage, so a state that
/// something else keeps a copy of (an observer that receives previous states, a test that
/// compares them) copies the set on every change, as a `Set` would.
///
/// Each element is hashed once when it is inserted and once when it is removed: the set keeps
/// its hash beside it, and its journal and the feedback's table of running effects use that
/// hash rather than hashing the element again.
public struct RequestSet<Request: Hashable & Sendable> {
  /// The elements and the journal of their insertions and removals.
  @usableFromInline var storage: RequestSetStorage<Request>

  /// Creates an empty set.
  @inlinable
  public init() {
    storage = RequestSetStorage()
  }

  /// Creates a set of the elements of a sequence; duplicates are kept once.
  ///
  /// - Parameter elements: The requests.
  @inlinable
  public init(_ elements: some Sequence<Request>) {
    storage = RequestSetStorage()
    let count = elements.underestimatedCount
    if count > 0 { storage.slots = Slots(minimumCount: count) }
    for element in elements {
      let hash = Slots.hash(of: element)
      if storage.slots.slot(of: element, hash: hash) == nil {
        storage.slots.insertNew(element, (), hash: hash)
      }
    }
  }

  /// Whether the set holds `request`.
  ///
  /// - Parameter request: The request to look for.
  /// - Returns: `true` when it is in the set.
  @inlinable
  public func contains(_ request: Request) -> Bool {
    storage.slots.slot(of: request) != nil
  }

  /// Adds `request` if it is not in the set yet.
  ///
  /// - Parameter request: The request to add.
  /// - Returns: `true` when it was added, `false` when the set held it already.
  @inlinable
  @discardableResult
  public mutating func insert(_ request: Request) -> Bool {
    let hash = Slots.hash(of: request)
    guard storage.slots.slot(of: request, hash: hash) == nil else { return false }
    makeUnique()
    storage.slots.insertNew(request, (), hash: hash)
    storage.record(HashedRequest(request: request, hash: hash), removed: false)
    return true
  }

  /// Removes `request` from the set.
  ///
  /// - Parameter request: The request to remove.
  /// - Returns: The removed request, or `nil` when the set did not hold it.
  @inlinable
  @discardableResult
  public mutating func remove(_ request: Request) -> Request? {
    let hash = Slots.hash(of: request)
    // A slot stays valid when the storage is copied: the copy keeps every entry in its slot.
    guard let slot = storage.slots.slot(of: request, hash: hash) else { return nil }
    makeUnique()
    let removed = storage.slots.remove(at: slot).key
    storage.record(HashedRequest(request: removed, hash: hash), removed: true)
    return removed
  }

  /// Removes every element; a feedback over the set then compares it whole once.
  @inlinable
  public mutating func removeAll() {
    guard !storage.slots.isEmpty else { return }
    storage = RequestSetStorage()
  }

  @usableFromInline typealias Slots = HashSlots<Request, Void>

  /// Gives this value a storage of its own before a mutation.
  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = RequestSetStorage(copying: storage)
    }
  }
}

// MARK: - The journal, for the reconciler

extension RequestSet {
  /// The moment of its history this value is at; two values with the same mark hold the same
  /// elements.
  @inlinable
  var mark: JournalStamp {
    storage.journal.mark
  }

  /// The elements inserted or removed since the value whose mark is `mark`, with their
  /// hashes, or `nil` when this value's history does not reach back to it.
  @inlinable
  func changes(since mark: JournalStamp) -> ArraySlice<HashedRequest<Request>>? {
    storage.journal.changes(since: mark)
  }

  /// The element whose removal is the only change since the value whose mark is `mark`.
  @inlinable
  func removedAlone(since mark: JournalStamp) -> HashedRequest<Request>? {
    storage.journal.removedAlone(since: mark)
  }
}

/// A request and its hash (``HashSlots/hash(of:)``), as a ``RequestSet``'s journal keeps it.
@usableFromInline
struct HashedRequest<Request> {
  @usableFromInline let request: Request
  @usableFromInline let hash: Int

  @inlinable
  init(request: Request, hash: Int) {
    self.request = request
    self.hash = hash
  }
}

/// The storage of a ``RequestSet``: its elements, each with its hash, and the journal of its
/// insertions and removals.
///
/// - Invariant: as for `KeyedRequestsStorage`, the storage is mutated only through a
///   ``RequestSet`` that holds the only strong reference to it (`isKnownUniquelyReferenced`);
///   shared storages are only read. That makes the `@unchecked Sendable` conformance sound.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: a shared storage is only read, and a unique one is
/// changed by one ``RequestSet`` mutation at a time; the elements' `==` and `hash(into:)`, which
/// a mutation calls, cannot reach the set it mutates, which is `inout` to it.
@usableFromInline
final class RequestSetStorage<Request: Hashable & Sendable>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var slots: HashSlots<Request, Void>
  @exclusivity(unchecked) @usableFromInline var journal: ChangeJournal<HashedRequest<Request>>

  /// An empty storage with a fresh history.
  @inlinable
  init() {
    slots = HashSlots()
    journal = ChangeJournal()
  }

  /// A copy of `other` that continues its history with stamps of its own.
  @inlinable
  init(copying other: RequestSetStorage) {
    slots = other.slots.copy()
    journal = other.journal.continued()
  }

  deinit {
    slots.deallocate()
  }

  /// Appends an insertion or a removal to the journal.
  @inlinable
  func record(_ change: HashedRequest<Request>, removed: Bool) {
    journal.record(change, removed: removed, entryCount: slots.count)
  }
}

// MARK: - Conformances

extension RequestSet: Sendable {}

extension RequestSet: Equatable {
  /// Whether two sets hold the same elements; their histories do not matter.
  @inlinable
  public static func == (lhs: RequestSet, rhs: RequestSet) -> Bool {
    if lhs.storage === rhs.storage { return true }
    let left = lhs.storage.slots
    let right = rhs.storage.slots
    guard left.count == right.count else { return false }
    return left.occupiedSlots.allSatisfy {
      right.slot(of: left[slot: $0].key, hash: left.hash(at: $0)) != nil
    }
  }
}

extension RequestSet: Hashable {
  /// Hashes the elements in no particular order: equal sets hash alike, whatever their slots.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    let slots = storage.slots
    let combined = slots.occupiedSlots.reduce(0) { $0 &+ slots.hash(at: $1) }
    hasher.combine(slots.count)
    hasher.combine(combined)
  }
}

extension RequestSet: ExpressibleByArrayLiteral {
  /// Creates a set of the literal's elements; duplicates are kept once.
  ///
  /// - Parameter elements: The requests.
  @inlinable
  public init(arrayLiteral elements: Request...) {
    self.init(elements)
  }
}

extension RequestSet: Collection {
  /// A position in a set: valid until the set is next mutated.
  public struct Index: Comparable, Sendable {
    @usableFromInline let slot: Int

    @inlinable
    init(slot: Int) {
      self.slot = slot
    }

    /// Whether `lhs` comes before `rhs` in the set's order.
    @inlinable
    public static func < (lhs: Index, rhs: Index) -> Bool {
      lhs.slot < rhs.slot
    }
  }

  /// The position of the first element.
  @inlinable
  public var startIndex: Index { Index(slot: storage.slots.occupiedSlot(from: 0)) }

  /// The position after the last element.
  @inlinable
  public var endIndex: Index { Index(slot: storage.slots.capacity) }

  /// The number of elements.
  @inlinable
  public var count: Int { storage.slots.count }

  /// Whether the set has no element.
  @inlinable
  public var isEmpty: Bool { storage.slots.isEmpty }

  /// The position after `index`.
  ///
  /// - Parameter index: A valid position before ``endIndex``.
  /// - Returns: The next position.
  @inlinable
  public func index(after index: Index) -> Index {
    Index(slot: storage.slots.occupiedSlot(from: index.slot + 1))
  }

  /// The element at a position.
  ///
  /// - Parameter position: A valid position before ``endIndex``.
  @inlinable
  public subscript(position: Index) -> Request {
    precondition(
      position.slot < storage.slots.capacity && storage.slots.hash(at: position.slot) != 0,
      "RequestSet index out of range")
    return storage.slots[slot: position.slot].key
  }
}

extension RequestSet: CustomStringConvertible, CustomReflectable {
  /// The elements, written as a `Set` writes them.
  public var description: String {
    Set(self).description
  }

  /// The elements, as a set's.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self, displayStyle: .set)
  }
}

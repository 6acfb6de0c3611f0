/// Requests keyed by identifier, for a state to hold: a dictionary that remembers which keys
/// changed, so a keyed feedback over it costs the keys that changed, not the collection.
///
/// It reads and writes like a dictionary. Keep it in the state and give it to
/// ``Feedback/react(keyed:effect:)``:
///
/// ```swift
/// struct State {
///   var downloads: KeyedRequests<FileID, URL> = [:]
/// }
///
/// // In the reducer:
/// state.downloads[file] = url      // starts (or restarts) the download of `file`
/// state.downloads[file] = nil      // cancels it
///
/// Feedback<State, Event, Never, Context>.react(
///   keyed: \.downloads,
///   effect: .run { url, context in .downloaded(url, await context.files.download(url)) }
/// )
/// ```
///
/// Each change of a key's request (a new key, a different request, a removed key) is written
/// to a journal. The feedback remembers where in the journal it last looked, and on the next
/// step reads only the entries after that: with 10,000 keys, an event that changes one costs
/// one key. Setting a key to a request equal (`==`) to its own changes nothing and is not
/// written.
///
/// That holds while the value in the state is *mutated in place*. A value built afresh
/// (`state.downloads = KeyedRequests(dictionary)`), or an older copy put back, has another
/// history: the feedback then compares the whole collection once, as it does for a dictionary,
/// and is back to the cost of the changes from the next step on.
///
/// Like `Dictionary`, it is a value with copy-on-write storage: a copy costs nothing until one
/// of the two is mutated, which then copies the storage. So a state that something else keeps
/// a copy of (an observer that receives previous states, a test that compares them) copies the
/// collection on every change, as a dictionary would.
public struct KeyedRequests<Key: Hashable & Sendable, Request: Equatable & Sendable> {
  @usableFromInline var storage: KeyedRequestsStorage<Key, Request>

  /// Creates an empty collection.
  @inlinable
  public init() {
    storage = KeyedRequestsStorage(entries: [:])
  }

  /// Creates a collection with the requests of a dictionary.
  ///
  /// - Parameter dictionary: The request for each key.
  @inlinable
  public init(_ dictionary: [Key: Request]) {
    storage = KeyedRequestsStorage(entries: dictionary)
  }

  /// The requests, as a dictionary.
  ///
  /// - Complexity: O(1): the dictionary shares the collection's storage until one is mutated.
  @inlinable
  public var dictionary: [Key: Request] {
    storage.entries
  }

  /// The keys that have a request.
  @inlinable
  public var keys: Dictionary<Key, Request>.Keys {
    storage.entries.keys
  }

  /// The requests, one per key.
  @inlinable
  public var values: Dictionary<Key, Request>.Values {
    storage.entries.values
  }

  /// The request for a key, or `nil` when the key has none.
  ///
  /// Setting a request different from the key's one, or `nil` for a key that had one, records
  /// the change; setting an equal request keeps the new value and records nothing.
  ///
  /// - Parameter key: The key.
  @inlinable
  public subscript(key: Key) -> Request? {
    get { storage.entries[key] }
    set { assign(newValue, forKey: key) }
    _modify {
      makeUnique()
      let old = storage.entries[key]
      defer { recordIfChanged(key, from: old) }
      yield &storage.entries[key]
    }
  }

  /// The request for a key, or `defaultValue` when the key has none.
  ///
  /// Mutating through it inserts the default first, as `Dictionary`'s does:
  /// `requests[key, default: 0] += 1`.
  ///
  /// - Parameters:
  ///   - key: The key.
  ///   - defaultValue: The request to read, or to start from, when the key has none.
  @inlinable
  public subscript(
    key: Key,
    default defaultValue: @autoclosure () -> Request
  ) -> Request {
    get { storage.entries[key] ?? defaultValue() }
    set { assign(newValue, forKey: key) }
    _modify {
      // One lookup: a present key is changed in place through its index (a copy of the
      // storage keeps the dictionary's indices valid), a missing one inserted afterwards.
      if let index = storage.entries.index(forKey: key) {
        makeUnique()
        let old = storage.entries.values[index]
        defer { if storage.entries.values[index] != old { storage.record(key) } }
        yield &storage.entries.values[index]
      } else {
        var request = defaultValue()
        defer { assign(request, forKey: key) }
        yield &request
      }
    }
  }

  /// Sets the request of a key and returns the one it replaced.
  ///
  /// - Parameters:
  ///   - request: The new request.
  ///   - key: The key.
  /// - Returns: The key's previous request, or `nil` if it had none.
  @inlinable
  @discardableResult
  public mutating func updateValue(_ request: Request, forKey key: Key) -> Request? {
    assign(request, forKey: key)
  }

  /// Removes the request of a key and returns it.
  ///
  /// - Parameter key: The key.
  /// - Returns: The removed request, or `nil` if the key had none.
  @inlinable
  @discardableResult
  public mutating func removeValue(forKey key: Key) -> Request? {
    assign(nil, forKey: key)
  }

  /// Removes every request.
  ///
  /// The collection starts a new history: a keyed feedback compares it whole once, which it
  /// must do anyway to cancel every effect.
  @inlinable
  public mutating func removeAll() {
    guard !storage.entries.isEmpty else { return }
    storage = KeyedRequestsStorage(entries: [:])
  }

  /// Sets or removes the request of a key, and records the change when it is one.
  @inlinable
  @discardableResult
  mutating func assign(_ request: Request?, forKey key: Key) -> Request? {
    // One lookup for a present key: its index stays valid when the storage is copied.
    guard let index = storage.entries.index(forKey: key) else {
      guard let request else { return nil }
      makeUnique()
      storage.entries[key] = request
      storage.record(key)
      return nil
    }
    makeUnique()
    let old = storage.entries.values[index]
    if let request {
      storage.entries.values[index] = request
      if old != request { storage.record(key) }
    } else {
      storage.entries.remove(at: index)
      storage.record(key, removed: true)
    }
    return old
  }

  /// Records a change of `key` when its request is no longer `old`.
  @inlinable
  func recordIfChanged(_ key: Key, from old: Request?) {
    if storage.entries[key] != old { storage.record(key) }
  }

  /// Gives this value a storage of its own before a mutation.
  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = KeyedRequestsStorage(copying: storage)
    }
  }
}

// MARK: - The journal, for the reconciler

extension KeyedRequests {
  /// A moment in the history of a value: the stamp of its latest change.
  @usableFromInline package typealias Mark = JournalStamp

  /// The moment of its history this value is at.
  ///
  /// Two values with the same mark hold the same requests.
  ///
  /// - Complexity: O(1).
  @inlinable
  package var mark: Mark {
    storage.journal.mark
  }

  /// The keys whose request changed since the value whose mark is `mark`, or `nil` when this
  /// value's history does not reach back to it (another branch of a copy, a value built
  /// afresh, or a journal compacted since): then only a full comparison tells.
  ///
  /// A key changed several times is listed as many times; a key listed may have changed back.
  ///
  /// - Parameter mark: The mark of an earlier value.
  /// - Returns: The changed keys, oldest change first.
  /// - Complexity: O(*r*), where *r* is the number of copies the value's history went through,
  ///   plus one.
  @inlinable
  package func changedKeys(since mark: Mark) -> ArraySlice<Key>? {
    storage.journal.changes(since: mark)
  }

  /// The key whose removal is the only change since the value whose mark is `mark`: a
  /// fan-out's result that drops its request is settled knowing that key has no request,
  /// without a lookup or a list of changes.
  ///
  /// `nil` when anything else happened since: several changes, one that is not a removal (a
  /// removal made in place through the subscript, as `requests[key].take()` makes it, is
  /// journaled as a change), or a mark this history does not reach back to. The caller then
  /// takes the general path.
  ///
  /// - Parameter mark: The mark of an earlier value.
  /// - Returns: The removed key, when its removal is all that changed since `mark`.
  /// - Complexity: O(1).
  @inlinable
  package func keyRemovedAlone(since mark: Mark) -> Key? {
    storage.journal.removedAlone(since: mark)
  }
}

// MARK: - Conformances

extension KeyedRequests: Sendable {}

extension KeyedRequests: Equatable {
  /// Whether two collections hold the same keys with equal requests; their histories do not
  /// matter.
  @inlinable
  public static func == (lhs: KeyedRequests, rhs: KeyedRequests) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.entries == rhs.storage.entries
  }
}

extension KeyedRequests: Hashable where Request: Hashable {
  /// Hashes the keys and requests.
  ///
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.entries)
  }
}

extension KeyedRequests: ExpressibleByDictionaryLiteral {
  /// Creates a collection from a literal; each key may appear once.
  ///
  /// - Parameter elements: The keys and their requests.
  @inlinable
  public init(dictionaryLiteral elements: (Key, Request)...) {
    self.init(Dictionary(uniqueKeysWithValues: elements))
  }
}

extension KeyedRequests: Collection {
  /// A position in the collection; mutating the collection invalidates it.
  public typealias Index = Dictionary<Key, Request>.Index
  /// A key and its request.
  public typealias Element = (key: Key, value: Request)
  /// Iterates over the keys and their requests.
  public typealias Iterator = Dictionary<Key, Request>.Iterator

  /// The position of the first element.
  @inlinable
  public var startIndex: Index { storage.entries.startIndex }

  /// The position after the last element.
  @inlinable
  public var endIndex: Index { storage.entries.endIndex }

  /// The number of keys that have a request.
  @inlinable
  public var count: Int { storage.entries.count }

  /// Whether no key has a request.
  @inlinable
  public var isEmpty: Bool { storage.entries.isEmpty }

  /// The position after `index`.
  ///
  /// - Parameter index: A valid position other than ``endIndex``.
  /// - Returns: The next position.
  @inlinable
  public func index(after index: Index) -> Index {
    storage.entries.index(after: index)
  }

  /// The key and request at a position.
  ///
  /// - Parameter position: A valid position other than ``endIndex``.
  @inlinable
  public subscript(position: Index) -> Element {
    storage.entries[position]
  }

  /// Returns an iterator over the keys and their requests.
  ///
  /// - Returns: The iterator.
  @inlinable
  public func makeIterator() -> Iterator {
    storage.entries.makeIterator()
  }
}

extension KeyedRequests: CustomStringConvertible, CustomReflectable {
  /// The requests, as a dictionary prints them.
  public var description: String {
    storage.entries.description
  }

  /// The requests, as a dictionary shows them to `dump` and to a test's diffs.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self, displayStyle: .dictionary)
  }
}

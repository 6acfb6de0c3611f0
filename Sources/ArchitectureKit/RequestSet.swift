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
public struct RequestSet<Request: Hashable & Sendable> {
  /// The elements, each keyed by itself: the keyed collection keeps the journal.
  @usableFromInline var requests: KeyedRequests<Request, Request>

  /// Creates an empty set.
  @inlinable
  public init() {
    requests = KeyedRequests()
  }

  /// Creates a set of the elements of a sequence; duplicates are kept once.
  ///
  /// - Parameter elements: The requests.
  @inlinable
  public init(_ elements: some Sequence<Request>) {
    requests = KeyedRequests(Dictionary(elements.lazy.map { ($0, $0) }) { first, _ in first })
  }

  /// Whether the set holds `request`.
  ///
  /// - Parameter request: The request to look for.
  /// - Returns: `true` when it is in the set.
  @inlinable
  public func contains(_ request: Request) -> Bool {
    requests[request] != nil
  }

  /// Adds `request` if it is not in the set yet.
  ///
  /// - Parameter request: The request to add.
  /// - Returns: `true` when it was added, `false` when the set held it already.
  @inlinable
  @discardableResult
  public mutating func insert(_ request: Request) -> Bool {
    requests.assign(request, forKey: request) == nil
  }

  /// Removes `request` from the set.
  ///
  /// - Parameter request: The request to remove.
  /// - Returns: The removed request, or `nil` when the set did not hold it.
  @inlinable
  @discardableResult
  public mutating func remove(_ request: Request) -> Request? {
    requests.removeValue(forKey: request)
  }

  /// Removes every element; a feedback over the set then compares it whole once.
  @inlinable
  public mutating func removeAll() {
    requests.removeAll()
  }
}

// MARK: - Conformances

extension RequestSet: Sendable {}

extension RequestSet: Equatable {
  /// Whether two sets hold the same elements; their histories do not matter.
  @inlinable
  public static func == (lhs: RequestSet, rhs: RequestSet) -> Bool {
    lhs.requests == rhs.requests
  }
}

extension RequestSet: Hashable {
  /// Hashes the elements.
  ///
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(requests)
  }
}

extension RequestSet: ExpressibleByArrayLiteral {
  /// Creates a set from a literal; duplicates are kept once.
  ///
  /// - Parameter elements: The requests.
  @inlinable
  public init(arrayLiteral elements: Request...) {
    self.init(elements)
  }
}

extension RequestSet: Collection {
  /// A position in the set; mutating the set invalidates it.
  public typealias Index = KeyedRequests<Request, Request>.Index

  /// The position of the first element.
  @inlinable
  public var startIndex: Index { requests.startIndex }

  /// The position after the last element.
  @inlinable
  public var endIndex: Index { requests.endIndex }

  /// The number of elements.
  @inlinable
  public var count: Int { requests.count }

  /// Whether the set is empty.
  @inlinable
  public var isEmpty: Bool { requests.isEmpty }

  /// The position after `index`.
  ///
  /// - Parameter index: A valid position other than ``endIndex``.
  /// - Returns: The next position.
  @inlinable
  public func index(after index: Index) -> Index {
    requests.index(after: index)
  }

  /// The element at a position.
  ///
  /// - Parameter position: A valid position other than ``endIndex``.
  @inlinable
  public subscript(position: Index) -> Request {
    requests[position].key
  }
}

extension RequestSet: CustomStringConvertible, CustomReflectable {
  /// The elements, written as a `Set` writes them.
  public var description: String {
    Set(requests.keys).description
  }

  /// A mirror that shows the set's elements.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: self, displayStyle: .set)
  }
}

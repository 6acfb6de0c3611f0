/// The listeners of one kind (UI bindings, loop callbacks or observers), in the order they
/// were added.
///
/// The closures are kept in an array of their own, exactly as a system's initializer receives
/// them (see PerformanceLedger: listeners as bare closures). A notification walks the array's
/// storage in place (``inPlace``), which a listener added or removed in the middle of it does
/// not change; so a listener removed in the middle of it must still be skipped: the owner
/// counts removals, and the walk looks a listener up only after a removal.
@usableFromInline
struct Listeners<Argument> {
  /// The listeners' closures.
  @usableFromInline var bodies: [(Argument) -> Void]
  /// Each closure's identifier, at the same index; `nil` while the identifiers run on from
  /// ``firstID`` without a gap, as a system's initial bindings' do, so that those cost no
  /// allocation, and a snapshot of them no retain.
  @usableFromInline var ids: [Int]?
  /// The first listener's identifier, while ``ids`` is `nil`.
  @usableFromInline var firstID = 0

  @inlinable
  init() {
    bodies = Array()
    ids = nil
  }

  /// Whether there is no listener.
  @inlinable var isEmpty: Bool { bodies.isEmpty }

  /// The identifier of the listener at `index`.
  @inlinable
  func id(at index: Int) -> Int {
    if let ids { ids[index] } else { firstID + index }
  }

  /// Whether the listener with this identifier is registered.
  @usableFromInline
  func contains(_ id: Int) -> Bool {
    if let ids { ids.contains(id) } else { (firstID..<firstID + bodies.count).contains(id) }
  }

  /// Writes out the identifiers of listeners that run on without a gap, before one with a gap
  /// is added or one is removed.
  @inlinable
  mutating func writeOutIDs() {
    if ids == nil { ids = Array(firstID..<firstID + bodies.count) }
  }

  /// Adds a listener at the end.
  mutating func append(_ body: @escaping (Argument) -> Void, id: Int) {
    append(ids: id..<id + 1)
    bodies.append(body)
  }

  /// Adds listeners at the end, keeping the array's closures as they are (an element taken out
  /// and appended again would be wrapped in a reabstraction thunk).
  ///
  /// The first listeners share the caller's array instead of copying it, and their identifiers,
  /// which run on without a gap, are not written out: a system's bindings cost no allocation of
  /// their own.
  @inlinable
  mutating func append(contentsOf bodies: [(Argument) -> Void], ids: Range<Int>) {
    append(ids: ids)
    if self.bodies.isEmpty {
      self.bodies = bodies
    } else {
      self.bodies.append(contentsOf: bodies)
    }
  }

  /// Records the identifiers of listeners about to be added at the end.
  @inlinable
  mutating func append(ids new: Range<Int>) {
    if new.isEmpty {
      return
    } else if bodies.isEmpty {
      // No listener: the identifiers start afresh from `firstID`, none written out. Cleared
      // only when written: a system's first bindings find none to let go of.
      firstID = new.lowerBound
      if ids != nil { ids = nil }
    } else if ids != nil || new.lowerBound != firstID + bodies.count {
      writeOutIDs()
      ids?.append(contentsOf: new)
    }
  }

  /// Removes the listener with this identifier; returns whether it was there.
  mutating func remove(_ id: Int) -> Bool {
    guard contains(id) else { return false }
    writeOutIDs()
    guard let index = ids?.firstIndex(of: id) else { return false }
    bodies.remove(at: index)
    ids?.remove(at: index)
    return true
  }
}

extension Listeners {
  /// The storage, to walk in place: the array is not retained for the walk (see
  /// PerformanceLedger: listeners walked in place).
  ///
  /// Each call still retains and releases its listener's closure context, as any call of a
  /// closure read from memory does.
  ///
  /// - Invariant: the storage stays alive and unchanged until the walk returns. The owner
  ///   (``RuntimeShell``) counts its walks, and before a listener is added or removed during one
  ///   it keeps the listeners as they are (`keepWalkedListeners()`): the change then finds the
  ///   storage shared and copies it, and the walked storage is released only when the walks
  ///   end. The arrays are made in Swift, so their storage is native and contiguous, and its
  ///   address is that of the buffer, not of a temporary copy.
  @inlinable
  var inPlace: InPlace {
    InPlace(
      bodies: bodies.withUnsafeBufferPointer { $0.baseAddress }, count: bodies.count,
      ids: ids?.withUnsafeBufferPointer { $0.baseAddress }, firstID: firstID)
  }

  /// The storage of listeners, read in place (see ``inPlace``).
  @usableFromInline
  struct InPlace {
    @usableFromInline let bodies: UnsafePointer<(Argument) -> Void>?
    @usableFromInline let count: Int
    @usableFromInline let ids: UnsafePointer<Int>?
    @usableFromInline let firstID: Int

    @inlinable
    init(
      bodies: UnsafePointer<(Argument) -> Void>?, count: Int, ids: UnsafePointer<Int>?, firstID: Int
    ) {
      self.bodies = bodies
      self.count = count
      self.ids = ids
      self.firstID = firstID
    }

    /// Calls each listener with `argument`.
    ///
    /// A listener removed since the walk began is skipped: the walk compares the owner's count of
    /// removals with its value at the start, so the lookup costs nothing until something is
    /// removed. One added during the walk is not called.
    ///
    /// - Parameters:
    ///   - argument: What each listener receives.
    ///   - removals: The owner's count of removals.
    ///   - isListening: Whether the listener with an identifier is still there.
    @inlinable
    func walk(_ argument: Argument, removals: () -> Int, isListening: (Int) -> Bool) {
      guard let bodies else { return }
      let start = removals()
      for index in 0..<count {
        if removals() != start, !isListening(ids.map { $0[index] } ?? firstID + index) { continue }
        bodies[index](argument)
      }
    }
  }

  /// Calls the listeners of this snapshot for which `isIncluded` holds, with `argument`.
  ///
  /// The slow walk, for a step during which listeners were added or removed in a way the fast
  /// one cannot skip: each listener is looked up before it is called.
  ///
  /// - Parameters:
  ///   - argument: What each listener receives.
  ///   - isIncluded: Whether the listener with this identifier is to be called.
  @usableFromInline
  func notify(_ argument: Argument, where isIncluded: (Int) -> Bool) {
    for index in bodies.indices where isIncluded(id(at: index)) {
      bodies[index](argument)
    }
  }
}

/// Objects kept alive by this value and walked without retaining each one: a system's
/// reconcilers, a child's, a run of joined single-request loops.
///
/// A walk that loads each object from an array retains it for the call and releases it after,
/// even from a `let` array: on every feedback of every step (see PerformanceLedger: unretained
/// walks). This array owns its objects and keeps, beside them, the same references unretained,
/// which the walk lends to its body instead.
///
/// - Invariant: `unretained[i]` is `owned[i]` for every index. Both arrays are set once,
///   together, in the initializer and never change, and `owned` keeps every object alive for
///   as long as this value exists, so a reference lent by ``walk(_:)`` is valid for the
///   whole call: the walk's caller holds the value (a stored `let`, a closure's capture) for
///   longer than the walk.
///
/// Both arrays are stored rather than one array reinterpreted as `Unmanaged` references, so
/// that the walk needs no pointer casts.
@usableFromInline
struct UnretainedArray<Element: AnyObject> {
  /// The objects, kept alive.
  @usableFromInline let owned: [Element]
  /// The same objects, at the same indices, for the walk.
  @usableFromInline let unretained: [Unmanaged<Element>]

  /// An empty array.
  @inlinable @inline(__always)
  init() {
    // Empty arrays made here rather than by `map`, generic code for a system without feedback.
    self.owned = Array()
    self.unretained = Array()
  }

  /// Keeps `elements` alive, in order, to walk them unretained.
  @inlinable
  init(_ elements: [Element]) {
    self.owned = elements
    self.unretained = elements.map(Unmanaged.passUnretained)
  }

  /// Whether there is no object.
  @inlinable var isEmpty: Bool { owned.isEmpty }

  /// Calls `body` with each object in order, without retaining it.
  ///
  /// - Parameter body: Receives each object; it must not keep it beyond the call.
  @inlinable @inline(__always)
  func walk(_ body: (Element) -> Void) {
    // By index: a `for`-`in` loop would retain the array for its iterator.
    for index in unretained.indices {
      unretained[index]._withUnsafeGuaranteedRef { body($0) }
    }
  }

  /// Calls `body` with each object in order and with `argument`, retaining none of them.
  ///
  /// One walk for both, rather than a ``walk(_:)`` inside a call of `argument`, whose body is
  /// not inlined (see PerformanceLedger: unretained walks).
  ///
  /// - Parameters:
  ///   - argument: An object lent to every call of `body`.
  ///   - body: Receives each object and `argument`; it must keep neither beyond the call.
  @inlinable @inline(__always)
  func walk<Argument>(
    lending argument: Unretained<Argument>,
    _ body: (Element, Argument) -> Void
  ) {
    argument.reference._withUnsafeGuaranteedRef { argument in
      for index in unretained.indices {
        unretained[index]._withUnsafeGuaranteedRef { body($0, argument) }
      }
    }
  }
}

/// A reference to an object that outlives every use of the reference, lent to each call without
/// a retain and a release.
///
/// A system's core reaches itself and its runtime through these from the closures of its
/// ``EffectHost``, which the core owns: a strong capture would make a cycle, and a weak or
/// `unowned` one costs a retain per use. The core and each child lend their host to the walk of
/// their reconcilers through one too (see PerformanceLedger: unretained walks).
///
/// - Invariant: whoever makes one guarantees that the object outlives every use of it. The
///   core makes them for itself and its runtime, which owns it (or is it), and uses them
///   only inside its own calls from that runtime; a ``ChildHosting`` makes one for itself,
///   which the closures of the host it owns use, and one for the child being reconciled, for
///   the length of that reconciliation; the core and a child make one for the host they hold,
///   for the length of one walk.
@usableFromInline
struct Unretained<Object: AnyObject> {
  /// The reference, neither retained nor released.
  @usableFromInline let reference: Unmanaged<Object>

  /// A reference to `object` that does not keep it alive.
  @inlinable
  init(_ object: Object) {
    reference = Unmanaged.passUnretained(object)
  }

  /// Calls `body` with the object, without retaining it.
  ///
  /// - Parameter body: Receives the object; it must not keep it beyond the call.
  /// - Returns: What `body` returns.
  @inlinable @inline(__always)
  func callAsFunction<Result>(_ body: (Object) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef { body($0) }
  }
}

/// An object retained once by hand, then lent on each use without a retain of its own.
///
/// A stored strong reference is retained each time it is read for a call; this one is read
/// as a plain word (see PerformanceLedger: creation).
///
/// - Invariant: the holder stores it once, never replaces it, and calls ``release()`` once, in
///   its `deinit`; so the object outlives every use the holder lends.
@usableFromInline
struct RetainedByHand<Object: AnyObject> {
  /// The object, lent without a retain.
  @usableFromInline let unretained: Unretained<Object>

  /// Retains `object` until ``release()``.
  @inlinable
  init(_ object: Object) {
    // The retain is this value's; the reference it returns is the one `unretained` keeps.
    _ = Unmanaged.passRetained(object)
    unretained = Unretained(object)
  }

  /// Lets go of the object; the holder's last use.
  @inlinable
  func release() {
    unretained.reference.release()
  }
}

/// The effects a keyed feedback runs, one per key, and the request boxes it may renew.
///
/// A keyed feedback (``KeyedRequests``, ``RequestSet``, a dictionary of requests) starts and
/// retires an effect per key, each described by an ``EffectRequest`` in a box of its own: a
/// fan-out of a thousand allocates a thousand boxes, and its results free them one by one. A
/// box the feedback retired, once nobody else holds it (no observer, no test), is kept, and a
/// later start renews it rather than allocating one (see PerformanceLedger: keyed request boxes
/// renewed).
///
/// Only boxes of plain values are kept (a key and a request that `_isPOD`, such as `Int`s): a
/// kept box holds on to no reference, so it keeps no user object or resource alive, only its own
/// memory (about 128 bytes; a plain value of more than three words also keeps the existential's
/// heap box it is stored in). At most ``spareLimit`` are kept per keyed feedback, until its
/// reconciler goes (a `forEach` child's with the child).
///
/// The table keeps each key's hash beside it (``HashSlots``): a ``RequestSet``'s feedback looks
/// its keys up and starts them with the hashes the set stored, and a removal moves its
/// neighbours without hashing them again.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the table belongs to one reconciler, which runs on
/// its system's isolation, one reconciliation at a time, and no method holds an access across a
/// call to the host, whose calls out cannot reach this table (what they send is queued).
@usableFromInline
final class KeyedEffects<Key: Hashable & Sendable, Request: Equatable & Sendable> {
  /// An effect running for a key: its request, identifier and description.
  @usableFromInline typealias Running = (request: Request, id: EffectID, description: EffectRequest)

  /// The effect running for each key.
  @exclusivity(unchecked) @usableFromInline var running: HashSlots<Key, Running>
  /// Boxes of retired requests, to renew; always empty unless ``keepsBoxes``.
  @exclusivity(unchecked) @usableFromInline var spare: [EffectRequest]
  /// The position of the feedback in its feature's list, for the requests' descriptions.
  @usableFromInline let feedbackIndex: Int
  /// Whether a request's description names its key, as keyed requests' do, or only its value,
  /// as a set's elements do.
  @usableFromInline let namesKeys: Bool

  /// Whether retired boxes are kept: only when they hold nothing but plain values.
  @inlinable static var keepsBoxes: Bool { _isPOD(Key.self) && _isPOD(Request.self) }

  /// The most boxes kept at once: a fan-out within a drain's inline budget renews all of its.
  @inlinable static var spareLimit: Int { SystemCore<Int, Int, Never, Int>.inlineBudget }

  @inlinable
  init(feedbackIndex: Int, namesKeys: Bool) {
    // Set here rather than as initial values, which would be generic functions of their own.
    self.running = HashSlots()
    self.spare = Array()
    self.feedbackIndex = feedbackIndex
    self.namesKeys = namesKeys
  }

  deinit {
    running.deallocate()
  }

  /// Whether no effect runs.
  @inlinable var isEmpty: Bool { running.isEmpty }

  /// Cancels the effect running for the key in `slot`.
  ///
  /// - Parameters:
  ///   - slot: The key's slot in ``running``.
  ///   - host: Where the effect runs.
  @inlinable
  func cancel<Event, Failure, Context>(
    at slot: Int, _ host: EffectHost<Event, Failure, Context>
  ) {
    // Taken apart, so that the box moves to the spares rather than being copied there.
    let (_, id, description) = running.remove(at: slot).value
    host.cancel(id)
    if Self.keepsBoxes, spare.count < Self.spareLimit { spare.append(consume description) }
  }

  /// Cancels the effects running for `keys`, in the order they started (the table's own order
  /// is the keys' hash order, different in each process); a key listed twice is cancelled once.
  ///
  /// - Parameters:
  ///   - keys: Keys that have an effect running.
  ///   - host: Where the effects run.
  /// - Returns: `false` when a listener stopped the system during a cancellation: then nothing
  ///   more may start.
  @inlinable @inline(never)
  func cancelInStartOrder<Event, Failure, Context>(
    _ keys: [Key], _ host: EffectHost<Event, Failure, Context>
  ) -> Bool {
    let ordered =
      keys.count > 1
      ? keys.map { key in
        (key: key, start: running.slot(of: key).map { running[slot: $0].value.id.rawValue } ?? 0)
      }
      .sorted { $0.start < $1.start }.map(\.key)
      : keys
    for key in ordered {
      guard let slot = running.slot(of: key) else { continue }
      cancel(at: slot, host)
      if host.isStopped() { return false }
    }
    return true
  }

  /// Starts the effect of `request` for `key`, in a renewed box when one is spare.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - key: Its key, which runs no other effect.
  ///   - hash: The key's hash (``HashSlots/hash(of:)``), when the caller has it.
  ///   - effect: Makes the request's effect.
  ///   - host: Where the effect runs.
  @inlinable
  func start<Event, Failure, Context>(
    _ request: Request,
    for key: Key,
    hash: Int? = nil,
    effect: (Request) -> Effect<Event, Failure, Context>,
    _ host: EffectHost<Event, Failure, Context>
  ) {
    let description: EffectRequest
    // A set's boxes all have a `nil` key, made so and renewed so: only the value is renewed.
    if Self.keepsBoxes, var box = spare.popLast(),
      namesKeys ? box.renew(key: key, value: request) : box.renew(with: request)
    {
      description = box
    } else {
      description = EffectRequest(
        feedbackIndex: feedbackIndex, key: namesKeys ? key : nil, value: request)
    }
    let id = host.start(effect(request), description)
    running.insertNew(
      key, (request, id, description), hash: hash ?? HashSlots<Key, Running>.hash(of: key))
  }
}

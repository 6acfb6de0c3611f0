/// The effects a core started and has not dropped yet, found by identifier in constant time.
///
/// Each effect takes a slot, named by its identifier with the effect's serial number; a slot is
/// reused once its effect is dropped, and a stale identifier (its slot since reused) finds
/// nothing, because the serial numbers differ. Starting and ending an effect hash nothing and
/// allocate nothing once the table has grown to the number of effects live at once. A slot
/// keeps its effect's request beside the bookkeeping, so that starting and dropping an effect
/// write one slot (a request is one reference: reading a slot's serial copies none).
///
/// The slots are memory the table owns, not an array: a start, an end and a drop each touch one
/// slot, with no uniqueness check of a shared buffer and no bounds check past ``index(of:)``'s
/// (see PerformanceLedger: live effects in slots). The table is not copyable, so the memory has
/// one owner, the core, and is freed with it.
@usableFromInline
struct LiveEffects: ~Copyable {
  /// The bookkeeping of one slot.
  @usableFromInline
  struct Slot {
    /// The serial number of the effect in the slot, as in its identifier; 0 when it is free.
    @usableFromInline var serial: UInt64
    /// Whether it runs: started, not ended, not cancelled.
    @usableFromInline var isRunning: Bool
    /// Whether the effect leaves the table when it ends (an event started it).
    @usableFromInline var retiresWhenDone: Bool
    /// In a free slot, the next free slot, or ``LiveEffects/noSlot``; unused otherwise.
    @usableFromInline var nextFree: UInt32
    /// The effect's request; `nil` in a free slot.
    @usableFromInline var request: EffectRequest?

    @inlinable
    init(serial: UInt64, request: EffectRequest) {
      self.serial = serial
      self.isRunning = true
      self.retiresWhenDone = false
      self.nextFree = LiveEffects.noSlot
      self.request = request
    }

    /// Frees the slot, linking it to the free slot `next`; returns the request it held.
    @inlinable
    mutating func free(next: UInt32) -> EffectRequest? {
      serial = 0
      nextFree = next
      return request.take()
    }
  }

  /// The end of the list of free slots.
  @inlinable static var noSlot: UInt32 { .max }

  /// The slots, `capacity` of them allocated and the first `used` initialized; `nil` until the
  /// first effect starts.
  @usableFromInline var slots: UnsafeMutablePointer<Slot>?
  @usableFromInline var capacity: Int
  @usableFromInline var used: Int
  /// The last slot whose effect was dropped, first of the list of slots to reuse (linked
  /// through ``Slot/nextFree``, last dropped first), or ``noSlot``.
  @usableFromInline var firstFree: UInt32
  @usableFromInline var lastSerial: UInt64

  /// No effect.
  ///
  /// Inlinable and allocation-free, so that a system's creation stores five words rather than
  /// calls.
  @inlinable
  init() {
    slots = nil
    capacity = 0
    used = 0
    firstFree = Self.noSlot
    lastSerial = 0
  }

  @inlinable
  deinit {
    Self.free(slots, used: used)
  }

  /// Destroys the first `used` slots and frees the memory, if any.
  @inlinable
  static func free(_ slots: UnsafeMutablePointer<Slot>?, used: Int) {
    guard let slots else { return }
    slots.deinitialize(count: used)
    slots.deallocate()
  }

  /// Adds a running effect for `request`; returns its identifier.
  @inlinable
  mutating func insert(_ request: EffectRequest) -> EffectID {
    lastSerial &+= 1
    let slot: UInt32
    if firstFree != Self.noSlot {
      slot = firstFree
      let reused = slots.unsafelyUnwrapped + Int(slot)
      firstFree = reused.pointee.nextFree
      // A free slot holds no request: the whole slot is written over, nothing to release.
      reused.initialize(to: Slot(serial: lastSerial, request: request))
    } else {
      if used == capacity { grow() }
      slot = UInt32(used)
      (slots.unsafelyUnwrapped + used).initialize(to: Slot(serial: lastSerial, request: request))
      used &+= 1
    }
    return EffectID(rawValue: lastSerial, slot: slot)
  }

  /// Doubles the slots (or makes the first 16), moving the initialized ones.
  @inlinable @inline(never)
  mutating func grow() {
    let grownCapacity = Swift.max(16, capacity &* 2)
    let grown = UnsafeMutablePointer<Slot>.allocate(capacity: grownCapacity)
    if let slots {
      grown.moveInitialize(from: slots, count: used)
      slots.deallocate()
    }
    slots = grown
    capacity = grownCapacity
  }

  /// The position of the effect with this identifier, if it is still in the table.
  @inlinable
  func index(of id: EffectID) -> Int? {
    let index = Int(id.slot)
    guard index < used, slots.unsafelyUnwrapped[index].serial == id.rawValue else { return nil }
    return index
  }

  /// Whether the effect with this identifier is in the table.
  @inlinable
  func contains(_ id: EffectID) -> Bool {
    index(of: id) != nil
  }

  /// Whether the effect with this identifier runs.
  @inlinable
  func isRunning(_ id: EffectID) -> Bool {
    guard let index = index(of: id) else { return false }
    return slots.unsafelyUnwrapped[index].isRunning
  }

  /// Marks a running effect ended; returns its slot, or `nil` when it was not running.
  ///
  /// The effect stays in its slot, and its request there: the request is read only when
  /// someone reports the end (``request(at:)``), so most ends copy no reference. An effect that
  /// retires when done leaves with ``retireIfDone(_:)``, once its end is reported.
  @inlinable
  mutating func end(_ id: EffectID) -> Int? {
    guard let index = index(of: id) else { return nil }
    let slot = slots.unsafelyUnwrapped + index
    guard slot.pointee.isRunning else { return nil }
    slot.pointee.isRunning = false
    return index
  }

  /// The request of the effect in an occupied slot.
  @inlinable
  func request(at slot: Int) -> EffectRequest {
    slots.unsafelyUnwrapped[slot].request.unsafelyUnwrapped
  }

  /// Drops an ended effect that retires when done; does nothing to another, or to one no
  /// longer in the table.
  @inlinable
  mutating func retireIfDone(_ id: EffectID) {
    guard let index = index(of: id), slots.unsafelyUnwrapped[index].retiresWhenDone else { return }
    _ = drop(index)
  }

  /// Makes the effect leave the table when it ends.
  @inlinable
  mutating func retireWhenDone(_ id: EffectID) {
    guard let index = index(of: id) else { return }
    slots.unsafelyUnwrapped[index].retiresWhenDone = true
  }

  /// Drops the effect with this identifier; returns its request and whether it was running, or
  /// `nil` when it was not in the table.
  @inlinable
  mutating func remove(_ id: EffectID) -> (request: EffectRequest, wasRunning: Bool)? {
    guard let index = index(of: id) else { return nil }
    let wasRunning = slots.unsafelyUnwrapped[index].isRunning
    guard let request = drop(index) else { return nil }
    return (request, wasRunning)
  }

  @inlinable
  mutating func drop(_ index: Int) -> EffectRequest? {
    let request = slots.unsafelyUnwrapped[index].free(next: firstFree)
    firstFree = UInt32(index)
    return request
  }

  /// Drops every effect.
  mutating func removeAll() {
    Self.free(slots, used: used)
    slots = nil
    capacity = 0
    used = 0
    firstFree = Self.noSlot
  }

  /// The effects in the table, in start order: identifier, request, whether it runs.
  var all: [(id: EffectID, request: EffectRequest, isRunning: Bool)] {
    (0..<used).compactMap { index in
      let slot = slots.unsafelyUnwrapped[index]
      guard slot.serial != 0, let request = slot.request else { return nil }
      return (EffectID(rawValue: slot.serial, slot: UInt32(index)), request, slot.isRunning)
    }
    .sorted { $0.id.rawValue < $1.id.rawValue }
  }
}

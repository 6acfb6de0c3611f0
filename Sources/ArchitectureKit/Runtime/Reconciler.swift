/// Keeps one feedback's running effects in line with the state.
///
/// Each form is a closure over its own bookkeeping (the requests it started), made fresh for
/// each system, so a `Feedback` value can be shared. Closures rather than subclasses, and the
/// bookkeeping in a ``Bookkeeping`` box rather than in captured `var`s (see PerformanceLedger:
/// reconcilers as closures). Reconcilers of one optional request that sit next to each other
/// with the same request type are joined into one (``joiningRuns(_:)``).
///
/// A value: the closure's context is the loop's bookkeeping, so a reconciler kept on its own (a
/// child's one feedback) allocates nothing more; a list of them keeps each in a ``Box`` (see
/// PerformanceLedger: a child's one loop without arrays).
@usableFromInline
struct Reconciler<State, Event: Sendable, Failure: Error, Context: Sendable> {
  @usableFromInline typealias Host = EffectHost<Event, Failure, Context>
  @usableFromInline typealias Effect = ArchitectureKit.Effect<Event, Failure, Context>

  /// Brings the effects in line with the state.
  ///
  /// The state is `inout` although no reconciler changes it, so that it is lent where it is
  /// (see PerformanceLedger: the state lent in place).
  @usableFromInline let reconcile: (inout State, Host) -> Void

  /// Makes what joins this reconciler with its neighbours of the same kind, or `nil` if it does
  /// not join; see ``make(_:nodes:)``.
  ///
  /// A closure over the loop, called only while a list is made: a reconciler kept on its own (a
  /// child's one feedback) never makes it, and copying the reconciler copies one reference, not
  /// a `Joining` (see PerformanceLedger: a child's one loop without arrays).
  @usableFromInline let joining: (() -> Joining)?

  @usableFromInline
  init(_ reconcile: @escaping (inout State, Host) -> Void, joining: (() -> Joining)? = nil) {
    self.reconcile = reconcile
    self.joining = joining
  }

  /// A reconciler kept in a list, which a walk reaches without retaining it (see
  /// ``UnretainedArray``); only its closure is kept, the joining having been done.
  @usableFromInline
  final class Box {
    /// The reconciler's closure.
    @usableFromInline let reconcile: (inout State, Host) -> Void

    @inlinable
    init(_ reconciler: Reconciler) {
      self.reconcile = reconciler.reconcile
    }
  }

  /// What a reconciler of one optional request needs to be joined with the reconcilers of the
  /// same request type next to it.
  @usableFromInline
  struct Joining {
    /// The type of the loop: reconcilers of the same kind can be joined.
    @usableFromInline let kind: ObjectIdentifier
    /// The loop itself, with its bookkeeping.
    @usableFromInline let loop: AnyObject
    /// Makes one reconciler for loops of this kind, which brings each in line in order.
    @usableFromInline let join: ([AnyObject]) -> Reconciler

    @inlinable
    init(kind: ObjectIdentifier, loop: AnyObject, join: @escaping ([AnyObject]) -> Reconciler) {
      self.kind = kind
      self.loop = loop
      self.join = join
    }
  }

  /// The reconcilers of a feature's feedback, one per loop with its position, for
  /// ``reconcileEach(_:_:_:)``; with `nodes`, those of a system's own feature, which share
  /// bookkeeping with its reducer.
  @inlinable @inline(__always)
  static func make(
    _ feedback: [Feedback<State, Event, Failure, Context>],
    nodes: CompositionNodes? = nil
  ) -> UnretainedArray<Box> {
    guard !feedback.isEmpty else { return UnretainedArray() }
    return UnretainedArray(
      joiningRuns(
        feedback.enumerated().map { index, feedback in make(feedback, at: index, nodes: nodes) }
      ).map(Box.init))
  }

  /// The reconciler of one feedback loop, at `index` in its feature's list.
  @inlinable
  static func make(
    _ feedback: Feedback<State, Event, Failure, Context>,
    at index: Int,
    nodes: CompositionNodes?
  ) -> Reconciler {
    if let nodes, let make = feedback.makeSystemReconciler { return make(index, nodes) }
    return feedback.makeReconciler(index)
  }

  /// The reconcilers with each run of neighbours of the same kind joined into one.
  ///
  /// Feedback of one optional request (`react(request:…)`, the common kind) whose requests have
  /// the same type are joined when they are next to each other, so one call walks them all in
  /// code specialized for their type: an unchanged feedback then costs its request closure and
  /// a comparison, not two more indirect calls. The order in which the loops are brought in line
  /// is the feedback's order, joined or not.
  @inlinable
  static func joiningRuns(_ reconcilers: [Reconciler]) -> [Reconciler] {
    // Fewer than two have nothing to join: a child's one feedback allocates nothing here.
    guard reconcilers.count > 1 else { return reconcilers }
    var joined: [Reconciler] = []
    joined.reserveCapacity(reconcilers.count)
    var start = reconcilers.startIndex
    while start < reconcilers.endIndex {
      // A run is two neighbours of the same kind or more; a loop on its own stays as it is.
      guard let first = reconcilers[start].joining?(), start + 1 < reconcilers.endIndex,
        reconcilers[start + 1].joining?().kind == first.kind
      else {
        joined.append(reconcilers[start])
        start += 1
        continue
      }
      var loops: [AnyObject] = []
      var end = start
      while end < reconcilers.endIndex, let joining = reconcilers[end].joining?(),
        joining.kind == first.kind
      {
        loops.append(joining.loop)
        end += 1
      }
      joined.append(first.join(loops))
      start = end
    }
    return joined
  }

  /// Brings each reconciler's effects in line with the state at `state`, in order.
  ///
  /// The reconcilers are reached unretained (see ``UnretainedArray``). A call may stop the
  /// system; the walk goes on without checking, since a stopped system's host starts nothing
  /// (``SystemCore/startEffect(_:for:runtime:)``) and has nothing left to cancel: the check
  /// cost more than the rest of an unchanged feedback's walk.
  @inlinable
  static func reconcileEach(
    _ reconcilers: UnretainedArray<Box>,
    _ state: inout State,
    _ host: Unretained<Host>
  ) {
    reconcilers.walk(lending: host) { $0.reconcile(&state, $1) }
  }

  /// One optional request: `nil` runs nothing, an equal request keeps its effect.
  @inlinable
  static func single<Request: Equatable & Sendable>(
    feedbackIndex: Int,
    request: @escaping (State) -> Request?,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    typealias Loop = SingleRequest<State, Request?, Event, Failure, Context>
    let single = Loop(feedbackIndex: feedbackIndex, request: request, effect: effect)
    // Each closure captures the one object and nothing else, so the object is the closure's
    // context: a call needs no forwarder unpacking captures, and making them allocates nothing.
    return Reconciler(
      { state, host in single.reconcile(&state, host) },
      joining: {
        Joining(kind: ObjectIdentifier(Loop.self), loop: single) { loops in
          // Checked by `joiningRuns`: every loop is of this one kind.
          let singles = UnretainedArray(loops.map { unsafeDowncast($0, to: Loop.self) })
          return Reconciler { state, host in
            singles.walk { $0.reconcile(&state, host) }
          }
        }
      })
  }

  /// A set of requests: one effect per element; new elements start, vanished ones are
  /// cancelled.
  @inlinable
  static func set<Request: Hashable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> Set<Request>,
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    let wantedBefore = Bookkeeping<Set<Request>>([])
    let active = Bookkeeping<[Request: EffectID]>([:])
    return Reconciler { state, host in
      let wanted = requests(state)
      // Sets sharing storage compare in constant time: the common step that leaves them alone.
      if wanted == wantedBefore.value { return }
      wantedBefore.value = wanted
      // Found first, then removed: removing while walking the table would copy it each time.
      // Cancelled in start order, as a child's are, whatever the table's order.
      var vanished: [(request: Request, id: EffectID)] = []
      for (request, id) in active.value where !wanted.contains(request) {
        vanished.append((request, id))
      }
      if vanished.count > 1 { vanished.sort { $0.id.rawValue < $1.id.rawValue } }
      for (request, id) in vanished {
        active.value[request] = nil
        host.cancel(id)
        // A listener may stop the system from inside the call: then nothing more may start.
        if host.isStopped() { return }
      }
      // Every element wanted is running: the step only removed some (a result came back).
      if wanted.count == active.value.count { return }
      for request in wanted where active.value[request] == nil {
        let description = EffectRequest(feedbackIndex: feedbackIndex, value: request)
        let id = host.start(effect(request), description)
        active.value[request] = id
        if host.isStopped() { return }
      }
    }
  }

  /// Requests keyed by identifier: one effect per key, restarted when its request changes.
  @inlinable
  static func keyed<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    feedbackIndex: Int,
    requests: @escaping (State) -> [Key: Request],
    effect: @escaping (Request) -> Effect
  ) -> Reconciler {
    let wantedBefore = Bookkeeping<[Key: Request]>([:])
    let active = KeyedEffects<Key, Request>(feedbackIndex: feedbackIndex, namesKeys: true)
    return Reconciler { state, host in
      let wanted = requests(state)
      if wanted == wantedBefore.value { return }
      wantedBefore.value = wanted
      reconcileAll(wanted, active: active, host: host, effect: effect)
    }
  }

  /// Brings one effect per key in line with `wanted`, comparing every key: cancels the effects
  /// whose request changed or vanished, then starts those of new or changed requests.
  @inlinable
  static func reconcileAll<Key: Hashable & Sendable, Request: Equatable & Sendable>(
    _ wanted: [Key: Request],
    active: KeyedEffects<Key, Request>,
    host: Host,
    effect: (Request) -> Effect
  ) {
    // Found first, then cancelled: removing while walking the table would copy the whole table
    // at the first removal. Cancelled in start order, as a set's and a child's are, whatever
    // the table's order (which is the keys' hash order, different in each process).
    let running = active.running
    let vanished = running.keys { wanted[running[slot: $0].key] != running[slot: $0].value.request }
    if !vanished.isEmpty, !active.cancelInStartOrder(vanished, host) { return }
    // With nothing running (a first step, a fan-out after the last one ended), every key
    // starts: no lookup before each insertion.
    let nothingRunning = active.isEmpty
    for (key, request) in wanted where nothingRunning || !active.running.contains(key) {
      active.start(request, for: key, effect: effect, host)
      if host.isStopped() { return }
    }
  }

  /// The seed's condition form: starts on the false-to-true edge, cancels on true-to-false.
  @inlinable
  static func condition(
    feedbackIndex: Int,
    condition: @escaping (State) -> Bool,
    effect: @escaping (State) -> Effect
  ) -> Reconciler {
    let active = Bookkeeping<EffectID?>(nil)
    return Reconciler { state, host in
      switch (active.value, condition(state)) {
      case (nil, true):
        let description = EffectRequest(feedbackIndex: feedbackIndex, value: true)
        let id = host.start(effect(state), description)
        active.value = id
      case (let id?, false):
        active.value = nil
        host.cancel(id)
      default:
        break
      }
    }
  }
}

/// A closure's bookkeeping, such as the request a reconciler started an effect for, or the
/// part of the state a binding or an observed slice last showed.
///
/// A box of its own, rather than a `var` the closure captures, whose every access is checked at
/// run time (see PerformanceLedger: exclusivity opt-outs).
///
/// Exclusivity: ``value`` skips the run-time check. No two accesses can overlap: each box
/// belongs to one closure, which runs on its system's isolation and never re-enters itself
/// (the mailbox is closed while a reconciler runs; a binding or a slice is called once per step
/// or burst), and which reads or writes its box between its calls out.
@usableFromInline
final class Bookkeeping<Value> {
  @exclusivity(unchecked) @usableFromInline var value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }
}

/// The reconciler of one optional request, and its bookkeeping.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the loop runs on its system's isolation, one
/// reconciliation at a time, and ``change(to:_:)`` finishes each access before it calls the
/// host, whose calls out cannot reach this loop.
@usableFromInline
final class SingleRequest<
  State, Held: HeldRequest, Event: Sendable, Failure: Error, Context: Sendable
> where Held.Request: Sendable {
  @usableFromInline typealias Effect = ArchitectureKit.Effect<Event, Failure, Context>
  @usableFromInline typealias Request = Held.Request

  @usableFromInline let feedbackIndex: Int
  @usableFromInline let request: (State) -> Request?
  @usableFromInline let effect: (Request) -> Effect
  /// The request whose effect is live; `nil` when none is.
  ///
  /// Of type `Held`, which is `Request?`, rather than `Request?` itself: the loop's `deinit`
  /// runs unspecialized, and destroying a field whose type is built from a generic parameter
  /// (`Request?`, `(Request, EffectID)?`) looks that type's metadata up in the runtime's cache,
  /// about 330 instructions for every loop a retired child tears down, where a generic
  /// parameter's own metadata comes with the object's (see PerformanceLedger: generic metadata
  /// off the child's path). Two fields rather than an optional tuple for the same reason.
  @exclusivity(unchecked) @usableFromInline var activeRequest: Held
  /// The identifier of the live effect, while ``activeRequest`` is set.
  @exclusivity(unchecked) @usableFromInline var activeID: EffectID?
  /// The last request started, whose box the next one reuses when nothing else holds it.
  @exclusivity(unchecked) @usableFromInline var lastStarted: EffectRequest?

  @inlinable
  init(
    feedbackIndex: Int,
    request: @escaping (State) -> Request?,
    effect: @escaping (Request) -> Effect
  ) {
    self.feedbackIndex = feedbackIndex
    self.request = request
    self.effect = effect
    self.activeRequest = Held(holding: nil)
  }

  /// Brings the effect in line with `state`.
  @inlinable
  func reconcile(_ state: inout State, _ host: EffectHost<Event, Failure, Context>) {
    let wanted = request(state)
    // The common step: the request is the one running. The rest is out of line (see
    // PerformanceLedger: cold paths out of line).
    if let running = activeRequest.held {
      if let wanted, wanted == running { return }
    } else if wanted == nil {
      return
    }
    change(to: wanted, host)
  }

  /// Cancels the effect of a request that changed or vanished, and starts `wanted`'s.
  @inlinable @inline(never)
  func change(to wanted: Request?, _ host: EffectHost<Event, Failure, Context>) {
    if let running = activeID {
      activeRequest = Held(holding: nil)
      activeID = nil
      host.cancel(running)
    }
    guard let wanted, !host.isStopped() else { return }
    if lastStarted?.renew(with: wanted) != true {
      lastStarted = EffectRequest(feedbackIndex: feedbackIndex, value: wanted)
    }
    guard let description = lastStarted else { return }
    let id = host.start(effect(wanted), description)
    activeRequest = Held(holding: wanted)
    activeID = id
  }
}

/// `Request?` seen as a generic parameter of its own, so that a class can store one without
/// building its type (see ``SingleRequest/activeRequest``).
@usableFromInline
protocol HeldRequest {
  /// The request held.
  associatedtype Request: Equatable

  /// Holds `request`, or none.
  init(holding request: Request?)

  /// The request held, if any.
  var held: Request? { get }
}

extension Optional: HeldRequest where Wrapped: Equatable {
  @inlinable
  init(holding request: Wrapped?) {
    self = request
  }

  @inlinable
  var held: Wrapped? { self }
}

/// The runtime around a ``SystemCore``: what the core asks it to do, or tells it happened.
///
/// The core calls these methods directly, with their arguments, on the runtime it was handed
/// (see PerformanceLedger: direct core outputs). The core calls them with its mailbox closed, so
/// whatever a method sends is queued behind the current entry.
@usableFromInline
package protocol CoreRuntime<State, Event, Failure, Context>: AnyObject {
  associatedtype State
  associatedtype Event: Sendable
  associatedtype Failure: Error
  associatedtype Context: Sendable

  /// An event was reduced; `previous` is kept only when the core retains previous states.
  func coreStepped(_ event: Event, previous: State?)
  /// An effect started: the runtime must run it (or park it, in a test) and report how it ended
  /// with ``SystemCore/finish(_:with:runtime:)``.
  func coreStartedEffect(
    _ id: EffectID, _ request: EffectRequest, _ effect: Effect<Event, Failure, Context>)
  /// A running effect was cancelled; the runtime must cancel its work.
  func coreCancelledEffect(_ id: EffectID, _ request: EffectRequest)
  /// Whether ``coreFinishedEffect(_:_:)`` does anything now: when it does not, the core does not
  /// call it, nor read the request it would pass (a copy of a reference).
  var reportsEffectEnds: Bool { get }
  /// An effect ended without error.
  func coreFinishedEffect(_ id: EffectID, _ request: EffectRequest)
  /// An effect failed and no event was made of the error.
  func coreFailedEffect(_ id: EffectID, _ request: EffectRequest, _ error: Failure)
  /// An event was not reduced.
  func coreIgnored(_ event: Event, _ reason: IgnoredEventReason)
  /// The mailbox is empty: everything queued so far was processed (reported only while
  /// ``SystemCore/reportsSettling``). The mailbox is still closed: what the runtime queues now
  /// is processed before the core opens it, and the core reports settled again after it.
  func coreSettled()
}

/// The deciding logic every runtime and the test harness share: the state, the FIFO mailbox,
/// the reducer, and the diffing of feedback requests.
///
/// The core is synchronous and isolation-free. It performs no I/O and runs no effect: it tells
/// its runtime (a ``CoreRuntime``, passed to each call) what to start and cancel, and the runtime
/// reports back when effects end. Its owner gives it isolation (the main actor, an actor, a
/// test), so it is deliberately not `Sendable`.
///
/// Guarantees:
/// - Events are reduced one at a time, first in first out, each exactly once.
/// - The mailbox is closed while the core calls its runtime: whatever the runtime does (a listener
///   that sends, an effect that ends at once, a hook that ends another effect), its input is
///   queued and processed after the current entry. Nothing is reduced inside another step.
/// - After each step, every feedback is reconciled with the new state: equal requests keep their
///   effect, changed ones restart, vanished ones are cancelled.
/// - An event from an effect that is no longer running is never reduced, even if it was queued
///   before the effect was cancelled.
/// - ``stop(runtime:)`` takes effect at once, also from inside the runtime: no effect starts and no
///   event is reduced afterwards; every running effect is reported cancelled once, and every
///   queued event is reported ignored.
///
/// Exclusivity: every stored `var` skips the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses to one can overlap: the core is used from its owner's isolation
/// only, and no access spans a call out of the core — each read or write is over before the
/// core calls its runtime, a reconciler or a forgetter, so whatever those call back (a send, a
/// stop, a read of the state) finds no access open. The one access that spans a call is the
/// reducer's `inout` access to ``state``, and the reducer is pure: it cannot reach the system.
@usableFromInline
package class SystemCore<State, Event: Sendable, Failure: Error, Context: Sendable> {
  /// The runtimes a core can report to.
  @usableFromInline package typealias Runtime = CoreRuntime<State, Event, Failure, Context>

  /// One input waiting in the mailbox.
  @usableFromInline
  enum Entry {
    /// An event from outside (`source == nil`) or sent by a running effect.
    case event(Event, source: EffectID?)
    /// How a running effect ended.
    case outcome(EffectID, EffectOutcome<Event, Failure>)
  }

  /// The current state.
  @exclusivity(unchecked) @usableFromInline package final var state: State

  /// Whether ``stop(runtime:)`` was called.
  @exclusivity(unchecked) @usableFromInline package final var isStopped = false

  /// Whether `.stepped` carries the state before the step (costs a copy per step).
  @exclusivity(unchecked) @usableFromInline package final var retainsPreviousState = false

  /// Whether the runtime is told each time the mailbox settles (``CoreRuntime/coreSettled()``).
  @exclusivity(unchecked) @usableFromInline package final var reportsSettling = false

  /// Whether the core is inside a call that processes the mailbox; inputs then queue.
  @exclusivity(unchecked) @usableFromInline final var isDraining = false

  /// Whether the feedback is being reconciled: the only time reconcilers may use ``host``.
  @exclusivity(unchecked) @usableFromInline final var isReconciling = false

  /// The serial number (``EffectID/rawValue``) of the effect the entry being processed came
  /// from — the one that sent the event being reduced or ignored, or ended with it — for the
  /// runtime's reports (a journal names each event's origin); 0 for an event from outside.
  ///
  /// Set only while the mailbox processes an effect's entry, so the path of an event sent from
  /// outside never touches it; the mailbox is closed meanwhile, so no other entry's processing
  /// can change it. A serial number, not an identifier: one word to store and clear.
  @exclusivity(unchecked) @usableFromInline package final var entrySource: UInt64 = 0

  /// The reducer; it reports an event meant for a child that is gone.
  @usableFromInline let reduce: (inout State, Event) -> ReduceOutcome?
  /// One reconciler per feedback (neighbours joined), walked after each step.
  @usableFromInline
  let reconcilers: UnretainedArray<Reconciler<State, Event, Failure, Context>.Box>
  /// The queued inputs; those before ``mailboxHead`` are processed.
  @exclusivity(unchecked) @usableFromInline final var mailbox: [Entry]
  /// The index of the next input to process.
  @exclusivity(unchecked) @usableFromInline final var mailboxHead = 0
  /// The effects started and not dropped yet.
  @exclusivity(unchecked) @usableFromInline final var live: LiveEffects
  /// The reconcilers' way to start and cancel effects in this core, made at the first
  /// reconciliation (see ``makeHost(_:)``).
  ///
  /// Retained by hand, once, and released in `deinit`, so each reconciliation lends it
  /// without a retain of its own (see PerformanceLedger: creation). Never replaced.
  @exclusivity(unchecked) @usableFromInline
  final var host: RetainedByHand<EffectHost<Event, Failure, Context>>?

  /// The largest mailbox an idle core keeps the storage of, in entries.
  @usableFromInline static var retainedMailboxCapacity: Int { 64 }

  /// How many effects one drain of the mailbox may run on the caller's thread: effects started,
  /// and events held from effects that have not suspended yet (see `RuntimeShell.run`).
  ///
  /// A drain is everything one call processes: a send, a creation, a hook's event, an effect's
  /// result hopping back. Past the budget, effects start in a later turn of the system's actor,
  /// so an endless chain of effects that never suspend goes on step by step, and the caller's
  /// thread is given back between drains. 1,024 keeps a fan-out of a thousand cache hits
  /// inline (no loading state shown) and bounds a drain's effects to about a millisecond.
  @usableFromInline package static var inlineBudget: Int { 1024 }

  /// How many more effects the current drain may run inline; renewed when the mailbox opens.
  @exclusivity(unchecked) @usableFromInline package final var inlineEffectsLeft = SystemCore
    .inlineBudget

  /// What to run when an effect that retires when done leaves at its end: how the child hosts
  /// that started it forget it (see ``EffectHost/retireWhenDone``).
  @exclusivity(unchecked) @usableFromInline final var forgetters: [EffectID: () -> Void]

  /// The event of the step being reconciled, for feedback that starts effects on events.
  @exclusivity(unchecked) @usableFromInline final var reconcilingEvent: Event?

  /// Creates a core from a reducer and its feedback; nothing is reconciled until
  /// ``start(runtime:prologue:)``.
  package convenience init(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, Failure, Context>]
  ) {
    self.init(initialState: initialState, feature: Feature(reduce: reduce, feedback: feedback))
  }

  /// Creates a core that runs a feature; nothing is reconciled until ``start(runtime:prologue:)``.
  @inlinable
  package init(
    initialState: consuming State, feature: consuming Feature<State, Event, Failure, Context>
  ) {
    self.state = initialState
    // Set here rather than as initial values, which would be generic functions of their own.
    self.mailbox = Array()
    self.live = LiveEffects()
    self.forgetters = Dictionary()
    if let systemReducer = feature.systemReducer {
      // Compositions that share bookkeeping between their reducer and their feedback.
      let nodes = CompositionNodes()
      self.reduce = systemReducer.make(nodes)
      reconcilers = Reconciler.make(feature.feedback, nodes: nodes)
    } else {
      self.reduce = feature.reduce
      reconcilers = Reconciler.make(feature.feedback)
    }
  }

  /// Makes the host the reconcilers start and cancel effects through, for `runtime`.
  ///
  /// It is made where the core is first reconciled, in code specialized for the runtime's
  /// concrete type, so starting an effect is a direct call into the runtime (see
  /// PerformanceLedger: specialization).
  ///
  /// The closures reach the core and the runtime ``Unretained``: the runtime owns the core (a
  /// shell is its own core), which owns the host, and the host is used only during
  /// reconciliation, inside a call from the runtime.
  @inlinable
  final func makeHost<R: Runtime>(_ runtime: R) -> EffectHost<Event, Failure, Context> {
    let core = Unretained(self)
    let runtime = Unretained(runtime)
    return EffectHost(
      start: { effect, request in
        core { core in
          precondition(core.isReconciling, "A reconciler used its host outside a reconciliation.")
          return runtime { runtime in core.startEffect(effect, for: request, runtime: runtime) }
        }
      },
      cancel: { id in
        core { core in
          precondition(core.isReconciling, "A reconciler used its host outside a reconciliation.")
          runtime { runtime in core.cancelEffect(id, runtime: runtime) }
        }
      },
      isStopped: { core { $0.isStopped } },
      event: { core { $0.reconcilingEvent } },
      retireWhenDone: { id, forget in
        core { core in
          core.live.retireWhenDone(id)
          if let forget { core.forgetters[id] = forget }
        }
      },
      isLive: { id in core { $0.live.contains(id) } }
    )
  }

  /// Makes the ``host``, retained until `deinit`.
  @inlinable @inline(never)
  final func makeRetainedHost(
    _ runtime: some Runtime
  ) -> RetainedByHand<EffectHost<Event, Failure, Context>> {
    let host = RetainedByHand(makeHost(runtime))
    self.host = host
    return host
  }

  deinit {
    host?.release()
  }

  /// The requests whose effects are running, in start order.
  package final var runningRequests: [(id: EffectID, request: EffectRequest)] {
    live.all.filter(\.isRunning).map { ($0.id, $0.request) }
  }

  /// The live requests (running or finished, not yet dropped by the state), in start order.
  package final var liveRequests: [(id: EffectID, request: EffectRequest)] {
    live.all.map { ($0.id, $0.request) }
  }

  /// Whether the effect with this identifier is running (started, not ended, not cancelled).
  @inlinable
  package final func isRunning(_ id: EffectID) -> Bool {
    live.isRunning(id)
  }

  /// The storage the mailbox holds, in entries.
  package final var mailboxCapacity: Int {
    mailbox.capacity
  }

  /// Reconciles the feedback with the initial state, starting the requests present in it.
  ///
  /// - Parameters:
  ///   - runtime: Receives what happens.
  ///   - prologue: Runs first with the mailbox closed, such as the first render of the UI
  ///     bindings; the events it sends are reduced after the initial reconciliation.
  @inlinable
  package final func start(runtime: some Runtime, prologue: () -> Void = {}) {
    guard !isDraining else {
      prologue()
      if !isStopped { reconcile(runtime) }
      return
    }
    isDraining = true
    prologue()
    // Checked here, as the mailbox below: most systems start with no feedback to reconcile
    // and nothing queued, and a call to find so costs more than the check (see
    // PerformanceLedger: creation).
    if !isStopped, !reconcilers.isEmpty { reconcile(runtime) }
    if mailboxHead < mailbox.count { drainQueued(runtime) } else { endDrain(runtime) }
  }

  /// Runs `body` with the mailbox closed, then processes what it queued.
  ///
  /// Runtimes call their hooks through it when no step is running (a binding's first render),
  /// so a hook's send is queued, never reduced inside the hook.
  @inlinable
  package final func perform(_ runtime: some Runtime, _ body: () -> Void) {
    guard !isDraining else { return body() }
    isDraining = true
    body()
    drainQueued(runtime)
  }

  /// Sends an event from outside (a user, a binding) and processes the mailbox.
  @inlinable
  package final func send(_ event: Event, runtime: some Runtime) {
    guard !isDraining else {
      mailbox.append(.event(event, source: nil))
      return
    }
    isDraining = true
    stepOrIgnore(event, runtime)
    drainQueued(runtime)
  }

  /// Reduces an event sent from outside, or reports it ignored when the core has stopped.
  @inlinable @inline(__always)
  final func stepOrIgnore(_ event: Event, _ runtime: some Runtime) {
    if isStopped {
      runtime.coreIgnored(event, .stopped)
    } else {
      step(event, runtime)
    }
  }

  /// Sends an event from outside, as ``send(_:runtime:)`` does, and calls `afterStep` once the
  /// event's own step is over.
  ///
  /// `afterStep` runs before the events the step led to are processed: how an attachment knows
  /// which effects that step started (see `RuntimeShell.attach`). Outside the hot path.
  package final func send(_ event: Event, runtime: some Runtime, afterStep: () -> Void) {
    guard !isDraining else {
      mailbox.append(.event(event, source: nil))
      afterStep()
      return
    }
    isDraining = true
    stepOrIgnore(event, runtime)
    afterStep()
    drainQueued(runtime)
  }

  /// Queues an event sent by a running effect; it is ignored if the effect stopped running.
  @inlinable
  package final func deliver(_ event: Event, from id: EffectID, runtime: some Runtime) {
    mailbox.append(.event(event, source: id))
    perform(runtime) {}
  }

  /// Records how a running effect ended; a stale outcome is ignored (its event reported).
  @inlinable
  package final func finish(
    _ id: EffectID,
    with outcome: EffectOutcome<Event, Failure>,
    runtime: some Runtime
  ) {
    mailbox.append(.outcome(id, outcome))
    perform(runtime) {}
  }

  /// Cancels every running effect and ignores everything afterwards.
  ///
  /// It takes effect at once, wherever it is called from. Events still queued are reported as
  /// ignored, after the cancellations, so no event is lost silently: a user's as `.stopped`,
  /// an effect's as `.cancelledEffect`, since `stop` cancelled its effect.
  package final func stop(runtime: some Runtime) {
    guard !isStopped else { return }
    isStopped = true
    let running = runningRequests
    live.removeAll()
    forgetters.removeAll()
    perform(runtime) {
      for (id, request) in running {
        runtime.coreCancelledEffect(id, request)
      }
    }
  }

  // MARK: Reconciler interface

  /// Starts an effect for a request; called by reconcilers.
  ///
  /// After ``stop(runtime:)`` (a listener may stop the system in the middle of a
  /// reconciliation) nothing starts, and the identifier returned is never live, so cancelling
  /// it later does nothing.
  @inlinable
  final func startEffect(
    _ effect: Effect<Event, Failure, Context>,
    for request: EffectRequest,
    runtime: some Runtime
  ) -> EffectID {
    guard !isStopped else { return .neverLive }
    let id = live.insert(request)
    runtime.coreStartedEffect(id, request, effect)
    return id
  }

  /// Cancels running effects from outside a step.
  ///
  /// The task their event was attached to was cancelled (see `RuntimeShell.attach`). Their
  /// requests stay, as after an effect that ended.
  package final func cancelEffects(_ ids: [EffectID], runtime: some Runtime) {
    guard !isStopped else { return }
    perform(runtime) {
      for id in ids {
        cancelEffect(id, runtime: runtime)
        if isStopped { return }
      }
    }
  }

  /// Retires an effect whose request changed or vanished; called by reconcilers.
  @inlinable
  final func cancelEffect(_ id: EffectID, runtime: some Runtime) {
    guard let effect = live.remove(id) else { return }
    if !forgetters.isEmpty { forgetters[id] = nil }
    guard effect.wasRunning else { return }
    runtime.coreCancelledEffect(id, effect.request)
  }

  // MARK: Processing

  /// Processes the queued entries in order, then opens the mailbox.
  @inlinable
  final func drainQueued(_ runtime: some Runtime) {
    while let entry = nextEntry() {
      process(entry, runtime)
    }
    endDrain(runtime)
  }

  /// Ends a drain whose entries are processed: reports the settled mailbox and opens it.
  @inlinable @inline(__always)
  final func endDrain(_ runtime: some Runtime) {
    if reportsSettling { settle(runtime) }
    isDraining = false
    inlineEffectsLeft = Self.inlineBudget
  }

  /// Reports the settled mailbox, and processes what the runtime queued then, until it queues
  /// nothing more.
  ///
  /// Out of line: most systems never report settling (see PerformanceLedger: cold paths out of
  /// line).
  @inlinable @inline(never)
  final func settle(_ runtime: some Runtime) {
    runtime.coreSettled()
    while mailboxHead < mailbox.count {
      while let entry = nextEntry() {
        process(entry, runtime)
      }
      runtime.coreSettled()
    }
  }

  @inlinable
  final func process(_ entry: Entry, _ runtime: some Runtime) {
    switch entry {
    case .event(let event, let source):
      entrySource = source?.rawValue ?? 0
      defer { entrySource = 0 }
      if let source, !live.isRunning(source) {
        // The effect was cancelled (by its request, or by `stop`) before its event came through.
        runtime.coreIgnored(event, .cancelledEffect)
      } else if isStopped {
        runtime.coreIgnored(event, .stopped)
      } else {
        step(event, runtime)
      }
    case .outcome(let id, let outcome):
      entrySource = id.rawValue
      defer { entrySource = 0 }
      guard case .event(let event) = outcome else { return endWithoutEvent(id, outcome, runtime) }
      guard let slot = live.end(id) else {
        // A result that arrives after its effect was cancelled is stale: report, never reduce.
        return runtime.coreIgnored(event, .cancelledEffect)
      }
      if !forgetters.isEmpty { forgetters.removeValue(forKey: id)?() }
      if runtime.reportsEffectEnds { runtime.coreFinishedEffect(id, live.request(at: slot)) }
      // Before the step, whose reconciliation may renew the request's box.
      live.retireIfDone(id)
      if isStopped {
        // A listener stopped the system as the effect finished: its event comes too late.
        runtime.coreIgnored(event, .stopped)
      } else {
        step(event, runtime)
      }
    }
  }

  /// Ends an effect whose outcome brings no event: it finished, gave up, or failed.
  ///
  /// Out of line: a step's outcomes bring events (see PerformanceLedger: cold paths out of
  /// line).
  @inlinable @inline(never)
  final func endWithoutEvent(
    _ id: EffectID, _ outcome: EffectOutcome<Event, Failure>, _ runtime: some Runtime
  ) {
    guard let slot = live.end(id) else { return }
    if !forgetters.isEmpty { forgetters.removeValue(forKey: id)?() }
    switch outcome {
    case .event:
      preconditionFailure("An outcome with an event is processed with its step.")
    case .finished, .cancelled:
      // An effect that gave up on its own (it saw a cancellation it was not asked for) ends
      // like any other: its request stays in place.
      if runtime.reportsEffectEnds { runtime.coreFinishedEffect(id, live.request(at: slot)) }
    case .failed(let error):
      runtime.coreFailedEffect(id, live.request(at: slot), error)
    }
    live.retireIfDone(id)
  }

  /// Reduces one event, reports the step, and reconciles the feedback with the new state.
  @inlinable
  final func step(_ event: Event, _ runtime: some Runtime) {
    // The state before the step is kept only while observers compare with it: out of line,
    // so the common step carries no copy of it (see PerformanceLedger: cold paths out of line).
    if retainsPreviousState { return stepKeepingPrevious(event, runtime) }
    guard reduce(event, runtime) else { return }
    runtime.coreStepped(event, previous: nil)
    reconcile(after: event, runtime)
  }

  /// A step that reports the state before it, for observers.
  @inlinable @inline(never)
  final func stepKeepingPrevious(_ event: Event, _ runtime: some Runtime) {
    let previous = state
    guard reduce(event, runtime) else { return }
    runtime.coreStepped(event, previous: previous)
    reconcile(after: event, runtime)
  }

  /// Reduces one event; reports it ignored, and returns `false`, when it was meant for a
  /// child that is gone.
  @inlinable @inline(__always)
  final func reduce(_ event: Event, _ runtime: some Runtime) -> Bool {
    if case .missingChild(let scope)? = reduce(&state, event) {
      // The event was meant for a child that is gone; the reducers stopped before any change.
      // (A system's own feature that dismisses itself has nothing to leave: it steps.)
      runtime.coreIgnored(event, .missingChild(scope))
      return false
    }
    return true
  }

  /// Reconciles the feedback with the state a step left, unless the step stopped the system.
  @inlinable @inline(__always)
  final func reconcile(after event: Event, _ runtime: some Runtime) {
    guard !isStopped, !reconcilers.isEmpty else { return }
    reconcilingEvent = event
    reconcile(runtime)
    reconcilingEvent = nil
  }

  @inlinable
  final func nextEntry() -> Entry? {
    guard mailboxHead < mailbox.count else { return nil }
    let entry = mailbox[mailboxHead]
    mailboxHead += 1
    if mailboxHead == 1, mailbox.count == 1 {
      // The common case, one entry queued behind a step (see PerformanceLedger: the one-entry
      // mailbox).
      mailbox.removeLast()
      mailboxHead = 0
    } else if mailboxHead == mailbox.count {
      // Give a burst's storage back once it is processed; keep a small mailbox's.
      mailbox.removeAll(keepingCapacity: mailbox.capacity <= Self.retainedMailboxCapacity)
      mailboxHead = 0
    } else if mailboxHead >= 1024, mailboxHead * 2 >= mailbox.count {
      // Events keep arriving during steps, so the mailbox may never empty: drop the reduced
      // prefix once it is most of the array, or every reduced event would stay in memory.
      mailbox.removeFirst(mailboxHead)
      mailboxHead = 0
    }
    return entry
  }

  @inlinable
  final func reconcile(_ runtime: some Runtime) {
    guard !reconcilers.isEmpty else { return }
    let host = self.host ?? makeRetainedHost(runtime)
    isReconciling = true
    // The state is read once into a local the walk lends to every reconciler (see
    // PerformanceLedger: the state lent in place).
    var state = self.state
    Reconciler.reconcileEach(reconcilers, &state, host.unretained)
    isReconciling = false
  }
}

/// What the core asks its runtime to do, or tells it happened, during one call.
@usableFromInline
package enum CoreOutput<State, Event: Sendable, Failure: Error, Context: Sendable> {
  /// An event was reduced; `previous` is kept only when the core retains previous states.
  case stepped(Event, previous: State?)
  /// An effect started: the runtime must run it (or park it, in a test) and report how it
  /// ended with ``SystemCore/finish(_:with:handle:)``.
  case effectStarted(EffectID, EffectRequest, Effect<Event, Failure, Context>)
  /// A running effect was cancelled; the runtime must cancel its work.
  case effectCancelled(EffectID, EffectRequest)
  /// An effect ended without error.
  case effectFinished(EffectID, EffectRequest)
  /// An effect failed and no event was made of the error.
  case effectFailed(EffectID, EffectRequest, Failure)
  /// An event was not reduced.
  case eventIgnored(Event, IgnoredEventReason)
}

/// The deciding logic every runtime and the test harness share: the state, the FIFO mailbox,
/// the reducer, and the diffing of feedback requests.
///
/// The core is synchronous and isolation-free. It performs no I/O and runs no effect: it tells
/// its runtime what to start and cancel through a non-escaping `handle` closure, and the runtime
/// reports back when effects end. Its owner gives it isolation (the main actor, an actor, a
/// test), so it is deliberately not `Sendable`.
///
/// Guarantees:
/// - Events are reduced one at a time, first in first out, each exactly once.
/// - The mailbox is closed while the core calls `handle`: whatever `handle` does (a listener
///   that sends, an effect that ends at once, a hook that ends another effect), its input is
///   queued and processed after the current entry. Nothing is reduced inside another step.
/// - After each step, every feedback is reconciled with the new state: equal requests keep their
///   effect, changed ones restart, vanished ones are cancelled.
/// - An event from an effect that is no longer running is never reduced, even if it was queued
///   before the effect was cancelled.
/// - ``stop(handle:)`` takes effect at once, also from inside `handle`: no effect starts and no
///   event is reduced afterwards; every running effect is reported cancelled once, and every
///   queued event is reported ignored.
@usableFromInline
package final class SystemCore<State, Event: Sendable, Failure: Error, Context: Sendable> {
  @usableFromInline package typealias Output = CoreOutput<State, Event, Failure, Context>

  /// One input waiting in the mailbox.
  @usableFromInline
  enum Entry {
    /// An event from outside (`source == nil`) or sent by a running effect.
    case event(Event, source: EffectID?)
    /// How a running effect ended.
    case outcome(EffectID, EffectOutcome<Event, Failure>)
  }

  /// The current state.
  @exclusivity(unchecked) @usableFromInline package var state: State

  /// Whether ``stop(handle:)`` was called.
  @exclusivity(unchecked) @usableFromInline package var isStopped = false

  /// Whether `.stepped` carries the state before the step (costs a copy per step).
  @exclusivity(unchecked) @usableFromInline package var retainsPreviousState = false

  @usableFromInline let reduce: (inout State, Event) -> MissingChild?
  @usableFromInline let reconcilers: [Reconciler<State, Event, Failure, Context>]
  @exclusivity(unchecked) @usableFromInline var mailbox: [Entry] = []
  @exclusivity(unchecked) @usableFromInline var mailboxHead = 0
  /// Whether the core is inside a call that processes the mailbox; inputs then queue.
  @exclusivity(unchecked) @usableFromInline var isDraining = false
  @exclusivity(unchecked) @usableFromInline var live: [EffectID: LiveEffect] = [:]
  private var lastID: UInt64 = 0
  /// The reconcilers' way to start and cancel effects in this core.
  @exclusivity(unchecked) @usableFromInline var host: EffectHost<Event, Failure, Context>?
  /// The runtime's output while the feedback is reconciled, for ``host``.
  @exclusivity(unchecked) @usableFromInline var reconcilingHandle: ((Output) -> Void)?

  /// The largest mailbox an idle core keeps the storage of, in entries.
  @usableFromInline static var retainedMailboxCapacity: Int { 64 }

  @usableFromInline
  struct LiveEffect {
    @usableFromInline let request: EffectRequest
    @usableFromInline var isRunning: Bool
    /// Whether the effect leaves the system when it ends (an event started it).
    @usableFromInline var retiresWhenDone = false

    @usableFromInline
    init(request: EffectRequest, isRunning: Bool) {
      self.request = request
      self.isRunning = isRunning
    }
  }

  /// The event of the step being reconciled, for feedback that starts effects on events.
  @exclusivity(unchecked) @usableFromInline var reconcilingEvent: Event?

  /// Creates a core from a reducer and its feedback; nothing is reconciled until
  /// ``start(handle:prologue:)``.
  package convenience init(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, Failure, Context>]
  ) {
    self.init(initialState: initialState, feature: Feature(reduce: reduce, feedback: feedback))
  }

  /// Creates a core that runs a feature; nothing is reconciled until ``start(handle:prologue:)``.
  package init(initialState: State, feature: Feature<State, Event, Failure, Context>) {
    self.state = initialState
    self.reduce = feature.reduce
    self.reconcilers = feature.feedback.enumerated().map { index, feedback in
      feedback.makeReconciler(index)
    }
    host = EffectHost(
      start: { [unowned self] effect, request in
        startEffect(effect, for: request, handle: currentHandle)
      },
      cancel: { [unowned self] id in cancelEffect(id, handle: currentHandle) },
      isStopped: { [unowned self] in isStopped },
      event: { [unowned self] in reconcilingEvent },
      retireWhenDone: { [unowned self] id in live[id]?.retiresWhenDone = true },
      isLive: { [unowned self] id in live[id] != nil }
    )
  }

  /// The runtime's output during reconciliation, the only time reconcilers call the host.
  @usableFromInline var currentHandle: (Output) -> Void {
    guard let handle = reconcilingHandle else {
      preconditionFailure("A reconciler used its host outside a reconciliation.")
    }
    return handle
  }

  /// The requests whose effects are running, in start order.
  package var runningRequests: [(id: EffectID, request: EffectRequest)] {
    live.filter(\.value.isRunning).sorted { $0.key.rawValue < $1.key.rawValue }
      .map { ($0.key, $0.value.request) }
  }

  /// The live requests (running or finished, not yet dropped by the state), in start order.
  package var liveRequests: [(id: EffectID, request: EffectRequest)] {
    live.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value.request) }
  }

  /// Whether the effect with this identifier is running (started, not ended, not cancelled).
  package func isRunning(_ id: EffectID) -> Bool {
    live[id]?.isRunning == true
  }

  /// The storage the mailbox holds, in entries.
  package var mailboxCapacity: Int {
    mailbox.capacity
  }

  /// Reconciles the feedback with the initial state, starting the requests present in it.
  ///
  /// - Parameters:
  ///   - handle: Receives the outputs.
  ///   - prologue: Runs first with the mailbox closed, such as the first render of the UI
  ///     bindings; the events it sends are reduced after the initial reconciliation.
  package func start(handle: (Output) -> Void, prologue: () -> Void = {}) {
    perform(handle) {
      prologue()
      if !isStopped { reconcile(handle) }
    }
  }

  /// Runs `body` with the mailbox closed, then processes what it queued.
  ///
  /// Runtimes call their hooks through it when no step is running (a binding's first render),
  /// so a hook's send is queued, never reduced inside the hook.
  @inlinable
  package func perform(_ handle: (Output) -> Void, _ body: () -> Void) {
    guard !isDraining else { return body() }
    isDraining = true
    body()
    drainQueued(handle)
  }

  /// Sends an event from outside (a user, a binding) and processes the mailbox.
  @inlinable
  package func send(_ event: Event, handle: (Output) -> Void) {
    guard !isDraining else {
      mailbox.append(.event(event, source: nil))
      return
    }
    isDraining = true
    if isStopped {
      handle(.eventIgnored(event, .stopped))
    } else {
      step(event, handle)
    }
    drainQueued(handle)
  }

  /// Queues an event sent by a running effect; it is ignored if the effect stopped running.
  package func deliver(_ event: Event, from id: EffectID, handle: (Output) -> Void) {
    mailbox.append(.event(event, source: id))
    perform(handle) {}
  }

  /// Records how a running effect ended; a stale outcome is ignored (its event reported).
  package func finish(
    _ id: EffectID,
    with outcome: EffectOutcome<Event, Failure>,
    handle: (Output) -> Void
  ) {
    mailbox.append(.outcome(id, outcome))
    perform(handle) {}
  }

  /// Cancels every running effect and ignores everything afterwards.
  ///
  /// It takes effect at once, wherever it is called from. Events still queued are reported as
  /// ignored, after the cancellations, so no event is lost silently: a user's as `.stopped`,
  /// an effect's as `.cancelledEffect`, since `stop` cancelled its effect.
  package func stop(handle: (Output) -> Void) {
    guard !isStopped else { return }
    isStopped = true
    let running = runningRequests
    live.removeAll()
    perform(handle) {
      for (id, request) in running {
        handle(.effectCancelled(id, request))
      }
    }
  }

  // MARK: Reconciler interface

  /// Starts an effect for a request; called by reconcilers, never after ``stop(handle:)``.
  @usableFromInline
  func startEffect(
    _ effect: Effect<Event, Failure, Context>,
    for request: EffectRequest,
    handle: (Output) -> Void
  ) -> EffectID {
    lastID &+= 1
    let id = EffectID(rawValue: lastID)
    live[id] = LiveEffect(request: request, isRunning: true)
    handle(.effectStarted(id, request, effect))
    return id
  }

  /// Retires an effect whose request changed or vanished; called by reconcilers.
  @usableFromInline
  func cancelEffect(_ id: EffectID, handle: (Output) -> Void) {
    guard let effect = live.removeValue(forKey: id), effect.isRunning else { return }
    handle(.effectCancelled(id, effect.request))
  }

  // MARK: Processing

  /// Processes the queued entries in order, then opens the mailbox.
  @inlinable
  func drainQueued(_ handle: (Output) -> Void) {
    while let entry = nextEntry() {
      process(entry, handle)
    }
    isDraining = false
  }

  @inlinable
  func process(_ entry: Entry, _ handle: (Output) -> Void) {
    switch entry {
    case .event(let event, let source):
      if let source, live[source]?.isRunning != true {
        // The effect was cancelled (by its request, or by `stop`) before its event came through.
        handle(.eventIgnored(event, .cancelledEffect))
      } else if isStopped {
        handle(.eventIgnored(event, .stopped))
      } else {
        step(event, handle)
      }
    case .outcome(let id, let outcome):
      guard let effect = live[id], effect.isRunning else {
        // A result that arrives after its effect was cancelled is stale: report, never reduce.
        if case .event(let event) = outcome { handle(.eventIgnored(event, .cancelledEffect)) }
        return
      }
      live[id]?.isRunning = false
      if effect.retiresWhenDone { live[id] = nil }
      switch outcome {
      case .event(let event):
        handle(.effectFinished(id, effect.request))
        if isStopped {
          // A listener stopped the system as the effect finished: its event comes too late.
          handle(.eventIgnored(event, .stopped))
        } else {
          step(event, handle)
        }
      case .finished, .cancelled:
        // An effect that gave up on its own (it saw a cancellation it was not asked for) ends
        // like any other: its request stays in place.
        handle(.effectFinished(id, effect.request))
      case .failed(let error):
        handle(.effectFailed(id, effect.request, error))
      }
    }
  }

  /// Reduces one event, reports the step, and reconciles the feedback with the new state.
  @inlinable
  func step(_ event: Event, _ handle: (Output) -> Void) {
    let previous = retainsPreviousState ? state : nil
    if let missing = reduce(&state, event) {
      // The event was meant for a child that is gone; the reducers stopped before any change.
      handle(.eventIgnored(event, .missingChild(missing.scope)))
      return
    }
    handle(.stepped(event, previous: previous))
    guard !isStopped else { return }
    reconcilingEvent = event
    reconcile(handle)
    reconcilingEvent = nil
  }

  @inlinable
  func nextEntry() -> Entry? {
    guard mailboxHead < mailbox.count else { return nil }
    let entry = mailbox[mailboxHead]
    mailboxHead += 1
    if mailboxHead == mailbox.count {
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
  func reconcile(_ handle: (Output) -> Void) {
    guard let host, !reconcilers.isEmpty else { return }
    withoutActuallyEscaping(handle) { handle in
      reconcilingHandle = handle
      for reconciler in reconcilers {
        reconciler.reconcile(state, host)
        if isStopped { break }
      }
      reconcilingHandle = nil
    }
  }
}

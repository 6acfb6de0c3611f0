/// What the core asks its runtime to do, or tells it happened, during one call.
@usableFromInline
package enum CoreOutput<State, Event: Sendable, Failure: Error, Context: Sendable> {
  /// An event was reduced; `previous` is kept only when the core retains previous states.
  case stepped(Event, previous: State?)
  /// An effect started. `effect` is `nil` when the core completed it inline; otherwise the
  /// runtime must run it and report its end with ``SystemCore/finish(_:with:handle:)``.
  case effectStarted(EffectID, EffectRequest, Effect<Event, Failure, Context>?)
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
/// - Events are reduced one at a time, first in first out, each exactly once. An event that
///   arrives while a step is running (from `handle`) is queued and reduced after it.
/// - After each step, every feedback is reconciled with the new state: equal requests keep their
///   effect, changed ones restart, vanished ones are cancelled.
/// - An event from an effect that is no longer live is never reduced, even if it was queued
///   before the effect was cancelled.
@usableFromInline
package final class SystemCore<State, Event: Sendable, Failure: Error, Context: Sendable> {
  @usableFromInline package typealias Output = CoreOutput<State, Event, Failure, Context>

  /// The current state.
  @usableFromInline package var state: State

  /// Whether ``stop(handle:)`` was called.
  @usableFromInline package var isStopped = false

  /// Whether `.stepped` carries the state before the step (costs a copy per step).
  @usableFromInline package var retainsPreviousState = false

  /// Whether effects with a known outcome complete inside the core instead of being handed out.
  package var completesKnownOutcomesInline = true

  @usableFromInline let reduce: (inout State, Event) -> Void
  @usableFromInline let reconcilers: [Reconciler<State, Event, Failure, Context>]
  @usableFromInline var mailbox: [(event: Event, source: EffectID?)] = []
  @usableFromInline var mailboxHead = 0
  @usableFromInline var isDraining = false
  @usableFromInline var live: [EffectID: LiveEffect] = [:]
  private var lastID: UInt64 = 0

  @usableFromInline
  struct LiveEffect {
    @usableFromInline let request: EffectRequest
    @usableFromInline var isRunning: Bool
  }

  /// Creates a core; nothing is reconciled until ``start(handle:)``.
  package init(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, Failure, Context>]
  ) {
    self.state = initialState
    self.reduce = reduce
    self.reconcilers = feedback.enumerated().map { index, feedback in
      feedback.makeReconciler(index)
    }
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

  /// Whether the effect with this identifier is live (started and not cancelled).
  package func isLive(_ id: EffectID) -> Bool {
    live[id] != nil
  }

  /// Reconciles the feedback with the initial state, starting the requests present in it.
  package func start(handle: (Output) -> Void) {
    guard !isStopped else { return }
    withDraining(handle) { reconcile(handle) }
  }

  /// Queues an event from outside (a user, a binding) and processes the mailbox.
  @inlinable
  package func send(_ event: Event, handle: (Output) -> Void) {
    guard !isStopped else {
      handle(.eventIgnored(event, .stopped))
      return
    }
    guard isDraining || mailboxHead < mailbox.count else {
      // Nothing queued and no step running: step at once, without a trip through the mailbox.
      withDraining(handle) { step(event, handle) }
      return
    }
    mailbox.append((event, nil))
    drain(handle)
  }

  /// Queues an event sent by a running effect, unless the effect is no longer live.
  package func deliver(_ event: Event, from id: EffectID, handle: (Output) -> Void) {
    guard !isStopped else {
      handle(.eventIgnored(event, .stopped))
      return
    }
    guard live[id] != nil else {
      handle(.eventIgnored(event, .cancelledEffect))
      return
    }
    mailbox.append((event, id))
    drain(handle)
  }

  /// Records how a handed-out effect ended; ignored when it is no longer live.
  package func finish(
    _ id: EffectID,
    with outcome: EffectOutcome<Event, Failure>,
    handle: (Output) -> Void
  ) {
    guard !isStopped, let effect = live[id], effect.isRunning else {
      // A result that arrives after its effect was cancelled is stale: report, never reduce.
      if case .event(let event) = outcome { handle(.eventIgnored(event, .cancelledEffect)) }
      return
    }
    live[id]?.isRunning = false
    switch outcome {
    case .event(let event):
      handle(.effectFinished(id, effect.request))
      mailbox.append((event, id))
      drain(handle)
    case .finished:
      handle(.effectFinished(id, effect.request))
    case .failed(let error):
      handle(.effectFailed(id, effect.request, error))
    case .cancelled:
      // The effect gave up on its own (it saw a cancellation it was not asked for); the
      // request stays in place, as for any ended effect.
      handle(.effectFinished(id, effect.request))
    }
  }

  /// Cancels every live effect, clears the mailbox and ignores everything afterwards.
  ///
  /// Events still queued (sent during the step that stopped the system) are reported as
  /// ignored, like the events sent afterwards, so no event is lost silently.
  package func stop(handle: (Output) -> Void) {
    guard !isStopped else { return }
    isStopped = true
    let running = runningRequests
    let queued = mailbox[mailboxHead...].map(\.event)
    live.removeAll()
    mailbox.removeAll()
    mailboxHead = 0
    for (id, request) in running {
      handle(.effectCancelled(id, request))
    }
    for event in queued {
      handle(.eventIgnored(event, .stopped))
    }
  }

  // MARK: Reconciler interface

  /// Starts an effect for a request; called by reconcilers.
  @usableFromInline
  func startEffect(
    _ effect: Effect<Event, Failure, Context>,
    for request: EffectRequest,
    handle: (Output) -> Void
  ) -> EffectID {
    lastID &+= 1
    let id = EffectID(rawValue: lastID)
    guard completesKnownOutcomesInline, case .done(let outcome) = effect else {
      live[id] = LiveEffect(request: request, isRunning: true)
      handle(.effectStarted(id, request, effect))
      return id
    }
    live[id] = LiveEffect(request: request, isRunning: false)
    handle(.effectStarted(id, request, nil))
    switch outcome {
    case .success(let event):
      handle(.effectFinished(id, request))
      mailbox.append((event, id))
    case .failure(let error):
      handle(.effectFailed(id, request, error))
    }
    return id
  }

  /// Retires an effect whose request changed or vanished; called by reconcilers.
  @usableFromInline
  func cancelEffect(_ id: EffectID, handle: (Output) -> Void) {
    guard let effect = live.removeValue(forKey: id), effect.isRunning else { return }
    handle(.effectCancelled(id, effect.request))
  }

  // MARK: Processing

  @inlinable
  func drain(_ handle: (Output) -> Void) {
    guard !isDraining else { return }
    withDraining(handle) {
      while !isStopped, let event = nextEvent(handle) {
        step(event, handle)
      }
    }
  }

  /// Reduces one event, reports the step, and reconciles the feedback with the new state.
  @inlinable
  func step(_ event: Event, _ handle: (Output) -> Void) {
    let previous = retainsPreviousState ? state : nil
    reduce(&state, event)
    handle(.stepped(event, previous: previous))
    guard !isStopped else { return }
    reconcile(handle)
  }

  @inlinable
  func withDraining(_ handle: (Output) -> Void, _ body: () -> Void) {
    isDraining = true
    body()
    isDraining = false
    // The body may queue events (effects completed inline, sends from listeners): process them.
    if mailboxHead < mailbox.count, !isStopped { drain(handle) }
  }

  @inlinable
  func nextEvent(_ handle: (Output) -> Void) -> Event? {
    while mailboxHead < mailbox.count {
      let (event, source) = mailbox[mailboxHead]
      mailboxHead += 1
      if mailboxHead == mailbox.count {
        mailbox.removeAll(keepingCapacity: true)
        mailboxHead = 0
      } else if mailboxHead >= 1024, mailboxHead * 2 >= mailbox.count {
        // Events keep arriving during steps, so the mailbox may never empty: drop the reduced
        // prefix once it is most of the array, or every reduced event would stay in memory.
        mailbox.removeFirst(mailboxHead)
        mailboxHead = 0
      }
      if let source, live[source] == nil {
        handle(.eventIgnored(event, .cancelledEffect))
        continue
      }
      return event
    }
    return nil
  }

  @inlinable
  func reconcile(_ handle: (Output) -> Void) {
    for reconciler in reconcilers {
      reconciler.reconcile(state, self, handle)
      if isStopped { return }
    }
  }
}

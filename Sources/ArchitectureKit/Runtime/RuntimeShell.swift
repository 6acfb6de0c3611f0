import FunctionalCore

/// The shell around a ``SystemCore``, which carries out what the core decides.
///
/// It hands states to the listeners and effects to their tasks, and brings the effects' results
/// back into the core's mailbox. ``System`` (main actor), ``BackgroundSystem`` (an actor) and
/// the test harness each own one.
///
/// Its owner calls it only from its isolation. Effects run in nonisolated tasks; on the main
/// actor they start on the owner's thread and leave it at their first suspension, and what they
/// report before, their launch hands to the core. Their later events and outcomes (all of them,
/// for an actor's effects) come back through a ``RuntimePort`` that hops to it.
///
/// One file per role (see `Runtime/README.md`):
/// - here: the stored properties, the entry points (start, send, stop), and what a step does;
/// - `RuntimeShell+Effects.swift`: effects run, launched, deferred, cancelled, and their results
///   handed back to the core;
/// - `RuntimeShell+Listeners.swift`: UI bindings, loop callbacks and observers;
/// - `RuntimeShell+StateWaits.swift`: `send(_:while:)` and the streams of states;
/// - `RuntimeShell+Parking.swift`: what only a test harness uses, behind ``parking``;
/// - `RuntimeShell+Journal.swift`: printed changes and journals, behind ``recording``.
///
/// Exclusivity: the stored `var`s marked `@exclusivity(unchecked)` — those a step, an effect's
/// start or its result touches — skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses to one can overlap: the shell is used from its owner's isolation
/// only, and every access is over before the shell calls out — a listener walk goes over a
/// copy of its array, an Observation box is read into a local first — so whatever a listener,
/// an effect or the core does from inside that call (add or remove listeners, send, stop) finds
/// no access open. The owner's nonisolated `deinit` reads ``madeTasks`` only once no other
/// reference is left.
@usableFromInline
package final class RuntimeShell<State, Event: Sendable, ErrorType: Error, Context: Sendable>:
  CoreRuntime
{
  @usableFromInline package typealias Activity = SystemActivity<State, Event, ErrorType>
  @usableFromInline package typealias Effect = ArchitectureKit.Effect<Event, ErrorType, Context>
  @usableFromInline package typealias Port = RuntimePort<State, Event, ErrorType, Context>

  /// The deciding logic: the state, the mailbox, the reducer and the feedback.
  @usableFromInline package let core: SystemCore<State, Event, ErrorType, Context>
  /// The dependencies every effect receives.
  @usableFromInline package let context: Context
  /// The bag of the effects' tasks and the streams' finishers, once made (see ``tasks``).
  @exclusivity(unchecked) @usableFromInline package var madeTasks: TaskBag?
  /// The type of the runtime's owner, which names it in diagnostics (described only when one is
  /// written; see PerformanceLedger: creation).
  @usableFromInline let owner: Any.Type
  /// The port, once made (see ``port``).
  @exclusivity(unchecked) @usableFromInline var madePort: Port?
  /// The main-actor system's Observation hook, told once the mailbox settled after steps.
  ///
  /// A box of its own, made with the hook: a system nobody observes pays one reference for it.
  /// The core reports its settled mailbox while there is one.
  @exclusivity(unchecked) @usableFromInline var settledObservation: SettledObservation? {
    didSet { core.reportsSettling = settledObservation != nil }
  }

  // The stored properties whose types depend on the state are set in the initializer (see
  // PerformanceLedger: creation).
  /// The UI bindings, in the order they were added.
  @exclusivity(unchecked) @usableFromInline var uiBindings: Listeners<State>
  /// The loop callbacks, in the order they were added.
  @exclusivity(unchecked) @usableFromInline var loopCallbacks: Listeners<State>
  /// The observers, in the order they were added.
  @exclusivity(unchecked) @usableFromInline var observers: Listeners<Activity>
  /// How many listeners were removed so far: a notification that sees it change looks up each
  /// listener before it calls it.
  @exclusivity(unchecked) @usableFromInline var removals = 0
  /// What yields each state to a stream of ``makeStates()``, by the stream's identifier.
  @exclusivity(unchecked) @usableFromInline var stateStreams: [Int: (State) -> Void]
  /// The last identifier handed out, to a listener, a wait or a state stream.
  @exclusivity(unchecked) @usableFromInline var lastID = 0
  /// Whether a task waits in `send(_:while:)`, read on every step without touching the table.
  @exclusivity(unchecked) @usableFromInline var hasStateWaiters = false
  /// Whether the port sends effects' results to the main actor.
  ///
  /// Otherwise the owner, an actor, binds the port to itself (see ``isolation``). Beside the
  /// flag above: one word for both.
  @usableFromInline let isMainActor: Bool
  /// How many walks over listeners are running.
  ///
  /// Walks nest when a listener's call reaches another walk (a binding that stops the system
  /// has the observers told). Beside the flags above, in the same word.
  @exclusivity(unchecked) @usableFromInline var walkDepth: UInt8
  /// The listeners as they were when one was added or removed during a walk, kept until the
  /// walks end: a walk reads their storage in place, without retaining it (see
  /// ``Listeners/inPlace``).
  @exclusivity(unchecked) @usableFromInline var walkedListeners: [Any]
  /// Tasks waiting in `send(_:while:)` for the state to stop satisfying their predicate.
  @usableFromInline var stateWaiters: [Int: StateWaiter] {
    didSet { hasStateWaiters = !stateWaiters.isEmpty }
  }
  /// Effects the inline budget deferred to a later turn, in start order (see ``deferRun(_:_:)``).
  @usableFromInline var deferred: [DeferredRun]
  /// What a test harness parks — effects until the test runs them, results until it receives
  /// them — and the executor it runs effect tasks on; `nil` outside tests, where nothing else
  /// on the path of an event or an effect is about tests.
  @usableFromInline package let parking: Parking?
  /// The effects tied to the tasks that sent their events (see ``attach(_:)``); `nil` until a
  /// first ``attach(_:)``, so other systems only check it.
  @exclusivity(unchecked) @usableFromInline var attachments: Attachments?
  /// The printed changes and journals attached (see ``attachRecorder(_:)``); `nil`
  /// until the first, so a system that records nothing only checks it.
  @exclusivity(unchecked) @usableFromInline var recording: Recording?

  /// Creates a runtime for a feature; ``start(rendering:)`` reconciles the initial state.
  ///
  /// Inlinable, so that a system is built by code specialized for its types (see
  /// PerformanceLedger: specialization).
  ///
  /// - Parameters:
  ///   - owner: Names the runtime in diagnostics.
  ///   - isolation: Where events hop back to: the main actor (`MainActor.self`, a type rather
  ///     than `MainActor.shared`, which would be retained and released for nothing); an actor
  ///     that owns the shell passes `nil` and calls ``RuntimePort/bind(to:)`` once it is
  ///     initialized.
  ///   - parking: What a test harness parks, for a harness's shell only.
  ///   - initialState: The state before any event.
  ///   - context: The dependencies effects receive.
  ///   - feature: The reducer and the feedback loops.
  ///   - observers: Observers that see everything from the start.
  @inlinable
  package init(
    owner: Any.Type,
    isolation: MainActor.Type?,
    parking: Parking? = nil,
    initialState: consuming State,
    context: consuming Context,
    feature: consuming Feature<State, Event, ErrorType, Context>,
    observers: [(Activity) -> Void] = []
  ) {
    self.owner = owner
    self.isMainActor = isolation != nil
    self.context = context
    self.uiBindings = Listeners()
    self.loopCallbacks = Listeners()
    self.observers = Listeners()
    self.walkDepth = 0
    self.walkedListeners = Array()
    self.stateStreams = Dictionary()
    self.stateWaiters = Dictionary()
    self.deferred = Array()
    self.parking = parking
    self.core = SystemCore(initialState: initialState, feature: feature)
    // Checked first: a walk of an empty array still retains and releases it.
    if !observers.isEmpty {
      for observer in observers { addObserver(observer) }
    }
  }

  /// The way back from effects' tasks to the runtime.
  ///
  /// Made, with the ``work`` group, when an effect first starts a task or a wait first needs
  /// it, on the runtime's isolation and before any task can use it: an idle system, or one
  /// whose effects all end at once, never needs either.
  @inlinable package var port: Port {
    madePort ?? makePort()
  }

  /// The bag of the effects' tasks and the streams' finishers.
  ///
  /// Made, with the port or for the first state stream, on the runtime's isolation: an idle
  /// system, or one whose effects all end at once, never needs one. Its owner detaches it in
  /// its `deinit` through ``madeTasks``: the call that made it held the owner, so it returned
  /// before the owner's last reference went. Made after ``stop()``, it is closed at once.
  @inlinable package var tasks: TaskBag {
    madeTasks ?? makeTasks()
  }

  /// Makes the bag of ``tasks``, closed if the system stopped.
  @usableFromInline
  func makeTasks() -> TaskBag {
    let tasks = TaskBag()
    if core.isStopped { tasks.close() }
    madeTasks = tasks
    return tasks
  }

  /// Which effects are working, for waits that must tell work from waiting for the test.
  @inlinable package var work: WorkGroup {
    port.work
  }

  /// Where the port sends effects' results: the main actor, or `nil` until the owner binds it.
  @usableFromInline var isolation: (any Actor)? {
    isMainActor ? MainActor.shared : nil
  }

  /// Makes the ``port``, with the work group the effects' tasks report to.
  @usableFromInline
  func makePort() -> Port {
    let port = Port(
      isolation: isolation, tasks: tasks, work: WorkGroup(drainer: parking?.executor))
    port.shell = self
    madePort = port
    return port
  }

  // MARK: Entry points

  /// Renders the initial state to `bindings`, then reconciles the feedback with it.
  ///
  /// Events the bindings send while rendering are reduced after the initial reconciliation.
  @inlinable
  package func start(rendering bindings: [(State) -> Void] = []) {
    // A closure literal: the core calls it before it returns, so it captures nothing it would
    // retain (see PerformanceLedger: creation).
    core.start(runtime: self) {
      uiBindings.append(contentsOf: bindings, ids: makeListenerIDs(bindings.count))
      for binding in bindings { binding(core.state) }
    }
  }

  /// Sends an event: the core reduces it, and every event it leads to, before this returns
  /// (or queues it, when the system is already handling something).
  @inlinable
  package func send(_ event: Event) {
    core.send(event, runtime: self)
  }

  /// Stops the system: cancels every effect, ends every wait and stream, and ignores what comes
  /// later.
  package func stop() {
    if let recording, !core.isStopped { recording.record(.stopped) }
    core.stop(runtime: self)
    madeTasks?.close()
    resumeStateWaiters(all: true)
    parking?.removeAll()
    deferred.removeAll()
  }

  // MARK: What a step does

  /// Tells everyone who follows the state about a step: loop callbacks, observers, UI
  /// bindings, state streams, waits, and Observation (once the burst settles).
  @inlinable
  package func coreStepped(_ event: Event, previous: State?) {
    // Each kind of listener is checked for before it is walked: most systems have few kinds,
    // and walking an empty collection still copies and releases it.
    let state = core.state
    // Recorded first: a journal's step comes before what the listeners do about it.
    if let recording { recordStep(event, state: state, in: recording) }
    // A binding added during the step (by a callback, an observer, another binding) rendered
    // the state as it was added: the step's walk leaves out identifiers handed out from now on.
    let lastIDBefore = lastID
    settledObservation?.hasUnsettledStep = true
    if !loopCallbacks.isEmpty {
      walkDepth &+= 1
      loopCallbacks.inPlace.walk(
        state, removals: { removals }, isListening: { self.loopCallbacks.contains($0) })
      endWalk()
    }
    if let previous, !observers.isEmpty {
      notify(.step(event: event, previous: previous, current: state))
    }
    if !uiBindings.isEmpty {
      if lastID == lastIDBefore {
        walkDepth &+= 1
        uiBindings.inPlace.walk(
          state, removals: { removals }, isListening: { self.uiBindings.contains($0) })
        endWalk()
      } else {
        // A snapshot: a listener may add or remove listeners while the walk runs.
        renderStep(to: self.uiBindings, leavingOutIDsAfter: lastIDBefore)
      }
    }
    if !stateStreams.isEmpty {
      for yield in stateStreams.values { yield(state) }
    }
    // Most steps have no `send(_:while:)` waiting: skip the call then (see PerformanceLedger:
    // cold paths out of line).
    if hasStateWaiters { resumeStateWaiters() }
  }

  /// Ends a walk over listeners; the last one to end lets go of the listeners kept for the
  /// walks (see ``keepWalkedListeners()``).
  @inlinable
  func endWalk() {
    walkDepth &-= 1
    if walkDepth == 0, !walkedListeners.isEmpty { walkedListeners.removeAll() }
  }

  /// Tells Observation about the steps since it was last told, once per burst: a view
  /// re-renders once for everything a send led to, not once per step.
  @inlinable
  package func coreSettled() {
    guard let settledObservation, settledObservation.hasUnsettledStep else { return }
    settledObservation.hasUnsettledStep = false
    settledObservation.notify()
  }

  /// Reports an event the core did not reduce: to the observers, or, when nobody observes a
  /// system that stopped, on standard error.
  @inlinable
  package func coreIgnored(_ event: Event, _ reason: IgnoredEventReason) {
    if let recording { recordIgnored(event, reason, in: recording) }
    if observers.isEmpty, reason == .stopped {
      reportUnobserved("\(owner): \(event) was ignored because \(reason).")
    }
    if !observers.isEmpty { notify(.eventIgnored(event, reason)) }
  }
}

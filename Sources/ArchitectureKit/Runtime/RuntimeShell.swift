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
/// reading of its storage kept alive (see ``keepWalkedListeners()``), the extras are read in
/// single expressions or into a local first — so whatever a listener,
/// an effect or the core does from inside that call (add or remove listeners, send, stop) finds
/// no access open. The owner's nonisolated `deinit` reads ``madeTasks`` only once no other
/// reference is left.
@usableFromInline
package final class RuntimeShell<State, Event: Sendable, ErrorType: Error, Context: Sendable>:
  SystemCore<State, Event, ErrorType, Context>, CoreRuntime
{
  @usableFromInline package typealias Activity = SystemActivity<State, Event, ErrorType>
  @usableFromInline package typealias Effect = ArchitectureKit.Effect<Event, ErrorType, Context>
  @usableFromInline package typealias Port = RuntimePort<State, Event, ErrorType, Context>

  /// The deciding logic: the state, the mailbox, the reducer and the feedback.
  ///
  /// The shell is its own core: a subclass, so the runtime is one object rather than two (see
  /// PerformanceLedger: creation). The shell reaches the core's state and decisions only
  /// through this view, as it would a core of its own.
  @inlinable package var core: SystemCore<State, Event, ErrorType, Context> { self }
  /// The dependencies every effect receives.
  @usableFromInline package let context: Context
  /// The bag of the effects' tasks and the streams' finishers, once made (see ``tasks``).
  @exclusivity(unchecked) @usableFromInline package var madeTasks: TaskBag?
  /// The type of the runtime's owner, which names it in diagnostics (described only when one is
  /// written; see PerformanceLedger: creation).
  @usableFromInline let owner: Any.Type
  /// The port, once made (see ``port``).
  @exclusivity(unchecked) @usableFromInline var madePort: Port?
  /// The UI bindings, in the order they were added.
  ///
  /// Set in the initializer, as every stored property whose type depends on the state (see
  /// PerformanceLedger: creation).
  @exclusivity(unchecked) @usableFromInline var uiBindings: Listeners<State>
  /// How many listeners were removed so far: a notification that sees it change looks up each
  /// listener before it calls it.
  @exclusivity(unchecked) @usableFromInline var removals = 0
  /// The last identifier handed out, to a listener, a wait or a state stream.
  @exclusivity(unchecked) @usableFromInline var lastID = 0
  /// Whether the port sends effects' results to the main actor.
  ///
  /// Otherwise the owner, an actor, binds the port to itself (see ``isolation``).
  @usableFromInline let isMainActor: Bool
  /// How many walks over listeners are running.
  ///
  /// Walks nest when a listener's call reaches another walk (a binding that stops the system
  /// has the observers told). Beside the flag above, in the same word.
  @exclusivity(unchecked) @usableFromInline var walkDepth: UInt8
  /// What only some systems use, made at the first use of any of it (see ``Extras``): a
  /// system that uses none of it checks this one reference on each step.
  @exclusivity(unchecked) @usableFromInline var extras: Extras?

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
    self.walkDepth = 0
    self.extras = parking.map { Extras(parking: $0) }
    super.init(initialState: initialState, feature: feature)
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
      isolation: isolation, tasks: tasks, work: WorkGroup(drainer: extras?.parking?.executor))
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
      // By index: a `for`-`in` loop would retain the array for its iterator.
      for index in bindings.indices { bindings[index](core.state) }
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
    extras?.parking?.removeAll()
    extras?.deferred.removeAll()
  }

  // MARK: What a step does

  /// Tells everyone who follows the state about a step: loop callbacks, observers, UI
  /// bindings, state streams, waits, and Observation (once the burst settles).
  @inlinable
  package func coreStepped(_ event: Event, previous: State?) {
    // Each kind of listener is checked for before it is walked: most systems have few kinds,
    // and walking an empty collection still copies and releases it.
    // The state is read where it is used: the mailbox is closed, so no step changes it
    // meanwhile, and a copy held across the walks would copy a state with references.
    // What only some systems have is read through ``extras`` in single expressions, which hold
    // no reference of their own (see ``Extras``).
    // Recorded first: a journal's step comes before what the listeners do about it.
    if extras?.recording != nil { recordStep(event, state: core.state) }
    // A binding added during the step (by a callback, an observer, another binding) rendered
    // the state as it was added: the step's walk leaves out identifiers handed out from now on.
    let lastIDBefore = lastID
    extras?.settledObservation?.hasUnsettledStep = true
    if let loopCallbacks = extras?.loopCallbacks.inPlace, loopCallbacks.count > 0 {
      walkDepth &+= 1
      loopCallbacks.walk(
        core.state, removals: { removals },
        isListening: { self.extras?.loopCallbacks.contains($0) == true })
      endWalk()
    }
    if hasObservers, let previous {
      notify(.step(event: event, previous: previous, current: core.state))
    }
    if !uiBindings.isEmpty {
      if lastID == lastIDBefore {
        walkDepth &+= 1
        uiBindings.inPlace.walk(
          core.state, removals: { removals }, isListening: { self.uiBindings.contains($0) })
        endWalk()
      } else {
        // A snapshot: a listener may add or remove listeners while the walk runs.
        renderStep(to: self.uiBindings, leavingOutIDsAfter: lastIDBefore)
      }
    }
    // Most steps have no stream and no `send(_:while:)` waiting: skip the calls then (see
    // PerformanceLedger: cold paths out of line).
    if extras?.stateStreams.isEmpty == false {
      yieldToStateStreams(core.state, leavingOutIDsAfter: lastIDBefore)
    }
    if extras?.stateWaiters.isEmpty == false { resumeStateWaiters() }
  }

  /// Ends a walk over listeners; the last one to end lets go of the listeners kept for the
  /// walks (see ``keepWalkedListeners()``).
  @inlinable @inline(__always)
  func endWalk() {
    walkDepth &-= 1
    if walkDepth == 0, extras != nil { releaseWalkedListeners() }
  }

  /// Lets go of the listeners kept for the walks that ended, if any.
  ///
  /// Out of line (see PerformanceLedger: cold paths out of line).
  @usableFromInline @inline(never)
  func releaseWalkedListeners() {
    guard let extras, !extras.walkedListeners.isEmpty else { return }
    extras.walkedListeners.removeAll()
  }

  /// Tells Observation about the steps since it was last told, once per burst: a view
  /// re-renders once for everything a send led to, not once per step.
  @inlinable
  package func coreSettled() {
    guard let settledObservation = extras?.settledObservation, settledObservation.hasUnsettledStep
    else { return }
    settledObservation.hasUnsettledStep = false
    settledObservation.notify()
  }

  /// Reports an event the core did not reduce: to the observers, or, when nobody observes a
  /// system that stopped, on standard error.
  @inlinable
  package func coreIgnored(_ event: Event, _ reason: IgnoredEventReason) {
    if let recording { recordIgnored(event, reason, in: recording) }
    if !hasObservers, reason == .stopped {
      reportUnobserved("\(owner): \(event) was ignored because \(reason).")
    }
    if hasObservers { notify(.eventIgnored(event, reason)) }
  }
}

// MARK: What only some systems use

extension RuntimeShell {
  /// What only some systems use — loop callbacks, observers, waits and streams of states,
  /// effects deferred to a later turn, a test's parking, attachments, recording, Observation —
  /// in one object, made at the first use of any of it.
  ///
  /// A system that uses none of it (a screen with bindings and feedback) pays one reference:
  /// it is created smaller, and each step checks that reference rather than each part (see
  /// PerformanceLedger: creation). Once made, it stays until the shell goes.
  ///
  /// Exclusivity: as the shell's own properties, and for the same reason: it is used from the
  /// owner's isolation only, and every access is over before the shell calls out.
  @usableFromInline
  final class Extras {
    /// The loop callbacks, in the order they were added.
    @exclusivity(unchecked) @usableFromInline var loopCallbacks: Listeners<State>
    /// The observers, in the order they were added.
    @exclusivity(unchecked) @usableFromInline var observers: Listeners<Activity>
    /// What yields each state to a stream of ``makeStates()``, by the stream's identifier.
    @exclusivity(unchecked) @usableFromInline var stateStreams: [Int: (State) -> Void]
    /// Tasks waiting in `send(_:while:)` for the state to stop satisfying their predicate.
    @exclusivity(unchecked) @usableFromInline var stateWaiters: [Int: StateWaiter]
    /// The listeners as they were when one was added or removed during a walk, kept until the
    /// walks end: a walk reads their storage in place, without retaining it (see
    /// ``Listeners/inPlace``).
    @exclusivity(unchecked) @usableFromInline var walkedListeners: [Any]
    /// Effects the inline budget deferred to a later turn, in start order (see
    /// ``deferRun(_:_:)``).
    @usableFromInline var deferred: [DeferredRun]
    /// What a test harness parks — effects until the test runs them, results until it
    /// receives them — and the executor it runs effect tasks on; `nil` outside tests.
    @usableFromInline let parking: Parking?
    /// The effects tied to the tasks that sent their events (see ``attach(_:)``), once one
    /// was attached.
    @exclusivity(unchecked) @usableFromInline var attachments: Attachments?
    /// The printed changes and journals attached (see ``attachRecorder(_:)``), once one was;
    /// never replaced once set, so a step lends it without a retain (``recordStep(_:state:)``).
    @exclusivity(unchecked) @usableFromInline var recording: Recording?
    /// The main-actor system's Observation hook, told once the mailbox settled after steps;
    /// set once something reads the system's state under observation.
    @exclusivity(unchecked) @usableFromInline var settledObservation: SettledObservation?

    @usableFromInline init(parking: Parking?) {
      self.loopCallbacks = Listeners()
      self.observers = Listeners()
      self.stateStreams = Dictionary()
      self.stateWaiters = Dictionary()
      self.walkedListeners = Array()
      self.deferred = Array()
      self.parking = parking
    }
  }

  /// The extras, made if they were not.
  @inlinable var madeExtras: Extras {
    extras ?? makeExtras()
  }

  /// Makes the ``extras``, out of line: a system makes them once.
  @usableFromInline @inline(never)
  func makeExtras() -> Extras {
    let extras = Extras(parking: nil)
    self.extras = extras
    return extras
  }

  /// What a test harness parks; `nil` outside tests (see ``Extras/parking``).
  @inlinable package var parking: Parking? { extras?.parking }

  /// The printed changes and journals attached, if any (see ``Extras/recording``).
  @inlinable var recording: Recording? { extras?.recording }

  /// The effects tied to the tasks that sent their events, if any (see ``Extras/attachments``).
  @inlinable var attachments: Attachments? { extras?.attachments }

  /// The main-actor system's Observation hook; the core reports its settled mailbox while
  /// there is one.
  @usableFromInline var settledObservation: SettledObservation? {
    get { extras?.settledObservation }
    set {
      madeExtras.settledObservation = newValue
      core.reportsSettling = newValue != nil
    }
  }

  /// Whether anyone observes the system's activity.
  @inlinable var hasObservers: Bool {
    if let extras { !extras.observers.isEmpty } else { false }
  }
}

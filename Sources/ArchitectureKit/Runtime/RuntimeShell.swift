import FunctionalCore

/// The one runtime: the core, the listeners, the state streams, and the launch and delivery of
/// effects, shared by ``System`` (main actor), ``BackgroundSystem`` (an actor) and the test
/// harness.
///
/// Its owner calls it only from its isolation. Effects run in nonisolated tasks; on the main
/// actor they start on the owner's thread and leave it at their first suspension, and what they
/// report before, their launch hands to the core. Their later events and outcomes (all of them,
/// for an actor's effects) come back through a ``RuntimePort`` that hops to it. A test harness
/// makes the shell *park*: an effect waits for the test to run it, and what it sends waits for
/// the test to receive it. Nothing else differs, so a test exercises exactly what the app runs.
@usableFromInline
package final class RuntimeShell<State, Event: Sendable, ErrorType: Error, Context: Sendable>:
  CoreRuntime
{
  @usableFromInline package typealias Activity = SystemActivity<State, Event, ErrorType>
  @usableFromInline package typealias Effect = ArchitectureKit.Effect<Event, ErrorType, Context>
  @usableFromInline package typealias Port = RuntimePort<State, Event, ErrorType, Context>

  @usableFromInline package let core: SystemCore<State, Event, ErrorType, Context>
  @usableFromInline package let context: Context
  /// The bag of the effects' tasks and the streams' finishers, once made (see ``tasks``).
  @exclusivity(unchecked) @usableFromInline package var madeTasks: TaskBag?
  /// The type of the runtime's owner, which names it in diagnostics (named only when one is
  /// written: describing a generic type costs more than creating a system).
  @usableFromInline let owner: Any.Type
  /// Where the port sends effects' results, when the owner passed it at creation.
  @usableFromInline let isolation: (any Actor)?
  /// The port, once made (see ``port``).
  @exclusivity(unchecked) @usableFromInline var madePort: Port?
  /// The main-actor system's Observation hook, told once the mailbox settled after steps.
  ///
  /// A box of its own, made with the hook: a system nobody observes pays one reference for it.
  /// The core reports its settled mailbox while there is one.
  @exclusivity(unchecked) @usableFromInline var settledObservation: SettledObservation<State>? {
    didSet { core.reportsSettling = settledObservation != nil }
  }

  // The stored properties whose types depend on the state are set in the initializer, which
  // is specialized for the system's types: a property's initial value is a generic function of
  // its own, which looks up the metadata of its type on every system created.
  @exclusivity(unchecked) @usableFromInline var uiBindings: Listeners<State>
  @exclusivity(unchecked) @usableFromInline var loopCallbacks: Listeners<State>
  @exclusivity(unchecked) @usableFromInline var observers: Listeners<Activity>
  /// How many listeners were removed so far: a notification that sees it change looks up each
  /// listener before it calls it.
  @exclusivity(unchecked) @usableFromInline var removals = 0
  @exclusivity(unchecked) @usableFromInline var stateStreams: [Int: (State) -> Void]
  /// The last identifier handed out, to a listener, a wait or a state stream.
  @exclusivity(unchecked) @usableFromInline var lastID = 0
  /// Whether two states are equal, when the state is `Equatable`: bindings and Observation skip
  /// steps that left it unchanged.
  @usableFromInline let isUnchanged: StateEquality<State>?
  /// The state the bindings last rendered, kept while there are bindings to skip steps for.
  @exclusivity(unchecked) @usableFromInline var lastRendered: State?
  // The flags follow the optional state, whose tag leaves room for them: a system's objects are
  // small enough that the padding of a flag placed anywhere else shows in their size.
  /// Whether effects wait for the test to run them and their results wait to be received.
  @usableFromInline package let isParking: Bool
  /// Whether Observation compares each state with the one before (slices, `Equatable` state).
  @usableFromInline package var observationNeedsPrevious = false {
    didSet { updateRetention() }
  }
  /// Whether a task waits in `send(_:while:)`, read on every step without touching the table.
  @exclusivity(unchecked) @usableFromInline var hasStateWaiters = false
  /// Tasks waiting in `send(_:while:)` for the state to stop satisfying their predicate.
  @usableFromInline var stateWaiters: [Int: StateWaiter] {
    didSet { hasStateWaiters = !stateWaiters.isEmpty }
  }

  /// Whether a parking shell runs each effect as it starts, as an app's runtime does, rather than
  /// waiting for the test to run it; what the effect sends is parked all the same.
  @usableFromInline package var runsEffectsAtOnce = false

  /// Effects that started and wait for the test to run them (parking shells only).
  @usableFromInline package private(set) var pending: [EffectID: Effect]
  /// Results that wait for the test to receive them, in arrival order (parking shells only).
  @usableFromInline package private(set) var parked: [ParkedResult]
  /// Effects the inline budget deferred to a later turn, in start order (see ``deferStart(_:_:)``).
  @usableFromInline var deferred: [DeferredStart]
  /// The executor a test harness runs every effect task on (a `TaskExecutor`), if any; see
  /// `TestExecutor` in the test-support module.
  @usableFromInline let effectExecutor: (any JobDrainer)?

  /// A result of an effect, held until the test receives it.
  @usableFromInline
  package struct ParkedResult {
    /// The effect that produced it.
    package let id: EffectID
    /// What it carries.
    package let content: Content

    /// What a parked result carries.
    package enum Content {
      /// The effect ended with this event.
      case outcome(Event)
      /// A running effect sent this event; its sender waits until it is received.
      case sent(Event, Resumption, WorkUnit?)
    }

    /// The event the test receives.
    package var event: Event {
      switch content {
      case .outcome(let event), .sent(let event, _, _): event
      }
    }
  }

  /// Creates a runtime; ``start(rendering:)`` reconciles the initial state.
  ///
  /// - Parameters:
  ///   - owner: Names the runtime in diagnostics.
  ///   - isolation: Where events hop back to: the owner's actor; an actor that owns the shell
  ///     passes `nil` and calls ``RuntimePort/bind(to:)`` once it is initialized.
  ///   - parking: Whether the runtime parks effects and results for a test.
  ///   - initialState: The state before any event.
  ///   - context: The dependencies effects receive.
  ///   - reduce: The reducer.
  ///   - feedback: The feedback loops.
  package convenience init(
    owner: Any.Type,
    isolation: (any Actor)?,
    parking: Bool = false,
    initialState: State,
    context: Context,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) {
    self.init(
      owner: owner, isolation: isolation, parking: parking, initialState: initialState,
      context: context, feature: Feature(reduce: reduce, feedback: feedback))
  }

  /// Creates a runtime for a feature; ``start(rendering:)`` reconciles the initial state.
  ///
  /// Inlinable, so that a system is built by code specialized for its types: made generically,
  /// the runtime, its core and its listeners each look up the generic metadata of their types.
  @inlinable
  package init(
    owner: Any.Type,
    isolation: (any Actor)?,
    parking: Bool = false,
    effectExecutor: (any JobDrainer)? = nil,
    initialState: State,
    context: Context,
    feature: Feature<State, Event, ErrorType, Context>,
    observers: [(Activity) -> Void] = []
  ) {
    self.owner = owner
    self.isolation = isolation
    self.context = context
    self.uiBindings = Listeners()
    self.loopCallbacks = Listeners()
    self.observers = Listeners()
    self.stateStreams = Dictionary()
    self.stateWaiters = Dictionary()
    self.pending = Dictionary()
    self.parked = Array()
    self.deferred = Array()
    self.isParking = parking
    self.effectExecutor = effectExecutor
    self.isUnchanged = StateEquality(of: State.self)
    self.core = SystemCore(initialState: initialState, feature: feature)
    for observer in observers { addObserver(observer) }
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

  @usableFromInline
  func makePort() -> Port {
    let port = Port(isolation: isolation, tasks: tasks, work: WorkGroup(drainer: effectExecutor))
    port.shell = self
    madePort = port
    return port
  }

  /// Renders the initial state to `bindings`, then reconciles the feedback with it.
  ///
  /// Events the bindings send while rendering are reduced after the initial reconciliation.
  @inlinable
  package func start(rendering bindings: [(State) -> Void] = []) {
    let render = {
      self.uiBindings.append(contentsOf: bindings, ids: self.makeListenerIDs(bindings.count))
      for binding in bindings { binding(self.core.state) }
      self.rememberRendered()
    }
    core.start(runtime: self, prologue: render)
  }

  @inlinable
  package func send(_ event: Event) {
    core.send(event, runtime: self)
  }

  package func stop() {
    core.stop(runtime: self)
    madeTasks?.close()
    resumeStateWaiters(all: true)
    for result in parked {
      if case .sent(_, let resumption, _) = result.content { resumption.open() }
    }
    parked.removeAll()
    pending.removeAll()
    deferred.removeAll()
  }

  // MARK: Listeners

  package func addUIBinding(_ binding: @escaping (State) -> Void) -> Listener {
    let listener = makeListener()
    let isFirst = uiBindings.isEmpty
    uiBindings.append(binding, id: listener.id)
    // What the other bindings rendered stays as it is: a binding added in the middle of a step
    // must not make them skip the step's state.
    if isFirst { rememberRendered() }
    let state = core.state
    core.perform(self) { binding(state) }
    return listener
  }

  @discardableResult
  package func addLoopCallback(_ callback: @escaping (State) -> Void) -> Listener {
    let listener = makeListener()
    loopCallbacks.append(callback, id: listener.id)
    return listener
  }

  @discardableResult
  @usableFromInline
  package func addObserver(_ observer: @escaping (Activity) -> Void) -> Listener {
    let listener = makeListener()
    observers.append(observer, id: listener.id)
    updateRetention()
    return listener
  }

  /// Removes a binding, callback or observer; it receives nothing more, even in the middle of
  /// the notification that is running.
  package func removeListener(_ listener: Listener) {
    guard
      uiBindings.remove(listener.id) || loopCallbacks.remove(listener.id)
        || observers.remove(listener.id)
    else { return }
    removals += 1
    updateRetention()
    if uiBindings.isEmpty { lastRendered = nil }
  }

  /// Keeps the state before each step while someone compares with it.
  private func updateRetention() {
    core.retainsPreviousState = !observers.isEmpty || observationNeedsPrevious
  }

  @usableFromInline
  func makeListener() -> Listener {
    lastID += 1
    return Listener(id: lastID)
  }

  /// The identifiers of `count` new listeners, in order.
  @usableFromInline
  func makeListenerIDs(_ count: Int) -> Range<Int> {
    defer { lastID += count }
    return lastID + 1..<lastID + 1 + count
  }

  /// Keeps the state the bindings saw, when steps that leave it unchanged are to be skipped.
  @inlinable
  func rememberRendered() {
    guard isUnchanged != nil, !uiBindings.isEmpty else { return }
    lastRendered = core.state
  }

  // MARK: Waiting for the state

  /// Sends an event, then waits until the state stops satisfying `predicate`, the system
  /// stops, or the task is cancelled.
  ///
  /// Inlinable, so that the event, and every effect that answers it without suspending, is
  /// processed by code specialized for the system's types.
  @inlinable
  package func send(_ event: Event, while predicate: @escaping (State) -> Bool) async {
    send(event)
    await wait(while: predicate)
  }

  /// Waits until the state stops satisfying `predicate`, the system stops, or the task is
  /// cancelled.
  @usableFromInline
  package func wait(while predicate: @escaping (State) -> Bool) async {
    guard !core.isStopped, predicate(core.state) else { return }
    lastID += 1
    let id = lastID
    let port = self.port
    // The check and the registration happen here, on the runtime's isolation: the closures of
    // `withCheckedContinuation` may run elsewhere, so they only wait on a lock-based signal.
    let signal = Resumption()
    stateWaiters[id] = StateWaiter(predicate: predicate, resume: signal.open)
    await withTaskCancellationHandler {
      await signal.wait()
    } onCancel: {
      Task {
        await port.withShell { shell -> Bool? in
          shell.cancelStateWait(id)
          return nil
        }
      }
    }
  }

  /// A task waiting in ``send(_:while:)``.
  ///
  /// A struct rather than a tuple: a tuple's closures taken out of the dictionary are converted
  /// to the specialized calling convention, an allocation for each wait on each step.
  @usableFromInline
  struct StateWaiter {
    /// Whether the task still waits in this state.
    @usableFromInline let predicate: (State) -> Bool
    /// Lets the task go on.
    @usableFromInline let resume: () -> Void
  }

  /// Ends a wait early (its task was cancelled).
  package func cancelStateWait(_ id: Int) {
    stateWaiters.removeValue(forKey: id)?.resume()
  }

  /// Resumes the waits whose predicate the state no longer satisfies (every wait, with `all`).
  ///
  /// Specialized for the system's types, out of line: unspecialized, each step of a wait paid
  /// an allocation to call the predicates.
  @inlinable @inline(never)
  func resumeStateWaiters(all: Bool = false) {
    guard !stateWaiters.isEmpty else { return }
    let state = core.state
    // Most steps of a wait resume nobody: an empty array costs no allocation, a filtered
    // dictionary does.
    var done: [Int] = []
    for (id, waiter) in stateWaiters where all || !waiter.predicate(state) {
      done.append(id)
    }
    for id in done.sorted() {
      stateWaiters.removeValue(forKey: id)?.resume()
    }
  }

  /// Registers a stream continuation; returns its identifier, or `nil` when already stopped.
  func addStateStream(
    yield: @escaping (State) -> Void,
    finish: @escaping @Sendable () -> Void
  ) -> Int? {
    yield(core.state)
    guard !core.isStopped else {
      finish()
      return nil
    }
    lastID += 1
    stateStreams[lastID] = yield
    tasks.insertFinisher(finish, for: lastID)
    return lastID
  }

  func removeStateStream(_ id: Int) {
    stateStreams[id] = nil
    madeTasks?.removeFinisher(id)
  }

  // MARK: Effects

  /// Runs an effect: a known outcome is reported at once, without a task; other work starts
  /// its task.
  ///
  /// What runs on the caller's thread is bounded: a drain of the mailbox runs at most
  /// ``SystemCore/inlineBudget`` effects inline (see ``SystemCore/inlineEffectsLeft``). Past it,
  /// an effect that would run inline is deferred to a later turn of the system's actor, in
  /// start order (see ``deferStart(_:_:)``), so an endless chain of effects that never suspend
  /// runs step by step, each step rendered, and ``stop()`` ends it.
  ///
  /// - Parameters:
  ///   - effect: The effect to run.
  ///   - id: Its identifier.
  ///   - request: Its request.
  ///   - isCounted: Whether the work group already counts the effect (a deferred start).
  @inlinable
  func run(_ effect: Effect, id: EffectID, request: EffectRequest, isCounted: Bool = false) {
    if case .done(let result) = effect {
      guard core.inlineEffectsLeft > 0 else {
        return deferStart(DeferredStart(id: id, request: request, effect: effect), isCounted)
      }
      core.inlineEffectsLeft -= 1
      effectEnded(id, with: EffectOutcome(result))
      if isCounted { work.end(id.rawValue) }
    } else {
      launch(effect, id: id, request: request, isCounted: isCounted)
    }
  }

  /// Starts the task of an effect whose outcome is not known yet.
  ///
  /// On the main actor the task starts at once, on this thread, and runs until the effect first
  /// suspends (`Task.immediate`): work that completes without suspending (a cache hit, a
  /// synchronous computation) never leaves the thread. What the effect reports before the
  /// launch returns is held by its ``EffectHandoff`` and handed to the core here, where it is
  /// queued behind the current step; what it reports later hops back through the port. A
  /// detached effect (``Feedback/startingDetached()``) starts as a task of its own instead.
  ///
  /// An actor's effects (``BackgroundSystem``) start as tasks of their own: started at once from
  /// a default actor, with the actor held by the launching job, effect tasks left the full test
  /// suite hung in about one run in ten on Swift 6.3.1 for Linux, every time with the
  /// `BackgroundSystem` cancellation storm among the tests stuck; the cause is not known. (Their
  /// results hop back to an actor, which, unlike the main actor, never waits for a run loop.)
  @inlinable
  func launch(_ effect: Effect, id: EffectID, request: EffectRequest, isCounted: Bool) {
    let context = self.context
    let port = self.port
    let work = self.work
    let key = id.rawValue
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
      port.mainActor != nil, !effect.isDetached
    else {
      if !isCounted { work.begin(key, label: request) }
      if isParking { work.taskBegan(key, label: request) }
      let tracksEnd = isParking
      // The task starts on another thread and reports everything through the port: it needs
      // no handoff. (Closure literals in both calls: a closure value handed to `Task` costs
      // two more allocations per effect.)
      let task: Task<Void, Never>
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
        let executor = effectExecutor as? any TaskExecutor
      {
        task = Task(executorPreference: executor) { @concurrent in
          await RuntimeShell.runTask(
            effect, id: id, context: context, port: port, tracksEnd: tracksEnd)
        }
      } else {
        task = Task { @concurrent in
          await RuntimeShell.runTask(
            effect, id: id, context: context, port: port, tracksEnd: tracksEnd)
        }
      }
      keep(task, for: id)
      return
    }
    guard core.inlineEffectsLeft > 0 else {
      return deferStart(DeferredStart(id: id, request: request, effect: effect), isCounted)
    }
    if !isCounted { work.begin(key, label: request) }
    if isParking { work.taskBegan(key, label: request) }
    let tracksEnd = isParking
    // The events the effect sends before it suspends count against the same budget: a stream
    // that sends without ever suspending is made to hop once it has used it up.
    let handoff = EffectHandoff<Event, ErrorType>(capacity: core.inlineEffectsLeft - 1)
    // A test harness makes the sender of an event wait until the test receives it, so an
    // event it holds for the test must suspend the effect: it cannot go on meanwhile.
    let holdsEvents = !isParking
    // A test harness's executor, which the task's children and the actors it calls inherit.
    let executor = effectExecutor as? any TaskExecutor
    let task = Task.immediate(executorPreference: executor) { @concurrent in
      let outcome = await WorkUnit.run(in: work, key: key) {
        // Made only for an effect that sends events as it runs: most send none.
        await effect.run(
          with: context,
          send: Send { event in
            if holdsEvents, handoff.hold(event) { return }
            await port.deliver(event, from: id)
          })
      }
      if !handoff.hold(outcome) {
        await port.finish(id, with: outcome)
      }
      if tracksEnd { work.taskEnded(key) }
    }
    let early = handoff.close()
    core.inlineEffectsLeft -= 1 + early.events.count
    for event in early.events {
      core.deliver(event, from: id, runtime: self)
    }
    if let outcome = early.outcome {
      effectEnded(id, with: outcome)
      work.end(key)
    } else {
      keep(task, for: id)
    }
  }

  /// The body of an effect's task that starts on another thread: runs the effect and reports
  /// everything it sends, and how it ended, through the port.
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - id: Its identifier.
  ///   - context: The dependencies it reads.
  ///   - port: The way back to the runtime.
  ///   - tracksEnd: Whether the work group counts the task until it returns (a test's).
  @inlinable @concurrent
  static func runTask(
    _ effect: Effect, id: EffectID, context: Context, port: Port, tracksEnd: Bool
  ) async {
    let work = port.work
    let outcome = await WorkUnit.run(in: work, key: id.rawValue) {
      await effect.run(
        with: context, send: Send { event in await port.deliver(event, from: id) })
    }
    await port.finish(id, with: outcome)
    if tracksEnd { work.taskEnded(id.rawValue) }
  }

  /// An effect whose start waits for a later turn of the system's actor.
  @usableFromInline
  struct DeferredStart {
    @usableFromInline let id: EffectID
    @usableFromInline let request: EffectRequest
    @usableFromInline let effect: Effect

    @inlinable
    init(id: EffectID, request: EffectRequest, effect: Effect) {
      self.id = id
      self.request = request
      self.effect = effect
    }
  }

  /// Defers an effect the drain's inline budget has no room for: it starts, in start order
  /// with the others deferred, in a later turn of the system's actor, with a new budget.
  ///
  /// Until then it is running for the core (its request may vanish and cancel it, which drops
  /// it from ``deferred``), and a test's waits count it as a result on its way to the system.
  @usableFromInline
  func deferStart(_ start: DeferredStart, _ isCounted: Bool) {
    if !isCounted { work.begin(start.id.rawValue, label: start.request) }
    work.beginHop(start.id.rawValue)
    deferred.append(start)
    guard deferred.count == 1 else { return }
    // One turn for everything deferred until it runs: the effects start in order. A main-actor
    // system's turn is a task on the main actor, which needs no thread of the global pool.
    let port = self.port
    let start: @Sendable (RuntimeShell) -> Bool? = { shell in
      shell.startDeferred()
      return nil
    }
    if port.mainActor != nil {
      Task { @MainActor in _ = await port.withShell(start) }
    } else {
      Task { _ = await port.withShell(start) }
    }
  }

  /// Starts the deferred effects still running, in the order they were started, as one drain.
  @usableFromInline
  func startDeferred() {
    guard !deferred.isEmpty else { return }
    let starts = deferred
    deferred = Array()
    core.perform(self) {
      for start in starts where core.isRunning(start.id) {
        work.endHop(start.id.rawValue)
        run(start.effect, id: start.id, request: start.request, isCounted: true)
      }
    }
  }

  /// Keeps the task of a launched effect that is still running, so that cancelling the effect
  /// cancels it.
  @inlinable
  func keep(_ task: Task<Void, Never>, for id: EffectID) {
    if core.isRunning(id) {
      tasks.insert(task, for: id)
    } else {
      // Cancelled while it started: its own code stopped the system (see `retire(_:)`).
      task.cancel()
    }
  }

  /// Runs a started effect, or parks it until the test runs it.
  ///
  /// Inlinable, with ``effectEnded(_:with:)`` and ``launch(_:id:request:)``, so an effect's
  /// outcome, known at once or sent back by its task, goes back into the core in code
  /// specialized for the system's types.
  @inlinable
  func accept(_ effect: Effect, id: EffectID, request: EffectRequest) {
    if isParking, !runsEffectsAtOnce {
      hold(effect, id: id)
    } else {
      run(effect, id: id, request: request)
    }
  }

  /// Keeps a started effect until the test runs it (parking shells only).
  @usableFromInline
  func hold(_ effect: Effect, id: EffectID) {
    pending[id] = effect
  }

  /// Runs an effect that waits for the test (parking shells only).
  package func runPending(_ id: EffectID, request: EffectRequest) {
    guard let effect = pending.removeValue(forKey: id) else { return }
    run(effect, id: id, request: request)
  }

  /// Ends a pending effect as if it had produced `outcome`, without running it.
  package func simulate(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    guard pending.removeValue(forKey: id) != nil else { return }
    effectEnded(id, with: outcome)
  }

  /// How the task of a running effect ended; called on the owner's isolation.
  ///
  /// The bag lets go of the task: a system that runs effects for a long time holds only the
  /// running ones.
  @inlinable
  func effectTaskEnded(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    tasks.remove(id)
    effectEnded(id, with: outcome)
  }

  /// How a running effect ended; called on the owner's isolation.
  @inlinable
  func effectEnded(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    if isParking, park(outcome, of: id) { return }
    core.finish(id, with: outcome, runtime: self)
  }

  /// Holds the event a running effect ended with until the test receives it; returns whether
  /// it did (parking shells only).
  @usableFromInline
  func park(_ outcome: EffectOutcome<Event, ErrorType>, of id: EffectID) -> Bool {
    guard case .event(let event) = outcome, core.isRunning(id) else { return false }
    parked.append(ParkedResult(id: id, content: .outcome(event)))
    work.signal()
    return true
  }

  /// An event a running effect sent; returns what its sender must wait for, if anything.
  func effectSent(_ event: Event, from id: EffectID, unit: WorkUnit?) -> Resumption? {
    guard isParking, core.isRunning(id) else {
      core.deliver(event, from: id, runtime: self)
      return nil
    }
    let resumption = Resumption()
    parked.append(ParkedResult(id: id, content: .sent(event, resumption, unit)))
    // The sender waits for the test from now on.
    unit?.suspend()
    work.signal()
    return resumption
  }

  /// Reduces the oldest parked result, as the app would have when it arrived.
  ///
  /// - Returns: The event, or `nil` when nothing is parked.
  @discardableResult
  package func receiveParked() -> Event? {
    guard !parked.isEmpty else { return nil }
    let result = parked.removeFirst()
    switch result.content {
    case .outcome(let event):
      core.finish(result.id, with: .event(event), runtime: self)
    case .sent(let event, let resumption, let unit):
      core.deliver(event, from: result.id, runtime: self)
      unit?.resume()
      resumption.open()
    }
    return result.event
  }

  // MARK: Core outputs

  @inlinable
  package func coreStepped(_ event: Event, previous: State?) {
    // Each kind of listener is checked for before it is walked: most systems have few kinds,
    // and walking an empty collection still copies and releases it.
    let state = core.state
    // A binding added during the step (by a callback, an observer, another binding) rendered
    // the state as it was added: the step's walk leaves out identifiers handed out from now on.
    let lastIDBefore = lastID
    if let settledObservation, !settledObservation.hasUnsettledStep {
      settledObservation.hasUnsettledStep = true
      settledObservation.stateBefore = previous
    }
    if !loopCallbacks.isEmpty {
      // A snapshot: a listener may add or remove listeners while the walk runs.
      let loopCallbacks = self.loopCallbacks
      loopCallbacks.notify(
        state, removals: { removals }, isListening: { self.loopCallbacks.contains($0) })
    }
    if let previous, !observers.isEmpty {
      notify(.step(event: event, previous: previous, current: state))
    }
    if !uiBindings.isEmpty, isChangedSinceRendered(state) {
      // A snapshot: a listener may add or remove listeners while the walk runs.
      let uiBindings = self.uiBindings
      if lastID == lastIDBefore {
        uiBindings.notify(
          state, removals: { removals }, isListening: { self.uiBindings.contains($0) })
      } else {
        renderStep(to: uiBindings, leavingOutIDsAfter: lastIDBefore)
      }
    }
    if !stateStreams.isEmpty {
      for yield in stateStreams.values { yield(state) }
    }
    // Most steps have no `send(_:while:)` waiting: skip the unspecialized call then.
    if hasStateWaiters { resumeStateWaiters() }
  }

  /// Renders the step's state to the bindings of `snapshot` that were there before the step,
  /// when listeners were added during it.
  ///
  /// Out of line: on the common path, the state it reads would be copied for every step.
  @usableFromInline @inline(never)
  func renderStep(to snapshot: Listeners<State>, leavingOutIDsAfter lastIDBefore: Int) {
    let state = core.state
    snapshot.notify(state) { $0 <= lastIDBefore && self.uiBindings.contains($0) }
  }

  /// Tells Observation about the steps since it was last told, once per burst: a view
  /// re-renders once for everything a send led to, not once per step.
  @inlinable
  package func coreSettled() {
    guard let settledObservation, settledObservation.hasUnsettledStep else { return }
    settledObservation.hasUnsettledStep = false
    settledObservation.notify(settledObservation.stateBefore.take())
  }

  /// Whether the bindings must see `state`: always, unless the state is `Equatable` and equal
  /// to the one they rendered last; remembers it as rendered.
  @inlinable
  func isChangedSinceRendered(_ state: State) -> Bool {
    guard let isUnchanged, let last = lastRendered else { return true }
    if isUnchanged(last, state) { return false }
    lastRendered = state
    return true
  }

  @inlinable
  package func coreStartedEffect(_ id: EffectID, _ request: EffectRequest, _ effect: Effect) {
    accept(effect, id: id, request: request)
    if !observers.isEmpty { notify(.effectStarted(request)) }
  }

  @inlinable
  package func coreCancelledEffect(_ id: EffectID, _ request: EffectRequest) {
    retire(id)
    if !observers.isEmpty { notify(.effectCancelled(request)) }
  }

  @inlinable
  package func coreFinishedEffect(_ id: EffectID, _ request: EffectRequest) {
    if !observers.isEmpty { notify(.effectFinished(request)) }
  }

  @usableFromInline
  package func coreFailedEffect(_ id: EffectID, _ request: EffectRequest, _ error: ErrorType) {
    if observers.isEmpty {
      reportUnobserved("\(owner): the effect for \(request) failed: \(error)")
    }
    notify(.effectFailed(request, error))
  }

  @inlinable
  package func coreIgnored(_ event: Event, _ reason: IgnoredEventReason) {
    if observers.isEmpty, reason == .stopped {
      reportUnobserved("\(owner): \(event) was ignored because \(reason).")
    }
    if !observers.isEmpty { notify(.eventIgnored(event, reason)) }
  }

  /// Cancels a cancelled effect's work and forgets what it left waiting.
  @usableFromInline
  func retire(_ id: EffectID) {
    madeTasks?.cancel(id)
    // Without a port no task started, so no work began.
    if let work = madePort?.work {
      // Cancelled by the effect's own code (stopping its system on the main thread) before its
      // launch could keep the task: it sees the cancellation at once all the same.
      if WorkUnit.isRunningRoot(of: work, key: id.rawValue) {
        withUnsafeCurrentTask { $0?.cancel() }
      }
      work.end(id.rawValue)
    }
    if !deferred.isEmpty { deferred.removeAll { $0.id == id } }
    guard isParking else { return }
    pending[id] = nil
    parked.removeAll { result in
      guard result.id == id else { return false }
      if case .sent(_, let resumption, _) = result.content { resumption.open() }
      return true
    }
  }

  /// Tells the observers; callers check for observers first, so that no activity is built for
  /// nobody.
  @inlinable
  func notify(_ activity: Activity) {
    guard !observers.isEmpty else { return }
    // A snapshot: a listener may add or remove listeners while the walk runs.
    let observers = self.observers
    observers.notify(
      activity, removals: { removals }, isListening: { self.observers.contains($0) })
  }
}

extension RuntimeShell where State: Sendable {
  /// A new stream of every state, starting with the current one; it finishes when the system
  /// stops or is released.
  package func makeStates() -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(of: State.self)
    let id = addStateStream(
      yield: { continuation.yield($0) },
      finish: { continuation.finish() }
    )
    if let id {
      let port = self.port
      continuation.onTermination = { _ in
        Task { await port.withShell { $0.removeStateStream(id) } }
      }
    }
    return stream
  }
}

/// The Observation hook of a main-actor system, and the steps it has not been told about.
@usableFromInline
final class SettledObservation<State> {
  /// Tells Observation about the steps since the last call, given the state before them when
  /// it was kept.
  @usableFromInline let notify: (State?) -> Void
  /// Whether a step ran since ``notify`` was last called.
  @exclusivity(unchecked) @usableFromInline var hasUnsettledStep = false
  /// The state before the first step since ``notify`` was last called, when kept.
  @exclusivity(unchecked) @usableFromInline var stateBefore: State?

  @inlinable
  init(notify: @escaping (State?) -> Void) {
    self.notify = notify
  }
}

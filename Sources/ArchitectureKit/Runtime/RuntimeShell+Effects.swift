/// Effects: what the core starts is run here — a known outcome reported at once, other work
/// launched as a task — and what the task reports comes back here, through the port, to be
/// handed to the core's mailbox. Cancelled effects have their run undone; runs past the inline
/// budget are deferred to a later turn.
///
/// Inlinable down to the task's body and back, so an effect's outcome, known at once or sent
/// back by its task, reaches the core in code specialized for the system's types (see
/// PerformanceLedger: specialization).
extension RuntimeShell {
  // MARK: Start

  /// Runs an effect the core started, or parks it until the test runs it.
  @inlinable
  package func coreStartedEffect(_ id: EffectID, _ request: EffectRequest, _ effect: Effect) {
    // Recorded and noted before the run, which may end the effect at once.
    if let recording { recordStart(id, request, in: recording) }
    if let attachments { noteStarted(id, in: attachments) }
    if let parking, !parking.runsEffectsAtOnce {
      park(effect, id: id, in: parking)
    } else {
      run(effect, id: id, request: request)
    }
    if hasObservers { notify(.effectStarted(request)) }
  }

  /// Runs an effect: a known outcome is reported at once, without a task; other work is
  /// launched.
  ///
  /// What runs on the caller's thread is bounded: a drain of the mailbox runs at most
  /// ``SystemCore/inlineBudget`` effects inline (see ``SystemCore/inlineEffectsLeft``). Past it,
  /// an effect that would run inline is deferred to a later turn of the system's actor, in
  /// start order (see ``deferRun(_:_:)``), so an endless chain of effects that never suspend
  /// runs step by step, each step rendered, and ``stop()`` ends it.
  ///
  /// - Parameters:
  ///   - effect: The effect to run.
  ///   - id: Its identifier.
  ///   - request: Its request.
  ///   - isCounted: Whether the work group already counts the effect (a deferred run).
  @inlinable
  func run(_ effect: Effect, id: EffectID, request: EffectRequest, isCounted: Bool = false) {
    if case .done(let result) = effect {
      guard core.inlineEffectsLeft > 0 else {
        return deferRun(DeferredRun(id: id, request: request, effect: effect), isCounted)
      }
      core.inlineEffectsLeft -= 1
      finish(id, with: EffectOutcome(result))
      if isCounted { work.end(id.rawValue) }
    } else {
      launch(effect, id: id, request: request, isCounted: isCounted)
    }
  }

  /// Makes the task of an effect whose outcome is not known yet.
  ///
  /// On the main actor the task starts at once, on this thread, and runs until the effect first
  /// suspends (`Task.immediate`; see PerformanceLedger: inline start): work that completes
  /// without suspending (a cache hit, a synchronous computation) never leaves the thread. What
  /// the effect reports before the launch returns is held by its ``EffectHandoff`` and handed to
  /// the core here, where it is queued behind the current step; what it reports later hops back
  /// through the port. A detached effect (``Feedback/startingDetached()``) starts as a task of
  /// its own instead.
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
    // A test's work group counts each task until it returns.
    let tracksEnd = parking != nil
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
      port.mainActor != nil, !effect.isDetached
    else {
      if !isCounted { work.begin(key, label: request) }
      if tracksEnd { work.taskBegan(key, label: request) }
      // The task starts on another thread and reports everything through the port: it needs
      // no handoff. Closure literals in both calls (see PerformanceLedger: closure-literal
      // tasks).
      let task: Task<Void, Never>
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
        let executor = parking?.executor as? any TaskExecutor
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
      insertTask(task, for: id)
      return
    }
    guard core.inlineEffectsLeft > 0 else {
      return deferRun(DeferredRun(id: id, request: request, effect: effect), isCounted)
    }
    if !isCounted { work.begin(key, label: request) }
    if tracksEnd { work.taskBegan(key, label: request) }
    // The events the effect sends before it suspends count against the same budget: a stream
    // that sends without ever suspending is made to hop once it has used it up.
    let handoff = EffectHandoff<Event, ErrorType>(capacity: core.inlineEffectsLeft - 1)
    // A test harness makes the sender of an event wait until the test receives it, so an
    // event it parks for the test must suspend the effect: the handoff cannot hold it.
    let holdsEvents = parking == nil
    // A test harness's executor, which the task's children and the actors it calls inherit.
    let executor = parking?.executor as? any TaskExecutor
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
      finish(id, with: outcome)
      work.end(key)
    } else {
      insertTask(task, for: id)
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

  /// Keeps the task of a launched effect that is still running, so that cancelling the effect
  /// cancels it.
  @inlinable
  func insertTask(_ task: Task<Void, Never>, for id: EffectID) {
    if core.isRunning(id) {
      tasks.insert(task, for: id)
    } else {
      // Cancelled while it started: its own code stopped the system (see `cancelRun(_:)`).
      task.cancel()
    }
  }

  // MARK: Results back

  /// How the task of a running effect ended; called by the port on the owner's isolation.
  ///
  /// The bag lets go of the task: a system that runs effects for a long time holds only the
  /// running ones.
  @inlinable
  func finishTask(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    tasks.remove(id)
    finish(id, with: outcome)
  }

  /// Hands how a running effect ended to the core's mailbox (or parks its event for the test).
  @inlinable
  func finish(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    if let parking, park(outcome, of: id, in: parking) { return }
    core.finish(id, with: outcome, runtime: self)
  }

  /// Hands an event a running effect sent to the core's mailbox (or parks it for the test);
  /// returns what its sender must wait for, if anything.
  func deliver(_ event: Event, from id: EffectID, unit: WorkUnit?) -> Resumption? {
    guard let parking, core.isRunning(id) else {
      core.deliver(event, from: id, runtime: self)
      return nil
    }
    return park(event, from: id, unit: unit, in: parking)
  }

  // MARK: End

  /// Cancels the run of an effect the core cancelled, and tells the observers.
  @inlinable
  package func coreCancelledEffect(_ id: EffectID, _ request: EffectRequest) {
    cancelRun(id)
    if let recording { recordEnd(id, request, .cancelled, in: recording) }
    if let attachments { noteEnded(id, in: attachments) }
    if hasObservers { notify(.effectCancelled(request)) }
  }

  /// Tells the observers that an effect ended without error.
  @inlinable
  package func coreFinishedEffect(_ id: EffectID, _ request: EffectRequest) {
    if let recording { recordEnd(id, request, .finished, in: recording) }
    if let attachments { noteEnded(id, in: attachments) }
    if hasObservers { notify(.effectFinished(request)) }
  }

  /// Whether an effect's end is recorded, noted for attachments or observed.
  @inlinable
  package var reportsEffectEnds: Bool {
    // Everything that reports an end lives in the extras: most systems have none.
    guard let extras else { return false }
    return extras.recording != nil || extras.attachments != nil || !extras.observers.isEmpty
  }

  /// Tells the observers that an effect failed, or, when nobody observes, standard error.
  @usableFromInline
  package func coreFailedEffect(_ id: EffectID, _ request: EffectRequest, _ error: ErrorType) {
    if let recording { recordEnd(id, request, .failed(error), in: recording) }
    if let attachments { noteEnded(id, in: attachments) }
    if !hasObservers {
      reportUnobserved("\(owner): the effect for \(request) failed: \(error)")
    }
    notify(.effectFailed(request, error))
  }

  /// Undoes the run of a cancelled effect: cancels its task and forgets what it left waiting.
  @usableFromInline
  func cancelRun(_ id: EffectID) {
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
    if let extras {
      if !extras.deferred.isEmpty { extras.deferred.removeAll { $0.id == id } }
      extras.parking?.forget(id)
    }
  }

  // MARK: Deferred runs

  /// An effect whose run waits for a later turn of the system's actor.
  @usableFromInline
  struct DeferredRun {
    /// The effect's identifier.
    @usableFromInline let id: EffectID
    /// Its request.
    @usableFromInline let request: EffectRequest
    /// Its work.
    @usableFromInline let effect: Effect

    /// Remembers an effect to run later.
    @inlinable
    init(id: EffectID, request: EffectRequest, effect: Effect) {
      self.id = id
      self.request = request
      self.effect = effect
    }
  }

  /// Defers an effect the drain's inline budget has no room for: it runs, in start order with
  /// the others deferred, in a later turn of the system's actor, with a new budget.
  ///
  /// Until then it is running for the core (its request may vanish and cancel it, which drops
  /// it from ``deferred``), and a test's waits count it as a result on its way to the system.
  @usableFromInline
  func deferRun(_ run: DeferredRun, _ isCounted: Bool) {
    if !isCounted { work.begin(run.id.rawValue, label: run.request) }
    work.beginHop(run.id.rawValue)
    let extras = madeExtras
    extras.deferred.append(run)
    guard extras.deferred.count == 1 else { return }
    // One turn for everything deferred until it runs: the effects run in order. A main-actor
    // system's turn is a task on the main actor, which needs no thread of the global pool.
    let port = self.port
    let runDeferred: @Sendable (RuntimeShell) -> Bool? = { shell in
      shell.runDeferred()
      return nil
    }
    if port.mainActor != nil {
      Task { @MainActor in _ = await port.withShell(runDeferred) }
    } else {
      Task { _ = await port.withShell(runDeferred) }
    }
  }

  /// Runs the deferred effects still running, in the order they were started, as one drain.
  @usableFromInline
  func runDeferred() {
    guard let extras, !extras.deferred.isEmpty else { return }
    let runs = extras.deferred
    extras.deferred = Array()
    core.perform(self) {
      for deferredRun in runs where core.isRunning(deferredRun.id) {
        work.endHop(deferredRun.id.rawValue)
        run(deferredRun.effect, id: deferredRun.id, request: deferredRun.request, isCounted: true)
      }
    }
  }
}

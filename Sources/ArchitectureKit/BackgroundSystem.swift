/// A system for use off the main actor — servers, background processing, parallel tests —
/// with the same semantics as ``System``, isolated to an actor of its own.
///
/// ```swift
/// let importer = await BackgroundSystem(
///   initialState: Import.State(), context: .live,
///   reduce: Import.reduce, feedback: Import.feedback
/// )
/// await importer.send(.start(file))
/// for await state in await importer.states where state.isDone { break }
/// ```
///
/// It runs the runtime ``System`` runs: a FIFO mailbox with no reentrancy, exact request diffing,
/// stale results dropped, failures reported, everything cancelled by ``stop()`` and when the
/// system is released. Its reducer, feedback and listeners run on the actor; calls from outside
/// `await` it. Many background systems run in parallel, each on its own actor.
public actor BackgroundSystem<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  @usableFromInline let shell: RuntimeShell<State, Event, ErrorType, Context>
  /// The shell's tasks, reachable from the nonisolated `deinit`.
  @usableFromInline nonisolated package let tasks: TaskBag
  /// Sends an event to the shell, in code the initializer specialized for the system's types.
  ///
  /// A call from outside the actor reaches a generic method unspecialized, and the event — with
  /// every event it leads to synchronously, such as the results of effects that never suspend —
  /// would be processed by generic code that looks up type metadata at every step.
  @usableFromInline let process: (RuntimeShell<State, Event, ErrorType, Context>, Event) -> Void

  // Inlinable down to the first reconciliation, as `System`'s are, so the system's effects
  // start, and their results come back, through code specialized for its types.
  /// Creates a system that runs a feature, and starts it on its actor.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - feature: The reducer and feedback to run.
  ///   - observers: Observers that see everything from the start, including the effects the
  ///     initial state starts; they run on the system's actor.
  @inlinable
  public init(
    initialState: sending State,
    context: Context,
    feature: sending Feature<State, Event, ErrorType, Context>,
    observers: sending [(SystemActivity<State, Event, ErrorType>) -> Void] = []
  ) async {
    await self.init(
      initialState: initialState, context: context, feature: feature, observers: observers,
      journal: nil)
  }

  /// Creates a system that runs a feature, recorded from the start by a journal, and starts it
  /// on its actor, as ``System/init(initialState:context:feature:observers:journal:)`` does.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - feature: The reducer and feedback to run.
  ///   - observers: Observers that see everything from the start; they run on the system's
  ///     actor.
  ///   - journal: The journal that records the system, if any.
  @inlinable
  public init(
    initialState: sending State,
    context: Context,
    feature: sending Feature<State, Event, ErrorType, Context>,
    observers: sending [(SystemActivity<State, Event, ErrorType>) -> Void] = [],
    journal: sending Journal<State, Event>?
  ) async {
    shell = RuntimeShell(
      owner: Self.self,
      isolation: nil,
      initialState: initialState,
      context: context,
      feature: feature,
      observers: observers
    )
    tasks = shell.tasks
    process = { shell, event in shell.send(event) }
    shell.port.bind(to: self)
    if let journal { shell.attachJournal(journal) }
    shell.start()
  }

  /// Creates a system from a reducer in mutating form and starts it on its actor.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - reduce: Applies an event to the state; pure, synchronous and fast.
  ///   - feedback: The feedback loops; their requests in the initial state start at once.
  @inlinable
  public init(
    initialState: sending State,
    context: Context,
    reduce: sending @escaping (inout State, Event) -> Void,
    feedback: sending [Feedback<State, Event, ErrorType, Context>] = []
  ) async {
    await self.init(
      initialState: initialState, context: context,
      feature: Feature(reduce: reduce, feedback: feedback))
  }

  /// Creates a system from a pure reducer and starts it on its actor.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - reducer: Computes the next state from the current state and an event.
  ///   - feedback: The feedback loops; their requests in the initial state start at once.
  @inlinable
  public init(
    initialState: sending State,
    context: Context,
    reducer: sending @escaping (consuming State, Event) -> State,
    feedback: sending [Feedback<State, Event, ErrorType, Context>] = []
  ) async {
    await self.init(
      initialState: initialState,
      context: context,
      reduce: { state, event in state = reducer(consume state, event) },
      feedback: feedback
    )
  }

  deinit {
    tasks.detach()
  }

  /// The current state.
  public var state: State {
    shell.core.state
  }

  /// Whether ``stop()`` was called.
  public var isStopped: Bool {
    shell.core.isStopped
  }

  /// Sends an event to the system.
  ///
  /// It returns after the event, and every event it led to synchronously, were processed. The
  /// effects it started run in tasks of their own, off the actor; their results come back to
  /// the actor as later events. After ``stop()`` the event is ignored and reported.
  ///
  /// - Parameter event: The event to reduce.
  @inlinable
  public func send(_ event: Event) {
    process(shell, event)
  }

  /// Cancels every running effect and ignores later events.
  ///
  /// It takes effect at once, as ``System/stop()`` does, and reports what it cancels and
  /// ignores the same way.
  public func stop() {
    shell.stop()
  }

  /// Adds a callback that receives the state after every step, on the system's actor.
  ///
  /// - Parameter callback: Receives each new state.
  /// - Returns: A listener to remove the callback with ``removeListener(_:)``.
  @discardableResult
  public func addLoopCallback(_ callback: sending @escaping (State) -> Void) -> Listener {
    shell.addLoopCallback(callback)
  }

  /// Removes a loop callback or observer: it receives nothing more, even when it is removed
  /// from inside its own call.
  ///
  /// - Parameter listener: What ``addLoopCallback(_:)`` or ``addObserver(_:)`` returned.
  public func removeListener(_ listener: Listener) {
    shell.removeListener(listener)
  }

  /// Sends an event, then waits until the state stops satisfying `predicate`.
  ///
  /// It returns at once when the state does not satisfy `predicate` after the event, when the
  /// system stops, and when the waiting task is cancelled.
  ///
  /// - Parameters:
  ///   - event: The event to reduce.
  ///   - predicate: Whether the work the event started is still going on.
  @inlinable
  public func send(_ event: Event, while predicate: sending @escaping (State) -> Bool) async {
    process(shell, event)
    await shell.wait(while: predicate)
  }

  /// Sends an event and keeps the effects its step started attached to the calling task.
  ///
  /// It returns once they have all ended, and cancelling the task cancels them (see
  /// ``System/attach(_:)``).
  ///
  /// - Parameter event: The event to reduce.
  public func attach(_ event: Event) async {
    guard let attachment = shell.attach(event) else { return }
    await withTaskCancellationHandler {
      await attachment.wait()
    } onCancel: {
      Task { await self.cancel(attachment) }
    }
  }

  /// Cancels an attachment's effects, on the system's actor.
  private func cancel(_ attachment: Attachment) {
    shell.cancel(attachment)
  }

  /// Adds an observer of everything the system does, called on the system's actor.
  ///
  /// - Parameter observer: Receives each activity.
  /// - Returns: A listener to remove the observer with ``removeListener(_:)``.
  @discardableResult
  public func addObserver(
    _ observer: sending @escaping (SystemActivity<State, Event, ErrorType>) -> Void
  ) -> Listener {
    shell.addObserver(observer)
  }

  /// Prints what the system does from now on, for development, as ``System/printChanges(to:)``
  /// does.
  ///
  /// - Parameter output: Receives each line, without a line break, on the system's actor;
  ///   `nil` writes the lines on standard error.
  public func printChanges(to output: sending ((String) -> Void)? = nil) {
    shell.attachRecorder(
      ChangePrinter(output: output ?? printToStandardError))
  }

  /// Records what the system does from now on in a journal, as ``System/record(into:)`` does.
  ///
  /// When the state is `Sendable`, so is the journal: read its ``Journal/lines`` from anywhere
  /// while the system runs.
  ///
  /// - Parameter journal: The journal.
  public func record(into journal: sending Journal<State, Event>) {
    shell.attachJournal(journal)
  }

  /// The storage the mailbox holds, in entries: small once a burst is processed.
  package var mailboxCapacity: Int {
    shell.core.mailboxCapacity
  }
}

extension BackgroundSystem where State: Sendable {
  /// Every state of the system, starting with the current one, as an `AsyncSequence`.
  ///
  /// The stream finishes when the system stops or is released.
  public var states: AsyncStream<State> {
    shell.makeStates()
  }
}

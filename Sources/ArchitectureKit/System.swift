public import Observation

/// A running feature: a state, a pure reducer that is the only place the state changes, and the
/// feedback loops, user actions and UI bindings around them.
///
/// ```swift
/// typealias CounterSystem = System<Int, Event, CounterError, Context>
/// typealias CounterUserAction = UserAction<Int, Event, CounterError, Context>
///
/// let tapPlus = CounterUserAction(trigger: .increment)
///
/// CounterSystem.pure(
///   initialState: 0,
///   context: Context(),
///   reducer: { state, event in
///     switch event {
///     case .increment: state + 1
///     case .decrement: state - 1
///     }
///   },
///   uiBindings: [{ state in label = String(state) }],
///   userActions: [tapPlus],
///   feedback: []
/// )
/// tapPlus.execute()  // label == "1"
/// ```
///
/// ## Semantics
///
/// - At creation the UI bindings receive the initial state, then the feedback is reconciled
///   with it: a request present in the initial state starts at once.
/// - A step reduces one event; then loop callbacks, observers and UI bindings receive the new
///   state, in that order and each in registration order; then the feedback is reconciled.
/// - Events are processed one at a time, first in first out, each exactly once. An event sent
///   during a step (from a binding, a callback, an observer, an effect completed inline) is
///   queued and processed after it.
/// - Effects run in tasks that start on the main thread and leave it at their first
///   suspension (``Feedback/startingDetached()`` starts them off it): what an effect reports
///   before it suspends is queued behind the current step, so one that never suspends is
///   reduced before ``send(_:)`` (or the initializer) returns. Inline work is bounded: one send
///   runs at most 1,024 effects inline, and further ones start in a later turn of the main
///   actor, so an endless chain of effects that never suspend runs on step by step without
///   freezing the main thread;
///   what it reports later hops back. A cancelled effect never delivers an event. An unhandled
///   effect failure is reported; the state is untouched.
/// - ``stop()`` and `deinit` cancel every effect; later events are ignored and reported.
///
/// `System` is isolated to the main actor: ``send(_:)``, ``state``, bindings and callbacks run
/// there without `await`. ``state`` is observable with the Observation framework, and
/// ``states`` delivers every state as an `AsyncSequence`.
///
/// Observation is told once per burst: when a send (or an effect's result) and every event it
/// led to have been processed. A view that reads ``state`` is notified after every burst; one
/// that reads a slice (`system.cart`), only when the slice changed. A view re-renders once for
/// the burst and reads the state it settled on; loop callbacks, bindings and ``states`` see
/// every step. An event an Observation handler sends is queued and processed before the burst
/// ends.
@MainActor
@dynamicMemberLookup
public final class System<State, Event: Sendable, ErrorType: Error, Context: Sendable>: Observable {
  /// The reducer's mutating form, which every other form is turned into.
  public typealias Reduce = (inout State, Event) -> Void

  /// The runtime.
  ///
  /// Used on the main actor only, but for the nonisolated `deinit`, which reads the runtime's
  /// task bag once nothing else can (see `RuntimeShell.tasks`): hence `nonisolated(unsafe)`,
  /// since the bag is made lazily, on the main actor.
  @usableFromInline nonisolated(unsafe) let shell: RuntimeShell<State, Event, ErrorType, Context>
  /// What Observation needs, made at the first read of the state: a system nobody observes
  /// pays one reference for it.
  ///
  /// Exclusivity: the system's one opt-out of the run-time check (see PerformanceLedger:
  /// exclusivity opt-outs). No two accesses can overlap: it is used on the main actor only,
  /// written once by ``installObservation()`` and otherwise read into a local before any call.
  @exclusivity(unchecked) @usableFromInline var observation: Observing?

  /// Creates a system from a reducer in mutating form and starts it.
  ///
  /// The mutating form changes the state in place, so a large state is never copied.
  ///
  /// ```swift
  /// let system = System<Cart, CartEvent, Never, Context>(
  ///   initialState: Cart(),
  ///   context: context,
  ///   reduce: { cart, event in
  ///     if case .add(let item) = event { cart.items.append(item) }
  ///   }
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - reduce: Applies an event to the state; pure, synchronous and fast.
  ///   - feedback: The feedback loops; their requests in the initial state start at once.
  @inlinable
  public convenience init(
    initialState: State,
    context: Context,
    reduce: @escaping Reduce,
    feedback: [Feedback<State, Event, ErrorType, Context>] = []
  ) {
    self.init(
      initialState: initialState, context: context,
      feature: Feature(reduce: reduce, feedback: feedback), uiBindings: [], userActions: [])
  }

  /// Creates a system that runs a feature, and starts it.
  ///
  /// ```swift
  /// let shop = System(initialState: Shop.State(), context: .live, feature: Shop.feature)
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - feature: The reducer and feedback to run.
  ///   - observers: Observers that see everything from the start, including the effects the
  ///     initial state starts.
  @inlinable
  public convenience init(
    initialState: State,
    context: Context,
    feature: Feature<State, Event, ErrorType, Context>,
    observers: [(SystemActivity<State, Event, ErrorType>) -> Void] = []
  ) {
    self.init(
      initialState: initialState, context: context, feature: feature, observers: observers,
      uiBindings: [], userActions: [])
  }

  /// Creates a system that runs a feature, recorded from the start by a journal, and starts it.
  ///
  /// ```swift
  /// let journal = try Journal<Shop.State, Shop.Event>(writingTo: path, states: .everyStep)
  /// let shop = System(
  ///   initialState: Shop.State(), context: .live, feature: Shop.feature, journal: journal)
  /// ```
  ///
  /// The journal sees everything, the effects the initial state starts included; attached
  /// later with ``record(into:)``, it sees what happens from then on.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - feature: The reducer and feedback to run.
  ///   - observers: Observers that see everything from the start.
  ///   - journal: The journal that records the system, if any.
  @inlinable
  public convenience init(
    initialState: State,
    context: Context,
    feature: Feature<State, Event, ErrorType, Context>,
    observers: [(SystemActivity<State, Event, ErrorType>) -> Void] = [],
    journal: Journal<State, Event>?
  ) {
    self.init(
      initialState: initialState, context: context, feature: feature, observers: observers,
      journal: journal, uiBindings: [], userActions: [])
  }

  // Inlinable down to the first reconciliation, so a system is built, and its effects started,
  // by code specialized for its types (see `SystemCore.makeHost`).
  @inlinable
  init(
    initialState: consuming State,
    context: consuming Context,
    feature: consuming Feature<State, Event, ErrorType, Context>,
    observers: [(SystemActivity<State, Event, ErrorType>) -> Void] = [],
    journal: Journal<State, Event>? = nil,
    uiBindings: [(State) -> Void],
    userActions: [UserAction<State, Event, ErrorType, Context>]
  ) {
    shell = RuntimeShell(
      owner: Self.self,
      isolation: MainActor.self,
      initialState: initialState,
      context: context,
      feature: feature,
      observers: observers
    )
    if let journal { shell.attachJournal(journal) }
    // Checked first: a walk of an empty array still retains and releases it.
    if !userActions.isEmpty {
      for action in userActions { action.drive(self) }
    }
    shell.start(rendering: uiBindings)
  }

  /// Creates and starts a system with a pure reducer (the seed's entry point).
  ///
  /// The UI bindings receive the initial state at once, then every later state. Each user
  /// action sends its event to the system when executed, and keeps the system alive, so the
  /// result may be discarded.
  ///
  /// The reducer's state parameter is `consuming`: a closure that shadows it with
  /// `var state = state` and returns it mutates the state in place, without copying it.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The dependencies the effects receive.
  ///   - reducer: Computes the next state from the current state and an event.
  ///   - uiBindings: Render a state; called with the initial state and every later one.
  ///   - userActions: The actions that send events to this system.
  ///   - feedback: The feedback loops; their requests in the initial state start at once.
  /// - Returns: The running system.
  @discardableResult
  @inlinable
  public static func pure(
    initialState: State,
    context: Context,
    reducer: @escaping (consuming State, Event) -> State,
    uiBindings: [(State) -> Void],
    userActions: [UserAction<State, Event, ErrorType, Context>],
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) -> System {
    System(
      initialState: initialState, context: context,
      feature: Feature(reducer: reducer, feedback: feedback), uiBindings: uiBindings,
      userActions: userActions)
  }

  deinit {
    // The shell makes its bag on the main actor, in a call that held this system (see
    // `RuntimeShell.tasks`): the bag, if any, was made before the last reference went.
    shell.madeTasks?.detach()
  }

  /// The current state.
  ///
  /// Reading it inside `withObservationTracking` (or a SwiftUI view) tracks it: the tracker is
  /// notified once each burst of steps has been processed. The state is not compared with the
  /// one before (see <doc:Performance>): read a slice (``subscript(dynamicMember:)``) to be told
  /// only of the changes of a part.
  @inlinable
  public var state: State {
    let observation = installObservation()
    observation.registrar.access(self, keyPath: observation.stateKeyPath)
    return shell.core.state
  }

  /// A part of the state, observed on its own: a view that reads `system.cart` is notified
  /// only when `cart` changes, not when another part of the state does.
  ///
  /// ```swift
  /// struct Badge: View {
  ///   let shop: System<Shop.State, Shop.Event, Never, Shop.Context>
  ///   // Re-rendered only when the cart changes.
  ///   var body: some View { Text("\(shop.cart.count)") }
  /// }
  /// ```
  ///
  /// - Parameter path: The part of the state.
  /// - Returns: Its current value.
  @inlinable
  public subscript<Value: Equatable>(dynamicMember path: KeyPath<State, Value>) -> Value {
    let observation = installObservation()
    observation.registrar.access(self, keyPath: observedSlice(path, in: observation))
    return shell.core.state[keyPath: path]
  }

  /// The registrar, the key paths Observation is told about, and the parts of the state views
  /// observe, in one box made at the first read.
  ///
  /// Exclusivity: ``slices`` skips the run-time check (see PerformanceLedger: exclusivity
  /// opt-outs). No two accesses can overlap: the box is used on the main actor only; a slice is
  /// added by one write, and a notification walks a copy of the table.
  @MainActor @usableFromInline
  final class Observing {
    @usableFromInline let registrar = ObservationRegistrar()
    /// The key path of ``System/state``, made once: a key path into a generic class is
    /// otherwise rebuilt by the runtime at every use.
    @usableFromInline let stateKeyPath = \System.state
    /// The parts of the state views observe, each with its own key path and test of change.
    @exclusivity(unchecked) @usableFromInline var slices: [AnyKeyPath: Slice] = [:]

    @usableFromInline
    init() {}
  }

  /// A part of the state a view observes, and its value when its observers were last told.
  ///
  /// Each slice keeps its own last value, so a burst costs what the views read: the comparison
  /// of each observed part, never a copy or a comparison of the whole state.
  @usableFromInline
  struct Slice {
    let key: AnyKeyPath
    /// Tells the slice's observers when the part differs from the value they were last told
    /// about, and remembers it.
    @usableFromInline let notifyIfChanged: (State) -> Void
  }

  @usableFromInline
  func observedSlice<Value: Equatable>(
    _ path: KeyPath<State, Value>, in observation: Observing
  ) -> KeyPath<System, Value> {
    if let slice = observation.slices[path], let key = slice.key as? KeyPath<System, Value> {
      return key
    }
    let key: KeyPath<System, Value> = \System[dynamicMember: path]
    let registrar = observation.registrar
    let told = Bookkeeping(shell.core.state[keyPath: path])
    observation.slices[path] = Slice(
      key: key,
      notifyIfChanged: { [unowned self] state in
        let value = state[keyPath: path]
        guard value != told.value else { return }
        told.value = value
        registrar.willSet(self, keyPath: key)
        registrar.didSet(self, keyPath: key)
      })
    return key
  }

  /// Observation can only start tracking in a read, so the notifications are installed on
  /// the first one; until then a step pays nothing for them.
  ///
  /// Inlinable, with ``notifyObservers()``, so the notifications run in code specialized for
  /// the system's types: unspecialized, each burst looked up the metadata of the key path's and
  /// the registrar's generic types.
  @inlinable
  func installObservation() -> Observing {
    if let observation { return observation }
    let observation = Observing()
    self.observation = observation
    // Weak: a hook may let go of the system in the middle of a burst that an effect's result
    // started, and the steps still queued then run without it.
    shell.settledObservation = SettledObservation { [weak self] in self?.notifyObservers() }
    return observation
  }

  /// Notifies what a burst of steps changed: the whole state, read by ``state``, and each
  /// observed slice whose value differs from the one its observers were last told about.
  ///
  /// The whole state is not compared: that would keep a copy of it across every step, which
  /// turns each change of a collection in place into a copy of the collection, and walk it.
  @inlinable
  func notifyObservers() {
    guard let observation else { return }
    let registrar = observation.registrar
    let stateKeyPath = observation.stateKeyPath
    registrar.willSet(self, keyPath: stateKeyPath)
    registrar.didSet(self, keyPath: stateKeyPath)
    if observation.slices.isEmpty { return }
    let current = shell.core.state
    for slice in observation.slices.values { slice.notifyIfChanged(current) }
  }

  /// Whether ``stop()`` was called.
  public var isStopped: Bool {
    shell.core.isStopped
  }

  /// Sends an event to the system.
  ///
  /// Called while the system is idle, it returns after the event and every event it led to
  /// synchronously were processed, including what the effects it started reported before their
  /// first suspension: their start runs here, on the main thread, up to 1,024 effects (see
  /// <doc:Concurrency#Inline-work-is-bounded>; the rest start in a later turn of the main
  /// actor). Called while the system
  /// handles anything — from a UI binding, a loop callback, an observer, a state stream's
  /// consumer or a user action, during a step or as an effect starts, finishes, fails or is
  /// cancelled — it queues the event behind what the system is doing. After ``stop()`` the
  /// event is ignored and reported.
  ///
  /// - Parameter event: The event to reduce.
  @inlinable
  public func send(_ event: Event) {
    shell.send(event)
  }

  /// Cancels every running effect and ignores later events.
  ///
  /// It takes effect at once, wherever it is called from (a hook, a reconciliation, an effect
  /// that is starting): afterwards no effect starts and no event is reduced. Observers see each
  /// running effect cancelled, once, and each event still queued reported as ignored: a user's
  /// or a hook's with ``IgnoredEventReason/stopped``, an effect's with
  /// ``IgnoredEventReason/cancelledEffect``. Stopping twice does nothing more.
  public func stop() {
    shell.stop()
  }

  /// Adds a callback that receives the state after every step (the seed's loop callback).
  ///
  /// It is not called with the current state; use a UI binding for that.
  ///
  /// - Parameter callback: Receives each new state.
  /// - Returns: A listener to remove the callback with ``removeListener(_:)``.
  @discardableResult
  public func addLoopCallback(_ callback: @escaping (State) -> Void) -> Listener {
    shell.addLoopCallback(callback)
  }

  /// Adds a UI binding; it receives the current state at once and the state after every later
  /// step.
  ///
  /// The state is not compared with the one rendered before: to render only what changed, bind
  /// the part the view shows with ``addUIBinding(_:_:)``.
  ///
  /// - Parameter binding: Renders a state.
  /// - Returns: A listener to remove the binding with ``removeListener(_:)``.
  @discardableResult
  public func addUIBinding(_ binding: @escaping (State) -> Void) -> Listener {
    shell.addUIBinding(binding)
  }

  /// Adds a UI binding of one part of the state; it receives the part at once, then after each
  /// step that changed it.
  ///
  /// ```swift
  /// shop.addUIBinding(\.badge) { badge in badgeLabel.text = "\(badge)" }
  /// ```
  ///
  /// The binding keeps the part it rendered last and compares each step's part with it: a step
  /// costs the comparison of the part, whatever the size of the rest of the state. Bind
  /// `\.self` to skip the steps that left a whole `Equatable` state unchanged, at the price of
  /// a comparison of the whole state on every step, and of a copy of each collection the
  /// reducer changes while the binding holds it.
  ///
  /// - Parameters:
  ///   - part: The part of the state the binding shows.
  ///   - render: Renders the part.
  /// - Returns: A listener to remove the binding with ``removeListener(_:)``.
  @discardableResult
  public func addUIBinding<Part: Equatable>(
    _ part: KeyPath<State, Part>, _ render: @escaping (Part) -> Void
  ) -> Listener {
    let rendered = Bookkeeping<Part?>(nil)
    return shell.addUIBinding { state in
      let value = state[keyPath: part]
      if let last = rendered.value, last == value { return }
      rendered.value = value
      render(value)
    }
  }

  /// Removes a UI binding, loop callback or observer: it receives nothing more, even when it
  /// is removed from inside its own call.
  ///
  /// - Parameter listener: What ``addUIBinding(_:)``, ``addLoopCallback(_:)`` or
  ///   ``addObserver(_:)`` returned.
  public func removeListener(_ listener: Listener) {
    shell.removeListener(listener)
  }

  /// Sends an event, then waits until the state stops satisfying `predicate`: what SwiftUI's
  /// `.refreshable` needs.
  ///
  /// ```swift
  /// .refreshable { await page.send(.reload, while: \.isLoading) }
  /// ```
  ///
  /// It returns at once when the state does not satisfy `predicate` after the event, when the
  /// system stops, and when the waiting task is cancelled.
  ///
  /// - Parameters:
  ///   - event: The event to reduce.
  ///   - predicate: Whether the work the event started is still going on.
  @inlinable
  public func send(_ event: Event, while predicate: @escaping (State) -> Bool) async {
    await shell.send(event, while: predicate)
  }

  /// Sends an event and keeps the effects its step started attached to the calling task.
  ///
  /// It returns once they have all ended, and cancelling the task cancels them: what SwiftUI's
  /// `.task` needs for a screen's long-living work.
  ///
  /// ```swift
  /// .task { await screen.attach(.startObservingScreenshots) }
  /// ```
  ///
  /// The attached effects are those that start in the event's own step — event-triggered work
  /// (``Feedback/react(on:policy:until:effect:)``) or requests the step put in the state — not
  /// those of later events. A cancelled request-based effect leaves its request in place, as
  /// one that ended does: it runs again when the request changes, or vanishes and comes back.
  /// It returns at once when the step started nothing, and when the system stops.
  ///
  /// - Parameter event: The event to reduce.
  public func attach(_ event: Event) async {
    guard let attachment = shell.attach(event) else { return }
    await withTaskCancellationHandler {
      await attachment.wait()
    } onCancel: {
      Task { @MainActor in self.shell.cancel(attachment) }
    }
  }

  /// Adds an observer of everything the system does: steps, effects started, cancelled,
  /// finished and failed, and ignored events.
  ///
  /// While at least one observer is registered, each step keeps the previous state for
  /// ``SystemActivity/step(event:previous:current:)``, which costs a copy of the state.
  ///
  /// - Parameter observer: Receives each activity, on the main actor.
  /// - Returns: A listener to remove the observer with ``removeListener(_:)``.
  @discardableResult
  public func addObserver(
    _ observer: @escaping (SystemActivity<State, Event, ErrorType>) -> Void
  ) -> Listener {
    shell.addObserver(observer)
  }

  /// Prints what the system does from now on, for development: each step's event and where it
  /// came from, the changed paths of the state, the effects started and cancelled, and the
  /// failures.
  ///
  /// ```swift
  /// let page = ProductDetail.start(context: .live)
  /// page.printChanges()
  /// page.send(.loadProduct)
  /// // step 1: .loadProduct
  /// //   screen: .start → .loading
  /// //   request: nil → .loadProduct(id: 1)
  /// //   requestCount: 0 → 1
  /// //   started #1 loadProduct(id: 1)
  /// ```
  ///
  /// A step shows only the paths that changed — `cart.items[3].count`, `path[#3].detail.title`,
  /// `destination.settings.name`, named as the requests of child features are — each with its
  /// value before and after, long collections summarized by their size. An event from an effect
  /// names it (`from #1 loadProduct(id: 1)`). Finding the changes uses reflection, so printing
  /// is for development; a system that prints nothing pays nothing for it.
  ///
  /// - Parameter output: Receives each line, without a line break; `nil` writes the lines on
  ///   standard error.
  public func printChanges(to output: ((String) -> Void)? = nil) {
    shell.attachRecorder(
      ChangePrinter(output: output ?? printToStandardError))
  }

  /// Records what the system does from now on in a journal.
  ///
  /// ```swift
  /// let journal = Journal<ProductDetailState, ProductDetailEvent>(capacity: 500)
  /// page.record(into: journal)
  /// // … later, for a bug report:
  /// try journal.write(toFile: reportPath)
  /// ```
  ///
  /// To record the effects the initial state starts too, pass the journal to
  /// ``init(initialState:context:feature:observers:journal:)`` instead. A journal records one
  /// system: attaching one that already records a system is reported and ignored.
  ///
  /// - Parameter journal: The journal.
  public func record(into journal: Journal<State, Event>) {
    shell.attachJournal(journal)
  }

  /// The system's effect tasks and stream finishers (made by the first read if not yet made).
  package var tasks: TaskBag {
    shell.tasks
  }

  /// The requests whose effects are running, in start order.
  package var runningRequests: [EffectRequest] {
    shell.core.runningRequests.map(\.request)
  }

  /// The storage the mailbox holds, in entries: small once a burst is processed.
  package var mailboxCapacity: Int {
    shell.core.mailboxCapacity
  }
}

extension System where State: Sendable {
  /// Every state of the system, starting with the current one, as an `AsyncSequence`.
  ///
  /// Each access makes a new stream; it buffers states its consumer has not read yet and
  /// finishes when the system stops or is released.
  ///
  /// ```swift
  /// for await count in counter.states {
  ///   print(count)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    shell.makeStates()
  }
}

/// The part of a runtime that does not depend on its isolation: the core, the listeners, the
/// state streams and the effect tasks.
///
/// ``System`` (main actor) and ``BackgroundSystem`` (an actor) each own one and call it only
/// from their isolation; they supply ``launch``, the one piece that depends on where events hop
/// back to.
@usableFromInline
final class RuntimeShell<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  @usableFromInline typealias Activity = SystemActivity<State, Event, ErrorType>

  @usableFromInline let core: SystemCore<State, Event, ErrorType, Context>
  let context: Context
  @usableFromInline let tasks = TaskBag()
  /// Names the runtime in diagnostics.
  @usableFromInline let owner: String
  /// Starts the task of a handed-out effect; set by the owner right after creation.
  @usableFromInline var launch: (Effect<Event, ErrorType, Context>, EffectID) -> Void = { _, _ in }
  /// Called after each step, before the listeners (the main-actor system's Observation hook).
  @usableFromInline var willNotifyStep: (() -> Void)?

  @usableFromInline var uiBindings: [(State) -> Void] = []
  @usableFromInline var loopCallbacks: [(State) -> Void] = []
  @usableFromInline var observers: [(Activity) -> Void] = []
  @usableFromInline var stateStreams: [Int: (State) -> Void] = [:]
  private var lastStreamID = 0

  init(
    owner: String,
    initialState: State,
    context: Context,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, ErrorType, Context>]
  ) {
    self.owner = owner
    self.context = context
    self.core = SystemCore(initialState: initialState, reduce: reduce, feedback: feedback)
  }

  func start() {
    core.start { handle($0) }
  }

  @inlinable
  func send(_ event: Event) {
    core.send(event) { handle($0) }
  }

  func deliver(_ event: Event, from id: EffectID) {
    core.deliver(event, from: id) { handle($0) }
  }

  func finish(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    tasks.remove(id)
    core.finish(id, with: outcome) { handle($0) }
  }

  func stop() {
    core.stop { handle($0) }
    tasks.close()
  }

  func addUIBinding(_ binding: @escaping (State) -> Void, renderingNow: Bool = true) {
    uiBindings.append(binding)
    if renderingNow { binding(core.state) }
  }

  func addLoopCallback(_ callback: @escaping (State) -> Void) {
    loopCallbacks.append(callback)
  }

  func addObserver(_ observer: @escaping (Activity) -> Void) {
    observers.append(observer)
    core.retainsPreviousState = true
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
    lastStreamID += 1
    stateStreams[lastStreamID] = yield
    tasks.insertFinisher(finish, for: lastStreamID)
    return lastStreamID
  }

  func removeStateStream(_ id: Int) {
    stateStreams[id] = nil
    tasks.removeFinisher(id)
  }

  @inlinable
  func handle(_ output: CoreOutput<State, Event, ErrorType, Context>) {
    switch output {
    case .stepped(let event, let previous):
      willNotifyStep?()
      let state = core.state
      for callback in loopCallbacks { callback(state) }
      if let previous {
        notify(.step(event: event, previous: previous, current: state))
      }
      for binding in uiBindings { binding(state) }
      for yield in stateStreams.values { yield(state) }
    case .effectStarted(let id, let request, let effect):
      if let effect { launch(effect, id) }
      notify(.effectStarted(request))
    case .effectCancelled(let id, let request):
      tasks.cancel(id)
      notify(.effectCancelled(request))
    case .effectFinished(_, let request):
      notify(.effectFinished(request))
    case .effectFailed(_, let request, let error):
      if observers.isEmpty {
        reportUnobserved("\(owner): the effect for \(request) failed: \(error)")
      }
      notify(.effectFailed(request, error))
    case .eventIgnored(let event, let reason):
      if observers.isEmpty, reason == .stopped {
        reportUnobserved("\(owner): \(event) was ignored because \(reason).")
      }
      notify(.eventIgnored(event, reason))
    }
  }

  @inlinable
  func notify(_ activity: Activity) {
    for observer in observers { observer(activity) }
  }
}

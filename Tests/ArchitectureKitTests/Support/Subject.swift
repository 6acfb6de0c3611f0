import ArchitectureKit
import TestDoubles
import Testing

/// The runtime a test drives.
enum Runtime: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// ``System``, on the main actor.
  case main
  /// ``BackgroundSystem``, on an actor of its own.
  case background

  var testDescription: String { rawValue }
}

/// What a hook may do to its system from inside the system's isolation, as app code does.
struct Control<Event> {
  let send: (Event) -> Void
  let stop: () -> Void
}

/// One system under test, on either runtime: driven from outside with `await`, acted on by
/// hooks from inside its isolation.
enum Subject<State: Sendable, Event: Sendable, ErrorType: Error, Context: Sendable>: Sendable {
  typealias Activity = SystemActivity<State, Event, ErrorType>

  case main(System<State, Event, ErrorType, Context>)
  case background(BackgroundSystem<State, Event, ErrorType, Context>)

  /// Makes and starts a system; `userActions` drive only a main-actor system.
  static func make(
    _ runtime: Runtime,
    initialState: State,
    context: Context,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    userActions: [UserAction<State, Event, ErrorType, Context>] = [],
    feedback: @escaping @Sendable () -> [Feedback<State, Event, ErrorType, Context>] = { [] }
  ) async -> Subject {
    switch runtime {
    case .main:
      let system = await MainActor.run {
        System<State, Event, ErrorType, Context>.pure(
          initialState: initialState,
          context: context,
          reducer: { state, event in
            var state = state
            reduce(&state, event)
            return state
          },
          uiBindings: [],
          userActions: userActions,
          feedback: feedback()
        )
      }
      return .main(system)
    case .background:
      let system = await BackgroundSystem<State, Event, ErrorType, Context>(
        initialState: initialState,
        context: context,
        reduce: reduce,
        feedback: feedback()
      )
      return .background(system)
    }
  }

  func send(_ event: Event) async {
    switch self {
    case .main(let system): await system.send(event)
    case .background(let system): await system.send(event)
    }
  }

  func stop() async {
    switch self {
    case .main(let system): await system.stop()
    case .background(let system): await system.stop()
    }
  }

  /// The current state; reading it also waits for whatever the system is handling right now.
  var state: State {
    get async {
      switch self {
      case .main(let system): await system.state
      case .background(let system): await system.state
      }
    }
  }

  var isStopped: Bool {
    get async {
      switch self {
      case .main(let system): await system.isStopped
      case .background(let system): await system.isStopped
      }
    }
  }

  func addObserver(_ hook: @escaping @Sendable (Activity, Control<Event>) -> Void) async {
    switch self {
    case .main(let system):
      _ = await MainActor.run {
        system.addObserver { [weak system] activity in
          guard let system else { return }
          hook(activity, Control(send: { system.send($0) }, stop: { system.stop() }))
        }
      }
    case .background(let system):
      await system.addObserver { [weak system] activity in
        guard let system else { return }
        hook(activity, Self.control(of: system))
      }
    }
  }

  func addLoopCallback(_ hook: @escaping @Sendable (State, Control<Event>) -> Void) async {
    switch self {
    case .main(let system):
      _ = await MainActor.run {
        system.addLoopCallback { [weak system] state in
          guard let system else { return }
          hook(state, Control(send: { system.send($0) }, stop: { system.stop() }))
        }
      }
    case .background(let system):
      await system.addLoopCallback { [weak system] state in
        guard let system else { return }
        hook(state, Self.control(of: system))
      }
    }
  }

  /// Adds a UI binding; only a main-actor system has them.
  func addUIBinding(_ hook: @escaping @Sendable (State, Control<Event>) -> Void) async {
    guard case .main(let system) = self else {
      Issue.record("A background system has no UI bindings.")
      return
    }
    _ = await MainActor.run {
      system.addUIBinding { [weak system] state in
        guard let system else { return }
        hook(state, Control(send: { system.send($0) }, stop: { system.stop() }))
      }
    }
  }

  /// Consumes ``System/states`` in a task until `body` returns `true`.
  @discardableResult
  func consumeStates(_ body: @escaping @Sendable (State) async -> Bool) async -> Task<Void, Never> {
    let states: AsyncStream<State>
    switch self {
    case .main(let system): states = await system.states
    case .background(let system): states = await system.states
    }
    return Task {
      for await state in states where await body(state) { return }
    }
  }

  private static func control(
    of system: BackgroundSystem<State, Event, ErrorType, Context>
  ) -> Control<Event> {
    Control(
      send: { event in system.assumeIsolated { $0.send(event) } },
      stop: { system.assumeIsolated { $0.stop() } }
    )
  }
}

extension Subject {
  /// Records every activity from now on into `log`; add it before the hooks under test, so an
  /// activity is recorded before a hook reacts to it.
  func record(into log: Recorder<Activity>) async {
    await addObserver { activity, _ in log.record(activity) }
  }
}

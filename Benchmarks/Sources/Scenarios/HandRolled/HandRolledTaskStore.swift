/// The baseline of the asynchronous round trip: a main-actor store written by hand that runs
/// each effect in a `Task`.
///
/// Like ``HandRolledStore`` it holds a state, a reducer, subscribers and a queue for events sent
/// during a step. It has one feedback: a request derived from each state; a new request cancels
/// the running task and starts one, off the main actor, whose event hops back with `await`; a
/// cancelled task's late event is dropped. That is the least a store must do to run effects
/// correctly, so the library's async round trip is measured against it.
@MainActor
public final class HandRolledTaskStore<State, Event: Sendable, Request: Equatable & Sendable> {
  /// The current state.
  public private(set) var state: State

  private let reduce: (inout State, Event) -> Void
  private let request: (State) -> Request?
  private let run: @Sendable (Request) async -> Event
  private var subscribers: [(State) -> Void] = []
  private var queue: [Event] = []
  private var isSending = false
  private var running: (request: Request, generation: Int, task: Task<Void, Never>)?
  private var generation = 0

  /// Creates the store.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - reduce: Applies an event to the state in place.
  ///   - request: The request a state asks an effect for, if any.
  ///   - run: The effect of a request; runs in a task off the main actor.
  public init(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Void,
    request: @escaping (State) -> Request?,
    run: @escaping @Sendable (Request) async -> Event
  ) {
    self.state = initialState
    self.reduce = reduce
    self.request = request
    self.run = run
  }

  /// Adds a subscriber and gives it the current state.
  ///
  /// - Parameter subscriber: Called with every state from now on.
  public func subscribe(_ subscriber: @escaping (State) -> Void) {
    subscribers.append(subscriber)
    subscriber(state)
  }

  /// Applies an event, or queues it when a step is running.
  ///
  /// - Parameter event: The event.
  public func send(_ event: Event) {
    guard !isSending else {
      queue.append(event)
      return
    }
    isSending = true
    step(event)
    var next = 0
    while next < queue.count {
      step(queue[next])
      next += 1
    }
    if next > 0 { queue.removeAll(keepingCapacity: true) }
    isSending = false
  }

  private func step(_ event: Event) {
    reduce(&state, event)
    for subscriber in subscribers { subscriber(state) }
    let wanted = request(state)
    guard wanted != running?.request else { return }
    running?.task.cancel()
    running = nil
    guard let wanted else { return }
    generation += 1
    let generation = self.generation
    let run = self.run
    let task = Task.detached { [weak self] in
      let event = await run(wanted)
      await self?.deliver(event, from: generation)
    }
    running = (wanted, generation, task)
  }

  /// Sends an effect's event, unless its task was cancelled or replaced meanwhile.
  private func deliver(_ event: Event, from generation: Int) {
    guard running?.generation == generation else { return }
    send(event)
  }
}

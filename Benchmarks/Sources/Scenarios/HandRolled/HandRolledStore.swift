/// The baseline of the synchronous scenarios: a store written by hand, as an app without a
/// state library would write one.
///
/// It holds the state, a reducer closure, subscriber closures, a queue that keeps an event sent
/// during a step until the step is over (the one guarantee every store needs), and effect
/// closures that look at each new state and may send events at once. It has no feedback
/// bookkeeping, no cancellation, no observers and no isolation checks: what is left is the floor
/// a library's step is measured against.
///
/// ```swift
/// let store = HandRolledStore(initialState: 0, reduce: { state, _ in state += 1 })
/// store.subscribe { state in print(state) }
/// store.send(.increment)
/// ```
public final class HandRolledStore<State, Event> {
  /// The current state.
  public private(set) var state: State

  private let reduce: (inout State, Event) -> Void
  private var subscribers: [(State) -> Void] = []
  private let effects: [(State, _ send: (Event) -> Void) -> Void]
  private var queue: [Event] = []
  private var isSending = false

  /// Creates the store.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - reduce: Applies an event to the state in place.
  ///   - effects: Called after each step, after the subscribers, with the new state and a
  ///     `send` that queues an event behind the current step.
  public init(
    initialState: State,
    reduce: @escaping (inout State, Event) -> Void,
    effects: [(State, _ send: (Event) -> Void) -> Void] = []
  ) {
    self.state = initialState
    self.reduce = reduce
    self.effects = effects
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
    for effect in effects {
      effect(state) { queue.append($0) }
    }
  }
}

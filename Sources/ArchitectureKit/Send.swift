/// Sends events from a long-running effect back to its system.
///
/// A long-running feedback effect (a timer, a stream of updates) receives a `Send` and calls it
/// once per event. Each call returns once the system has queued the event, so an effect cannot
/// outrun the system. Events sent after the effect was cancelled are dropped.
///
/// ```swift
/// Feedback<State, Event, Never, Context>.react(request: \.tickingInterval, stream: {
///   interval, context, send in
///   while !Task.isCancelled {
///     try? await context.clock.sleep(for: interval)
///     await send(.tick)
///   }
/// })
/// ```
public struct Send<Event: Sendable>: Sendable {
  private let deliver: @Sendable (Event) async -> Void

  /// Creates a sender that hands each event to `deliver`.
  ///
  /// Runtimes make these; tests can make one to run an effect by hand.
  ///
  /// - Parameter deliver: Receives every sent event.
  public init(_ deliver: @escaping @Sendable (Event) async -> Void) {
    self.deliver = deliver
  }

  /// Sends one event to the system.
  ///
  /// - Parameter event: The event to queue.
  public func callAsFunction(_ event: Event) async {
    await deliver(event)
  }
}

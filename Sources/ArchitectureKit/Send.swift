/// Sends events from a long-running effect back to its system.
///
/// A long-running feedback effect (a stream of updates, a job's progress) receives a `Send` and
/// calls it once per event. For a repeating timer, prefer a
/// ``FeedbackEffect/timer(every:clock:coalescing:tick:)`` effect, which does not drift. Each call
/// returns once the system has queued the event, so an effect cannot outrun the system. In a
/// ``System``, before the effect's first suspension a call returns at once, and the event is
/// handed over when the effect suspends or ends, so a stream that sends in a loop should
/// suspend first (`await Task.yield()`); one that never does is made to hop once it has used up
/// the inline budget (<doc:Concurrency#Inline-work-is-bounded>). Events sent after the effect
/// was cancelled are dropped.
///
/// ```swift
/// Feedback<State, Event, Never, Context>.react(request: \.tickingInterval, effect: .stream {
///   interval, context, send in
///   // The sleep throws when the request changes or vanishes: the loop ends there, and sends
///   // no extra tick.
///   while (try? await context.clock.sleep(for: interval)) != nil {
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

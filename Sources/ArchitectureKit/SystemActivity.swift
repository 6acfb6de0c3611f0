/// Something a system did: a step, or a change in the life of an effect.
///
/// Observers added with ``System/addObserver(_:)`` receive every activity in order. Use them
/// for logging, analytics, debugging tools and tests.
///
/// ```swift
/// system.addObserver { activity in
///   if case .effectFailed(let request, let error) = activity {
///     logger.error("\(request) failed: \(error)")
///   }
/// }
/// ```
public enum SystemActivity<State, Event, ErrorType: Error> {
  /// An event was reduced: the state went from `previous` to `current`.
  case step(event: Event, previous: State, current: State)
  /// A feedback request appeared and its effect started.
  case effectStarted(EffectRequest)
  /// A request changed or vanished while its effect was running, and the effect was cancelled.
  case effectCancelled(EffectRequest)
  /// An effect ended without error; its request stays in place until the state drops it.
  case effectFinished(EffectRequest)
  /// An effect failed and no event was made of the error. The state is untouched.
  case effectFailed(EffectRequest, ErrorType)
  /// An event was not reduced, for the reason given.
  case eventIgnored(Event, IgnoredEventReason)
}

/// Why a system did not reduce an event.
public enum IgnoredEventReason: Sendable, Equatable, CustomStringConvertible {
  /// The system was stopped before the event's turn: it was sent after ``System/stop()``, or
  /// it waited in the mailbox when the system stopped.
  case stopped
  /// The event came from an effect that had been cancelled — because its request changed or
  /// vanished, or by ``System/stop()`` — so it was stale.
  case cancelledEffect
  /// The event was meant for a child feature that the state does not hold (an element removed
  /// from a `forEach`, an `ifLet` state that is `nil`), named by its scope, as in `rows[7]`.
  /// Neither the child nor its parent reduced it.
  case missingChild(String)

  /// A short explanation, for logs.
  public var description: String {
    switch self {
    case .stopped: "the system was stopped"
    case .cancelledEffect: "its effect had been cancelled"
    case .missingChild(let scope): "no child at \(scope) receives it"
    }
  }
}

extension SystemActivity: Sendable where State: Sendable, Event: Sendable {}

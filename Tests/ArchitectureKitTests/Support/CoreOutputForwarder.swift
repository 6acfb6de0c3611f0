import ArchitectureKit

/// What a ``SystemCore`` reports to its runtime, as one value, for tests that drive a core.
enum CoreOutput<State, Event: Sendable, Failure: Error, Context: Sendable> {
  /// An event was reduced; `previous` is kept only when the core retains previous states.
  case stepped(Event, previous: State?)
  /// An effect started.
  case effectStarted(EffectID, EffectRequest, Effect<Event, Failure, Context>)
  /// A running effect was cancelled.
  case effectCancelled(EffectID, EffectRequest)
  /// An effect ended without error.
  case effectFinished(EffectID, EffectRequest)
  /// An effect failed and no event was made of the error.
  case effectFailed(EffectID, EffectRequest, Failure)
  /// An event was not reduced.
  case eventIgnored(Event, IgnoredEventReason)
}

/// A runtime that forwards each of a core's reports to a closure, as a ``CoreOutput``.
final class CoreOutputForwarder<State, Event: Sendable, Failure: Error, Context: Sendable>:
  CoreRuntime
{
  typealias Output = CoreOutput<State, Event, Failure, Context>

  private let handle: (Output) -> Void

  /// Creates a runtime that calls `handle` with every report.
  init(_ handle: @escaping (Output) -> Void) {
    self.handle = handle
  }

  func coreStepped(_ event: Event, previous: State?) {
    handle(.stepped(event, previous: previous))
  }

  func coreStartedEffect(
    _ id: EffectID, _ request: EffectRequest, _ effect: Effect<Event, Failure, Context>
  ) {
    handle(.effectStarted(id, request, effect))
  }

  func coreCancelledEffect(_ id: EffectID, _ request: EffectRequest) {
    handle(.effectCancelled(id, request))
  }

  func coreFinishedEffect(_ id: EffectID, _ request: EffectRequest) {
    handle(.effectFinished(id, request))
  }

  func coreFailedEffect(_ id: EffectID, _ request: EffectRequest, _ error: Failure) {
    handle(.effectFailed(id, request, error))
  }

  func coreIgnored(_ event: Event, _ reason: IgnoredEventReason) {
    handle(.eventIgnored(event, reason))
  }

  /// Never called: the cores these tests drive do not report settling.
  func coreSettled() {}
}

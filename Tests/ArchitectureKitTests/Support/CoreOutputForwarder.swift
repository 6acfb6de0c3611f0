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

  /// Always: the tests see every end.
  var reportsEffectEnds: Bool { true }

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

extension SystemCore {
  /// Starts the core, sends it `events` and returns, per step (the start first), the requests
  /// it started and cancelled, as `start <request>` and `cancel <request>` in report order.
  func startsAndCancels(sending events: [Event]) -> [[String]] {
    var steps: [[String]] = [[]]
    let runtime = CoreOutputForwarder<State, Event, Failure, Context> { output in
      switch output {
      case .stepped: steps.append([])
      case .effectStarted(_, let request, _): steps[steps.count - 1].append("start \(request)")
      case .effectCancelled(_, let request): steps[steps.count - 1].append("cancel \(request)")
      default: break
      }
    }
    start(runtime: runtime)
    for event in events { send(event, runtime: runtime) }
    return steps
  }
}

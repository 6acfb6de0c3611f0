import ArchitectureKit
import TestDoubles

/// ``SystemActivity`` with its type parameters as associated types, so that an extension of
/// ``Recorder`` can name them: Swift has no parameterized extensions.
protocol SystemActivityValue<State, Event, ErrorType> {
  associatedtype State
  associatedtype Event
  associatedtype ErrorType: Error

  /// The activity itself.
  var activity: SystemActivity<State, Event, ErrorType> { get }
}

extension SystemActivity: SystemActivityValue {
  var activity: Self { self }
}

extension Recorder {
  /// Creates a recorder of everything `system` does from now on.
  @MainActor
  convenience init<State, Event, ErrorType, Context>(
    observing system: System<State, Event, ErrorType, Context>
  ) where Value == SystemActivity<State, Event, ErrorType> {
    self.init()
    system.addObserver { [self] activity in record(activity) }
  }

  /// Records everything `system` does from now on, on the system's actor.
  func observe<State, Event, ErrorType, Context>(
    _ system: BackgroundSystem<State, Event, ErrorType, Context>
  ) async where Value == SystemActivity<State, Event, ErrorType> {
    await system.addObserver { [self] activity in record(activity) }
  }
}

extension Recorder where Value: SystemActivityValue {
  /// The activities recorded so far, in order.
  var activities: [Value] { values }

  var started: [EffectRequest] {
    values.compactMap {
      if case .effectStarted(let request) = $0.activity { request } else { nil }
    }
  }

  var cancelled: [EffectRequest] {
    values.compactMap {
      if case .effectCancelled(let request) = $0.activity { request } else { nil }
    }
  }

  var finished: [EffectRequest] {
    values.compactMap {
      if case .effectFinished(let request) = $0.activity { request } else { nil }
    }
  }

  var failures: [Value.ErrorType] {
    values.compactMap { if case .effectFailed(_, let error) = $0.activity { error } else { nil } }
  }

  var ignored: [(Value.Event, IgnoredEventReason)] {
    values.compactMap {
      if case .eventIgnored(let event, let reason) = $0.activity { (event, reason) } else { nil }
    }
  }

  var steps: [Value.Event] {
    values.compactMap { if case .step(let event, _, _) = $0.activity { event } else { nil } }
  }
}

import ArchitectureKit
import FunctionalCore

/// Buffers a system's activities so a test can await the ones it expects, without sleeping.
@MainActor
final class ActivityLog<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  typealias Activity = SystemActivity<State, Event, ErrorType>
  private(set) var activities: [Activity] = []
  private var waiters:
    [(predicate: (Activity) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

  init(_ system: System<State, Event, ErrorType, Context>) {
    system.addObserver { [unowned self] activity in
      activities.append(activity)
      let ready = waiters.filter { $0.predicate(activity) }
      waiters.removeAll { $0.predicate(activity) }
      for waiter in ready { waiter.continuation.resume() }
    }
  }

  /// Returns once an activity matching `predicate` has happened (at once if it already has).
  func wait(for predicate: @escaping (Activity) -> Bool) async {
    if activities.contains(where: predicate) { return }
    await withCheckedContinuation { waiters.append((predicate, $0)) }
  }

  /// Returns once `count` activities matching `predicate` have happened.
  func wait(count: Int, of predicate: @escaping (Activity) -> Bool) async {
    while activities.filter(predicate).count < count {
      let seen = activities.count
      await withCheckedContinuation { continuation in
        waiters.append(({ [unowned self] _ in activities.count > seen }, continuation))
      }
    }
  }

  var started: [EffectRequest] {
    activities.compactMap { if case .effectStarted(let request) = $0 { request } else { nil } }
  }

  var cancelled: [EffectRequest] {
    activities.compactMap { if case .effectCancelled(let request) = $0 { request } else { nil } }
  }

  var failures: [ErrorType] {
    activities.compactMap { if case .effectFailed(_, let error) = $0 { error } else { nil } }
  }

  var ignored: [(Event, IgnoredEventReason)] {
    activities.compactMap {
      if case .eventIgnored(let event, let reason) = $0 { (event, reason) } else { nil }
    }
  }

  var steps: [Event] {
    activities.compactMap { if case .step(let event, _, _) = $0 { event } else { nil } }
  }
}

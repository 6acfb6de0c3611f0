import ArchitectureKit

/// Counts a system's running effects from its observer activities, so a script's next key can
/// wait until the shop is idle: no search, no row and no page loading.
@MainActor
final class EffectMonitor<State, Event, Failure: Error> {
  private(set) var runningCount = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Records one activity; give it to the system as an observer at creation, so the effects
  /// the initial state starts are counted too.
  func record(_ activity: SystemActivity<State, Event, Failure>) {
    switch activity {
    case .effectStarted: runningCount += 1
    case .effectFinished, .effectFailed, .effectCancelled: runningCount -= 1
    case .step, .eventIgnored: return
    }
    guard runningCount == 0 else { return }
    let ready = waiters
    waiters = []
    for waiter in ready { waiter.resume() }
  }

  /// Returns once no effect is running (at once if none is).
  func waitUntilIdle() async {
    // An effect's end can lead, in the same step, to new requests: check again on waking.
    while runningCount > 0 {
      await withCheckedContinuation { waiters.append($0) }
    }
  }
}

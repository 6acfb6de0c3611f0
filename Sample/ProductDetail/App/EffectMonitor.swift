import ArchitectureKit
import ProductDetailFeature

/// Counts a system's running effects from its observer activities, so a script's next key can
/// wait until the page is idle.
@MainActor
final class EffectMonitor {
  private(set) var runningCount = 0
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init(observing system: ProductDetailSystem) {
    system.addObserver { [weak self] activity in self?.record(activity) }
  }

  /// Returns once no effect is running (at once if none is).
  func waitUntilIdle() async {
    // An effect's end can lead, in the same step, to a new request: check again on waking.
    while runningCount > 0 {
      await withCheckedContinuation { waiters.append($0) }
    }
  }

  private func record(
    _ activity: SystemActivity<ProductDetailState, ProductDetailEvent, ProductDetailError>
  ) {
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
}

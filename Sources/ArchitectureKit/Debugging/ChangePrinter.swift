/// Prints what a system does, for development: each step's event, where it came from and the
/// changed paths of the state, the effects started and cancelled, and the failures.
///
/// ```text
/// step 1: .loadProduct
///   screen: .start → .loading
///   request: nil → .loadProduct(id: 1)
///   requestCount: 0 → 1
///   started #1 loadProduct(id: 1)
/// step 2: .productLoaded(Product(id: "yeezy", …)) from #1 loadProduct(id: 1)
///   screen: .loading → .productLoaded(Product(id: "yeezy", …))
///   request: .loadProduct(id: 1) → nil
/// ```
///
/// Made by ``System/printChanges(to:)`` and its siblings; it runs on the system's isolation.
package final class ChangePrinter: ActivityRecorder {
  /// Receives each line.
  private let output: (String) -> Void
  /// The state after the last step, which the next step's changes are taken from.
  private var lastState: Any?
  /// The steps printed so far.
  private var steps = 0

  /// A printer that hands each line to `output`.
  ///
  /// - Parameter output: Receives each line, without a line break.
  package init(output: @escaping (String) -> Void) {
    self.output = output
  }

  package func begin(system: String, state: Any, at time: Int64) -> Bool {
    guard lastState == nil else { return false }
    lastState = state
    return true
  }

  package func record(_ activity: JournalActivity, at time: Int64) {
    switch activity {
    case .step(let event, let origin, let state):
      steps += 1
      output("step \(steps): \(ValueText.describe(event))\(Self.describe(origin))")
      var changes: [StateChange] = []
      if let lastState { changes = StateDiff.changes(from: lastState, to: state) }
      lastState = state
      if changes.isEmpty { output("  (no change)") }
      for change in changes {
        let path = change.path.isEmpty ? "" : change.path + ": "
        output("  \(path)\(change.before) → \(change.after)")
      }
    case .started(let effect, let request):
      output("  started #\(effect) \(request)")
    case .cancelled(let effect, let request):
      output("  cancelled #\(effect) \(request)")
    case .finished:
      // The next step names the effect as its event's origin.
      break
    case .failed(let effect, let request, let error):
      output("  failed #\(effect) \(request): \(ValueText.describe(error))")
    case .ignored(let event, let reason, let origin):
      output("ignored \(ValueText.describe(event))\(Self.describe(origin)): \(reason)")
    case .stopped:
      output("stopped")
    }
  }

  private static func describe(_ origin: JournalOrigin) -> String {
    switch origin {
    case .app: ""
    case .effect(let serial, let request?): " from #\(serial) \(request)"
    case .effect(let serial, nil): " from #\(serial)"
    }
  }
}

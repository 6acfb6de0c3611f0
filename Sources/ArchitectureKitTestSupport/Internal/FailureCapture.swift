import FunctionalCore

/// The failures the harness reports while a test captures them, kept instead of recorded.
///
/// The harness's own tests provoke its failures on purpose: a wrong expected state, an event
/// never received, an effect that never ends. Recorded as issues, each would have to be excused
/// as a known issue and would clutter every run's summary; captured, the test asserts on their
/// number and text, and fails when the harness stops reporting them. Tests capture with
/// ``capturingFailures(_:)``, which makes a capture ``current`` for its body and the
/// tasks the body starts; ``reportFailure(_:at:)`` hands every failure to the current capture.
///
/// A capture is open while its body runs. A failure reported after it closed, by a task the
/// body started and left running, is reported as if nothing captured it, instead of being lost.
/// So is a failure reported from a task that does not inherit task-local values
/// (`Task.detached`): a capture never swallows a failure it cannot hand back to its test.
package final class FailureCapture: Sendable {
  /// The capture that failures reported from the current task go to, if any.
  @TaskLocal package static var current: FailureCapture?

  /// The failures captured so far, and whether the capture still takes more.
  private let state = Lock<(failures: [CapturedFailure], isOpen: Bool)>(([], true))

  /// Creates an open capture with no failures.
  package init() {}

  /// Keeps a failure, when the capture is still open.
  ///
  /// - Parameters:
  ///   - message: The failure's message.
  ///   - site: Where the failure points.
  /// - Returns: Whether the capture kept it: `false` once it closed.
  package func capture(_ message: String, at site: CallSite) -> Bool {
    state.withLock { state in
      guard state.isOpen else { return false }
      state.failures.append(
        CapturedFailure(message: message, fileID: "\(site.fileID)", line: site.line))
      return true
    }
  }

  /// Closes the capture: failures reported from now on are recorded as issues.
  ///
  /// - Returns: The failures captured, in the order they were reported.
  package func close() -> [CapturedFailure] {
    state.withLock { state in
      state.isOpen = false
      return state.failures
    }
  }
}

/// A failure a capture kept: its message and where it points.
package struct CapturedFailure: Sendable {
  /// The failure's message.
  package let message: String
  /// The file ID of the line it points at.
  package let fileID: String
  /// The line it points at.
  package let line: UInt
}

/// Runs `body` and returns the messages of the harness failures it caused, instead of recording
/// them as issues.
///
/// The failures of ``TestSystem``, ``ManualClock`` and ``ReducerSpec`` that `body` causes,
/// across its suspensions and in the tasks it starts, are captured; the test asserts on them:
///
/// ```swift
/// let failures = await capturingFailures {
///   system.send(.search("a")) { $0.query = "b" }
/// }
/// #expect(failures.count == 1)
/// #expect(failures.allSatisfy { $0.contains("− expected, + actual") })
/// ```
///
/// It is `async` only, with no synchronous twin: the two would be ambiguous with a trailing
/// closure, and a test that captures can always be `async`.
///
/// - Parameter body: The code that provokes harness failures; it runs on the caller's actor.
/// - Returns: The messages of the failures, in the order they were reported.
package func capturingFailures(_ body: () async -> Void) async -> [String] {
  await capturingFailureSites(body).map(\.message)
}

/// Runs `body` and returns the harness failures it caused, with where each points, instead of
/// recording them as issues; see ``capturingFailures(_:)``.
///
/// - Parameter body: The code that provokes harness failures; it runs on the caller's actor.
/// - Returns: The failures, in the order they were reported.
package func capturingFailureSites(_ body: () async -> Void) async -> [CapturedFailure] {
  let capture = FailureCapture()
  await FailureCapture.$current.withValue(capture, operation: body)
  return capture.close()
}

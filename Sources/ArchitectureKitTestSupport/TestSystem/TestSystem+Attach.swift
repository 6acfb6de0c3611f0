import ArchitectureKit

extension TestSystem {
  /// Sends an event, as ``ArchitectureKit/System/attach(_:)`` does, checks the state change,
  /// and hands back the effects its step started so the test can cancel them as the app's task
  /// would be cancelled — a screen's `.task` ending as the screen goes away.
  ///
  /// ```swift
  /// let task = system.attach(.task)
  /// system.expectStarted("screenshots")
  /// system.run("screenshots")
  /// screenshots.yield()
  /// await system.receive(.userDidTakeScreenshot) { $0.screenshotCount = 1 }
  /// task.cancel()
  /// system.expectCancelled("screenshots")
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event to reduce.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - assert: Changes the state before the step into the state you expect after it. Omit it
  ///     when the event must not change the state.
  /// - Returns: The attached effects, to cancel.
  @discardableResult
  public func attach(
    _ event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) -> AttachedEffects {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkAccountedFor(before: "sending \(event)", at: site)
    let before = state
    let attachment = shell.attach(event)
    reportUnrouted(at: site)
    checkState(before: before, assert, after: "sending \(event)", at: site)
    return AttachedEffects { [shell] in
      if let attachment { shell.cancel(attachment) }
    }
  }
}

/// The effects an event sent with ``TestSystem/attach(_:fileID:filePath:line:column:assert:)``
/// started, tied to the task that would have sent it in the app.
@MainActor
public struct AttachedEffects {
  private let cancelEffects: () -> Void

  init(cancel: @escaping () -> Void) {
    self.cancelEffects = cancel
  }

  /// Cancels the effects still running, as cancelling the sending task does in the app; then
  /// account for them with `expectCancelled`.
  public func cancel() {
    cancelEffects()
  }
}

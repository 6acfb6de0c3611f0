/// Attachments: the effects one event started, tied to the task that sent it — SwiftUI's
/// `.task { await system.attach(.observe) }` — so they end when that task is cancelled.
///
/// The shell notes the effects that start in the event's own step; each ending (finished,
/// failed, cancelled, stopped) takes one off, and the last one resumes the sender's wait.
extension RuntimeShell {
  /// Sends `event` and returns the effects its step started, tied to the caller; `nil` when
  /// it started none that still run.
  ///
  /// - Parameter event: The event to send.
  /// - Returns: The attachment to wait for or cancel, or `nil`.
  package func attach(_ event: Event) -> Attachment? {
    let table = attachments ?? Attachments()
    attachments = table
    let attachment = Attachment()
    table.recording = attachment
    send(event)
    table.recording = nil
    guard !attachment.ids.isEmpty else { return nil }
    table.live.append(attachment)
    return attachment
  }

  /// Cancels the effects of an attachment that still run: its caller's task was cancelled.
  ///
  /// - Parameter attachment: What ``attach(_:)`` returned.
  package func cancel(_ attachment: Attachment) {
    let running = attachment.ids.sorted { $0.rawValue < $1.rawValue }
    core.cancelEffects(running, runtime: self)
  }

  /// Notes an effect the core started, for the attachment being recorded.
  @usableFromInline
  func noteStarted(_ id: EffectID, in table: Attachments) {
    guard let recording = table.recording, recording.steps == 1 else { return }
    recording.ids.insert(id)
  }

  /// Notes a step, for the attachment being recorded: only its event's step counts.
  @usableFromInline
  func noteStep(in table: Attachments) {
    table.recording?.steps += 1
  }

  /// Takes an effect that ended off the attachments that hold it.
  @usableFromInline
  func noteEnded(_ id: EffectID, in table: Attachments) {
    table.recording?.ids.remove(id)
    guard !table.live.isEmpty else { return }
    table.live.removeAll { attachment in
      guard attachment.ids.remove(id) != nil, attachment.ids.isEmpty else { return false }
      attachment.finish()
      return true
    }
  }
}

/// The attachments of one shell: the one being recorded, and those whose effects still run.
@usableFromInline
package final class Attachments {
  /// The attachment whose event is being sent.
  var recording: Attachment?
  /// The attachments with effects still running.
  var live: [Attachment] = []
}

/// The effects one event started, tied to the task that sent it.
///
/// Used on the shell's isolation only; ``wait()`` is called there too. It is `Sendable` only so
/// that a cancellation handler, which runs anywhere, can carry it back to that isolation.
@usableFromInline
package final class Attachment: @unchecked Sendable {
  /// The effects still running.
  var ids: Set<EffectID> = []
  /// How many steps happened while the event was sent: starts count only in the first.
  var steps = 0
  /// Whether every effect ended.
  private var isOver = false
  /// The sender waiting for the effects to end.
  private var waiter: CheckedContinuation<Void, Never>?

  /// Returns once every effect of the attachment has ended.
  package func wait() async {
    guard !isOver else { return }
    await withCheckedContinuation { waiter = $0 }
  }

  /// Ends the attachment: its last effect ended.
  func finish() {
    isOver = true
    waiter.take()?.resume()
  }
}

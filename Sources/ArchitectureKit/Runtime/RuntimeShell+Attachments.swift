/// Attachments: the effects one event started, tied to the task that sent it — SwiftUI's
/// `.task { await system.attach(.observe) }` — so they end when that task is cancelled.
///
/// The shell notes the effects that start in the event's own step (the core says when that
/// step is over); each ending (finished, failed, cancelled, stopped) takes one off, and the
/// last one resumes the sender's wait.
extension RuntimeShell {
  /// Sends `event` and returns the effects its step started, tied to the caller; `nil` when
  /// it started none that still run.
  ///
  /// - Parameter event: The event to send.
  /// - Returns: The attachment to wait for or cancel, or `nil`.
  package func attach(_ event: Event) -> Attachment? {
    let table = attachments ?? Attachments()
    madeExtras.attachments = table
    let attachment = Attachment()
    // Live from the start: an effect of the step may end in the same drain, before `send`
    // returns (an immediate result, a cancellation by a later event).
    table.live.append(attachment)
    table.recording = attachment
    core.send(event, runtime: self) { table.recording = nil }
    guard !attachment.ids.isEmpty else {
      table.live.removeAll { $0 === attachment }
      return nil
    }
    return attachment
  }

  /// Cancels the effects of an attachment that still run, and ends its wait: its caller's task
  /// was cancelled.
  ///
  /// The cancellations end the wait already (each is noted as an ending); the attachment is
  /// ended here too, so that a cancelled call returns whatever its effects did: its wait always
  /// ends.
  ///
  /// - Parameter attachment: What ``attach(_:)`` returned.
  package func cancel(_ attachment: Attachment) {
    let running = attachment.ids.sorted { $0.rawValue < $1.rawValue }
    core.cancelEffects(running, runtime: self)
    attachments?.live.removeAll { $0 === attachment }
    attachment.finish()
  }

  /// Notes an effect the core started, for the attachment being recorded: one its event's own
  /// step started.
  @usableFromInline
  func noteStarted(_ id: EffectID, in table: Attachments) {
    table.recording?.ids.insert(id)
  }

  /// Takes an effect that ended off the attachments that hold it.
  @usableFromInline
  func noteEnded(_ id: EffectID, in table: Attachments) {
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

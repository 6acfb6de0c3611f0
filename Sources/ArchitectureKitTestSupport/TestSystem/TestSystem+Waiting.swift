import ArchitectureKit
import FunctionalCore

/// Waiting for effects, with a failsafe.
extension TestSystem {
  /// How a wait ended.
  enum WaitResult {
    /// An event waits to be received.
    case parked(Event)
    /// No effect can go on without the test.
    case idle
    /// The failsafe timeout passed while these effects were still working.
    case timedOut([String])
    /// The waiting task was cancelled.
    case cancelled
  }

  /// Waits until every effect the test ran has ended or waits for the test (asleep on the
  /// ``ManualClock``, or holding an event the test has not received).
  ///
  /// Use it before asserting what such effects did without sending an event, such as a failure.
  /// It fails the test when effects still work after the failsafe timeout.
  ///
  /// - Parameters:
  ///   - timeout: The failsafe for this wait; ``timeout`` when `nil`.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func settle(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let wait = await waitUntilIdle(until: .now + (timeout ?? self.timeout))
    if case .idle = wait { return }
    reportFailure("Effects did not settle: \(describe(wait, waitingFor: "effects")).", at: site)
  }

  /// Waits for the effects that run, then fails for anything the test did not account for, and
  /// stops the system.
  ///
  /// With ``Exhaustivity/on``, it fails for events not received, requests and failures not
  /// expected, and effects still running (which it then cancels). With ``Exhaustivity/off``, it
  /// reduces the events still waiting to be received, in order, then cancels what runs.
  ///
  /// - Parameters:
  ///   - timeout: The failsafe for this wait; ``timeout`` when `nil`.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    var wait = await waitUntilIdle(until: deadline)
    if exhaustivity == .off {
      while case .idle = wait, !shell.parked.isEmpty {
        shell.receiveParked()
        wait = await waitUntilIdle(until: deadline)
      }
    }
    if exhaustivity == .on {
      switch wait {
      case .idle, .parked: break
      case .timedOut, .cancelled:
        reportFailure(
          "Effects did not settle before finishing: \(describe(wait, waitingFor: "effects")).",
          at: site)
      }
    }
    checkAccountedFor(before: "finishing", at: site)
    let running = runningRequests
    if exhaustivity == .on, !running.isEmpty {
      reportFailure(
        "Effects are still running at the end of the test: \(running.map(\.description)). "
          + "Simulate or run them to their end, or change the state so their requests vanish.",
        at: site
      )
    }
    isFinished = true
    shell.stop()
    // A failsafe of its own: the one above may have passed.
    await waitForCancelledTasks(until: .now + (timeout ?? self.timeout), at: site)
  }

  /// Waits until the task of every effect that ran has returned, cancelled ones included, so
  /// that their cleanup (a stream's `onTermination`, a closed file) is done; fails the test when
  /// the failsafe passes first.
  func waitForCancelledTasks(until deadline: ContinuousClock.Instant, at site: CallSite) async {
    let work = shell.work
    while true {
      let generation = work.generation
      let live = work.liveTaskLabels
      if live.isEmpty { return }
      switch await work.waitForChange(after: generation, deadline: deadline) {
      case .changed: continue
      case .cancelled: return
      case .timedOut:
        if work.liveTaskLabels.isEmpty { return }
        reportFailure(
          "The tasks of cancelled effects did not end before the failsafe (\(timeout)): "
            + "\(live.sorted()). An effect must end when it is cancelled.",
          at: site)
        return
      }
    }
  }

  /// Waits until an event is parked, or nothing can send one without the test.
  func waitForParkedEvent(until deadline: ContinuousClock.Instant) async -> WaitResult {
    await wait(until: deadline) { shell.parked.first.map { .parked($0.event) } }
  }

  /// Waits until no effect works without the test.
  func waitUntilIdle(until deadline: ContinuousClock.Instant) async -> WaitResult {
    await wait(until: deadline) { nil }
  }

  /// Waits until `answer` has one, or the system is idle, or the failsafe or a cancellation
  /// ends the wait.
  private func wait(
    until deadline: ContinuousClock.Instant,
    for answer: () -> WaitResult?
  ) async -> WaitResult {
    let work = shell.work
    var deadline = deadline
    var mainActorHadATurn = false
    var grace = FailsafeGrace()
    while true {
      let generation = work.generation
      if let answer = answer() { return answer }
      if work.isIdle {
        guard work.drainer != nil, !mainActorHadATurn else { return .idle }
        // Work an effect sent to the main actor on its own (`MainActor.run`) comes back to
        // the effect's executor once the main actor has had a turn.
        mainActorHadATurn = true
        await Task.yield()
        continue
      }
      mainActorHadATurn = false
      switch await work.waitForChange(after: generation, deadline: deadline) {
      case .changed:
        continue
      case .timedOut:
        if work.isIdle { continue }
        let working = work.workingLabels
        if grace.extends(for: work, workingLabels: working) {
          deadline = .now + timeout
          continue
        }
        return .timedOut(working.sorted())
      case .cancelled:
        return .cancelled
      }
    }
  }

  /// Explains why a wait ended without what it waited for.
  func describe(_ wait: WaitResult, waitingFor subject: String) -> String {
    switch wait {
    case .parked(let event):
      return "\(event) was sent first"
    case .idle:
      let waiting = runningRequests.map(\.description)
      return waiting.isEmpty
        ? "no effect sent an event and none is running"
        : "no effect sent an event; the effects still running wait for the test: \(waiting)"
    case .timedOut(let working):
      return "the wait for \(subject) timed out after \(timeout) (the failsafe); "
        + "still working: \(working)"
    case .cancelled:
      return "the wait for \(subject) was cancelled"
    }
  }
}

import ArchitectureKit

/// Receiving what effects sent.
extension TestSystem {
  /// Receives the next event an effect sent, checks it matches, reduces it and checks the state
  /// change.
  ///
  /// When no event waits yet, it waits for this system's effects that the test ran, until one
  /// sends an event; it fails at once when none of them can send anything without the test
  /// (they ended, or sleep on the ``ManualClock``), and after the failsafe ``timeout`` when one
  /// works and never sends.
  ///
  /// With ``Exhaustivity/on``, the next event must match. With ``Exhaustivity/off``, events that
  /// do not match are reduced, unasserted, until one matches — never skipped, so the state is
  /// the one the app would have.
  ///
  /// ```swift
  /// await system.receive(where: { if case .loaded = $0 { true } else { false } }) {
  ///   $0.isLoading = false
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - matches: Whether an event is the one you expect.
  ///   - timeout: The failsafe for this wait; ``timeout`` when `nil`.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - assert: Changes the state before the step into the state you expect after it.
  public func receive(
    where matches: (Event) -> Bool,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      "an event that matches", matches, timeout: timeout, at: site, assert: assert)
  }

  func receive(
    _ expected: String,
    _ matches: (Event) -> Bool,
    timeout: Duration?,
    at site: CallSite,
    assert: ((inout State) -> Void)?
  ) async {
    checkAccountedFor(before: "receiving \(expected)", at: site, ignoringReceived: true)
    let deadline = ContinuousClock.now + (timeout ?? self.timeout)
    while true {
      let wait = await waitForParkedEvent(until: deadline)
      guard case .parked(let event) = wait else {
        reportFailure(
          "Expected to receive \(expected), but \(describe(wait, waitingFor: "an event")).",
          at: site)
        return
      }
      let isMatch = matches(event)
      if !isMatch, exhaustivity == .off {
        shell.receiveParked()
        continue
      }
      if !isMatch {
        reportFailure("Received \(event) instead of \(expected).", at: site)
      }
      let before = state
      accountForReceivedStart()
      shell.receiveParked()
      reportUnrouted(at: site)
      checkState(before: before, assert, after: "receiving \(event)", at: site)
      return
    }
  }
}

extension TestSystem where Event: Equatable {
  /// Receives the next event an effect sent, checks it is `event`, reduces it and checks the
  /// state change.
  ///
  /// It waits as ``receive(where:timeout:fileID:filePath:line:column:assert:)`` does.
  ///
  /// ```swift
  /// system.simulate(Search.Request.search("yee"), event: .loaded(["yeezy"]))
  /// await system.receive(.loaded(["yeezy"])) { $0.results = ["yeezy"] }
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event you expect.
  ///   - timeout: The failsafe for this wait; ``timeout`` when `nil`.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - assert: Changes the state before the step into the state you expect after it.
  public func receive(
    _ event: Event,
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive("\(event)", { $0 == event }, timeout: timeout, at: site, assert: assert)
  }
}

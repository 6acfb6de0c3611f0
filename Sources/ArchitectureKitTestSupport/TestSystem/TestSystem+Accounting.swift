import ArchitectureKit

/// Accounting for what happened: requests, failures and state changes.
extension TestSystem {
  /// What happened since the test last accounted for it.
  struct Ledger {
    var started: [EffectRequest] = []
    var cancelled: [EffectRequest] = []
    var failures: [(request: EffectRequest, error: ErrorType)] = []
    /// Events meant for a child the state does not hold: always a mistake in the test.
    var unrouted: [(event: Event, scope: String)] = []
  }

  /// Accounts for requests that started after the last step.
  ///
  /// Each expected value must equal (same type, `==`) the request of one effect that started;
  /// see ``ArchitectureKit/EffectRequest`` for what the request of each feedback form is. Name
  /// a child feature's scope when several children start equal requests:
  ///
  /// ```swift
  /// system.expectStarted("image", in: "rows[2]")
  /// ```
  ///
  /// - Parameters:
  ///   - requests: The requests you expect to have started, in any order.
  ///   - scope: The ``ArchitectureKit/EffectRequest/scope`` they must have (`""` for the
  ///     system's own feedback); `nil` accepts any.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func expectStarted(
    _ requests: any Equatable & Sendable...,
    in scope: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    // Effects that ran at once are accounted for here, or by receiving their events.
    let unmatched = requests.filter { request in
      guard let index = awaitingReceipt.firstIndex(where: { $0.matches(request, in: scope) }),
        !ledger.started.contains(where: { $0.matches(request, in: scope) })
      else { return true }
      awaitingReceipt.remove(at: index)
      return false
    }
    match(unmatched, in: scope, among: &ledger.started, kind: "started", at: site)
  }

  /// Accounts for requests whose running effects were cancelled after the last step.
  ///
  /// - Parameters:
  ///   - requests: The requests you expect to have been cancelled, in any order.
  ///   - scope: The ``ArchitectureKit/EffectRequest/scope`` they must have (`""` for the
  ///     system's own feedback); `nil` accepts any.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func expectCancelled(
    _ requests: any Equatable & Sendable...,
    in scope: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if effectMode == .automatic {
      // Expecting an effect's cancellation shows the test saw it start.
      for request in requests {
        if let index = awaitingReceipt.firstIndex(where: { $0.matches(request, in: scope) }) {
          awaitingReceipt.remove(at: index)
        } else if let index = ledger.started.firstIndex(where: { $0.matches(request, in: scope) }) {
          ledger.started.remove(at: index)
        }
      }
    }
    match(requests, in: scope, among: &ledger.cancelled, kind: "cancelled", at: site)
  }

  /// Accounts for an effect failure that no event was made of.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - matches: Whether a failure is the one you expect; the first match is removed.
  public func expectFailure(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    where matches: (ErrorType) -> Bool = { _ in true }
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = ledger.failures.firstIndex(where: { matches($0.error) }) else {
      let seen = ledger.failures.map { "\($0.error)" }
      reportFailure("Expected an effect failure; failures: \(seen).", at: site)
      return
    }
    ledger.failures.remove(at: index)
  }

  /// Records what the runtime reports, through the same observer path an app's observers use.
  func record(_ activity: SystemActivity<State, Event, ErrorType>) {
    guard !isFinished else { return }
    switch activity {
    case .effectStarted(let request): ledger.started.append(request)
    case .effectCancelled(let request): ledger.cancelled.append(request)
    case .effectFailed(let request, let error): ledger.failures.append((request, error))
    case .eventIgnored(let event, .missingChild(let scope)): ledger.unrouted.append((event, scope))
    case .step, .effectFinished, .eventIgnored: break
    }
  }

  func match(
    _ expected: [any Equatable & Sendable],
    in scope: String?,
    among actual: inout [EffectRequest],
    kind: String,
    at site: CallSite
  ) {
    for request in expected {
      if let index = actual.firstIndex(where: { $0.matches(request, in: scope) }) {
        actual.remove(at: index)
      } else {
        let named = scope.map { "\($0): \(request)" } ?? "\(request)"
        reportFailure(
          "Expected the request \(named) to have \(kind); \(kind): "
            + "\(actual.map(\.description))." + typeHint(for: request, among: actual),
          at: site
        )
      }
    }
  }

  /// Fails for what happened and was not accounted for (with ``Exhaustivity/on``), and reduces
  /// the events that wait to be received, as the app would have.
  func checkAccountedFor(
    before action: String,
    at site: CallSite,
    ignoringReceived: Bool = false
  ) {
    if effectMode == .automatic { carryStartsAwaitingReceipt() }
    if exhaustivity == .on {
      reportUnaccounted(before: action, at: site)
    }
    reportUnrouted(at: site)
    ledger = Ledger()
    guard !ignoringReceived, !shell.parked.isEmpty else { return }
    if exhaustivity == .on {
      reportFailure(
        "Events from effects were not received before \(action): "
          + "\(shell.parked.map { "\($0.event)" }). Assert them with receive(_:).",
        at: site
      )
    }
    while shell.receiveParked() != nil {}
    if exhaustivity == .off { ledger = Ledger() }
  }

  /// Fails for each event that was meant for a child the state does not hold, in any mode.
  func reportUnrouted(at site: CallSite) {
    for (event, scope) in ledger.unrouted {
      reportFailure(
        "\(event) was meant for the child at \(scope), which the state does not hold; "
          + "it was not reduced.",
        at: site)
    }
    ledger.unrouted.removeAll()
  }

  /// Moves the starts of effects that ran at once and may still send an event from the ledger
  /// to ``awaitingReceipt``, and puts back those that can no longer be received: their start
  /// must be expected (automatic effects only).
  private func carryStartsAwaitingReceipt() {
    let running = shell.core.runningRequests.map(\.request)
    ledger.started.append(contentsOf: awaitingReceipt)
    awaitingReceipt = []
    var started: [EffectRequest] = []
    for request in ledger.started {
      if running.contains(request) {
        awaitingReceipt.append(request)
      } else {
        started.append(request)
      }
    }
    ledger.started = started
  }

  /// Accounts for the start of the effect whose result is the next to be received (automatic
  /// effects only): receiving its event shows the test saw it.
  func accountForReceivedStart() {
    guard effectMode == .automatic, let id = shell.parked.first?.id,
      let request = shell.core.runningRequests.first(where: { $0.id == id })?.request
    else { return }
    if let index = awaitingReceipt.firstIndex(of: request) {
      awaitingReceipt.remove(at: index)
    } else if let index = ledger.started.firstIndex(of: request) {
      ledger.started.remove(at: index)
    }
  }

  private func reportUnaccounted(before action: String, at site: CallSite) {
    if !ledger.started.isEmpty {
      reportFailure(
        "Requests started but were not expected before \(action): "
          + "\(ledger.started.map(\.description)). Assert them with expectStarted(_:).",
        at: site
      )
    }
    if !ledger.cancelled.isEmpty {
      reportFailure(
        "Requests were cancelled but not expected before \(action): "
          + "\(ledger.cancelled.map(\.description)). Assert them with expectCancelled(_:).",
        at: site
      )
    }
    if !ledger.failures.isEmpty {
      reportFailure(
        "Effects failed and no event was made of it before \(action): "
          + "\(ledger.failures.map { "\($0.request): \($0.error)" }). "
          + "Assert them with expectFailure().",
        at: site
      )
    }
  }

  func checkState(
    before: State,
    _ assert: ((inout State) -> Void)?,
    after action: String,
    at site: CallSite
  ) {
    let actual = state
    var expected: State
    switch exhaustivity {
    case .on:
      expected = before
      assert?(&expected)
    case .off:
      expected = actual
      assert?(&expected)
    }
    guard expected != actual else { return }
    let difference =
      StateDump.diff(expected: expected, actual: actual) ?? "(the dumps are identical)"
    reportFailure(
      "The state after \(action) is not the expected one (− expected, + actual):\n\(difference)",
      at: site
    )
  }
}

/// A request that reads as `expected` does but is of another type, said in a failure: `"1"`
/// expected where the request is the `Int` `1` reads the same in the list of requests.
///
/// - Returns: The sentence to add to the failure, or `""`.
func typeHint(for expected: any Equatable & Sendable, among actual: [EffectRequest]) -> String {
  guard
    let lookalike = actual.first(where: {
      "\($0.value)" == "\(expected)" && type(of: $0.value) != type(of: expected)
    })
  else { return "" }
  return " The request \(String(reflecting: lookalike.value)) is of type "
    + "\(type(of: lookalike.value)), the expected \(String(reflecting: expected)) of type "
    + "\(type(of: expected)): a request matches only a value of its own type."
}

extension EffectRequest {
  /// Whether the request's value equals `value` and, when `scope` is given, it has that scope.
  func matches(_ value: any Equatable & Sendable, in scope: String?) -> Bool {
    isEqual(value, self.value) && (scope == nil || self.scope == scope)
  }
}

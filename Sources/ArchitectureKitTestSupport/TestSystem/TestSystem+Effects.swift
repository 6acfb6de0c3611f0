import ArchitectureKit

/// Driving effects: simulating their outcome, or running them for real.
extension TestSystem {
  /// Ends the running effect of `request` as if it had produced `event`, without running it.
  ///
  /// The event then waits to be received with
  /// ``receive(_:timeout:fileID:filePath:line:column:assert:)``, as the effect's own would.
  ///
  /// - Parameters:
  ///   - request: The request whose effect ends.
  ///   - event: The event the effect produces.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func simulate(
    _ request: some Equatable & Sendable,
    event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, at: site) else { return }
    shell.simulate(id, with: .event(event))
  }

  /// Ends the running effect of `request` as if it had failed, without running it.
  ///
  /// The failure is unhandled: account for it with
  /// ``expectFailure(fileID:filePath:line:column:where:)``.
  ///
  /// - Parameters:
  ///   - request: The request whose effect fails.
  ///   - failure: The error.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func simulate(
    _ request: some Equatable & Sendable,
    failure: ErrorType,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, at: site) else { return }
    shell.simulate(id, with: .failed(failure))
  }

  /// Runs the real effect of `request` against the test context.
  ///
  /// It starts in a task, exactly as in a ``ArchitectureKit/System``, and returns at once;
  /// receive what it sends with ``receive(_:timeout:fileID:filePath:line:column:assert:)``. It
  /// is cancelled when its request changes or vanishes.
  ///
  /// - Parameters:
  ///   - request: The request whose effect runs.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func run(
    _ request: some Equatable & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, at: site),
      let request = shell.core.runningRequests.first(where: { $0.id == id })?.request
    else { return }
    shell.runPending(id, request: request)
  }

  /// The newest effect of `request` that waits for the test to run or simulate it.
  func pendingEffect(for request: some Equatable & Sendable, at site: CallSite) -> EffectID? {
    let waiting = shell.core.runningRequests.filter { shell.pending[$0.id] != nil }
    if let match = waiting.last(where: { isEqual(request, $0.request.value) }) {
      return match.id
    }
    reportFailure(
      "No effect waits for the test with the request \(request); waiting: "
        + "\(waiting.map(\.request.description)).",
      at: site
    )
    return nil
  }
}

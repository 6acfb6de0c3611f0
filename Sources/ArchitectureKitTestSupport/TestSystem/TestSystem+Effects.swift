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
  ///   - scope: The ``ArchitectureKit/EffectRequest/scope`` of the request (`""` for the
  ///     system's own feedback); `nil` accepts any. Name it when several child features run
  ///     equal requests.
  ///   - event: The event the effect produces.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func simulate(
    _ request: some Equatable & Sendable,
    in scope: String? = nil,
    event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, in: scope, at: site) else { return }
    shell.simulate(id, with: .event(event))
  }

  /// Ends the running effect of `request` as if it had failed, without running it.
  ///
  /// The failure is unhandled: account for it with
  /// ``expectFailure(fileID:filePath:line:column:where:)``.
  ///
  /// - Parameters:
  ///   - request: The request whose effect fails.
  ///   - scope: The ``ArchitectureKit/EffectRequest/scope`` of the request (`""` for the
  ///     system's own feedback); `nil` accepts any. Name it when several child features run
  ///     equal requests.
  ///   - failure: The error.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func simulate(
    _ request: some Equatable & Sendable,
    in scope: String? = nil,
    failure: ErrorType,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, in: scope, at: site) else { return }
    shell.simulate(id, with: .failed(failure))
  }

  /// Runs the real effect of `request` against the test context.
  ///
  /// It starts in a task, exactly as in a ``ArchitectureKit/System``: the task runs on the main
  /// thread until the effect first suspends or ends, and this returns then. Each `send` of the
  /// effect waits until the test receives the event, so a stream suspends at its first one.
  /// Receive what it sends with ``receive(_:timeout:fileID:filePath:line:column:assert:)``. It
  /// is cancelled when its request changes or vanishes.
  ///
  /// - Parameters:
  ///   - request: The request whose effect runs.
  ///   - scope: The ``ArchitectureKit/EffectRequest/scope`` of the request (`""` for the
  ///     system's own feedback); `nil` accepts any. Name it when several child features run
  ///     equal requests.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func run(
    _ request: some Equatable & Sendable,
    in scope: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let id = pendingEffect(for: request, in: scope, at: site),
      let request = shell.core.runningRequests.first(where: { $0.id == id })?.request
    else { return }
    shell.runParked(id, request: request)
  }

  /// The newest effect of `request` that waits for the test to run or simulate it.
  func pendingEffect(
    for request: some Equatable & Sendable, in scope: String?, at site: CallSite
  ) -> EffectID? {
    let waiting = shell.core.runningRequests.filter { shell.isParked($0.id) }
    if let match = waiting.last(where: { $0.request.matches(request, in: scope) }) {
      return match.id
    }
    let named = scope.map { "\($0): \(request)" } ?? "\(request)"
    reportFailure(
      "No effect waits for the test with the request \(named); waiting: "
        + "\(waiting.map(\.request.description))."
        + typeHint(for: request, among: waiting.map(\.request)),
      at: site
    )
    return nil
  }
}

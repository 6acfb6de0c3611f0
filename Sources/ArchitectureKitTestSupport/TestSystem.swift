import FunctionalCore

/// A deterministic, exhaustive harness for a feature: the same reducer, feedback and context as
/// its ``ArchitectureKit/System``, driven step by step by the test.
///
/// Events are reduced only when the test sends or receives them, and effects run only when the
/// test says so: it either ``simulate(_:event:fileID:filePath:line:column:)`` an effect's
/// outcome, or ``run(_:fileID:filePath:line:column:)`` the real effect against the test context.
/// There is no real time, no timeout and no flakiness.
///
/// ```swift
/// @Test func addsToCart() async {
///   let system = TestSystem(
///     initialState: .productLoaded(product), context: .test,
///     reducer: PDP.reducer, feedback: PDP.feedback
///   )
///   system.send(.addToCart) { $0 = .addingToCart(product) }
///   system.expectStarted(PDP.Request.addToCart(product))
///   system.simulate(PDP.Request.addToCart(product), event: .addedToCart(response))
///   await system.receive(.addedToCart(response)) { $0 = .addedToCart(product, response) }
///   await system.finish()
/// }
/// ```
///
/// With ``Exhaustivity/on`` (the default) the test must account for everything: each state
/// change (a failure shows a line diff of expected and actual state), each event an effect sent
/// (``receive(_:fileID:filePath:line:column:assert:)``), each request that started or was
/// cancelled (``expectStarted(_:fileID:filePath:line:column:)``,
/// ``expectCancelled(_:fileID:filePath:line:column:)``), each unhandled effect failure
/// (``expectFailure(fileID:filePath:line:column:where:)``), and
/// ``finish(fileID:filePath:line:column:)`` fails while effects are still running. Failures are
/// reported to Swift Testing or XCTest, whichever runs the test, at the caller's line.
@MainActor
public final class TestSystem<
  State: Equatable, Event: Equatable & Sendable, ErrorType: Error, Context: Sendable
> {
  /// How strictly the test must account for what happened.
  public var exhaustivity: Exhaustivity

  private let core: SystemCore<State, Event, ErrorType, Context>
  private let context: Context
  private let clock: ManualClock?
  private var effects: [EffectID: TrackedEffect] = [:]
  private var received: [(event: Event, source: EffectID)] = []
  private var startedRequests: [EffectRequest] = []
  private var cancelledRequests: [EffectRequest] = []
  private var failures: [(request: EffectRequest, error: ErrorType)] = []
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private let inbox = Inbox<Event>()
  private var loopCallbacks: [(State) -> Void] = []

  private struct TrackedEffect {
    let request: EffectRequest
    let effect: Effect<Event, ErrorType, Context>
    var task: Task<Void, Never>?
    var hasEnded = false
  }

  /// Creates a harness from a pure reducer, as
  /// ``ArchitectureKit/System/pure(initialState:context:reducer:uiBindings:userActions:feedback:)``
  /// takes it.
  ///
  /// Requests present in the initial state start at once and must be asserted like any other.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The test dependencies that effects run with.
  ///   - reducer: The feature's reducer.
  ///   - feedback: The feature's feedback loops.
  ///   - clock: The manual clock in `context`, if any:
  ///     ``receive(_:fileID:filePath:line:column:assert:)`` and
  ///     ``finish(fileID:filePath:line:column:)`` then know that effects sleeping on it wait for
  ///     the test, not for work.
  ///   - exhaustivity: How strictly the test must account for what happened.
  public convenience init(
    initialState: State,
    context: Context,
    reducer: @escaping (consuming State, Event) -> State,
    feedback: [Feedback<State, Event, ErrorType, Context>] = [],
    clock: ManualClock? = nil,
    exhaustivity: Exhaustivity = .on
  ) {
    self.init(
      initialState: initialState,
      context: context,
      reduce: { state, event in state = reducer(consume state, event) },
      feedback: feedback,
      clock: clock,
      exhaustivity: exhaustivity
    )
  }

  /// Creates a harness from a reducer in mutating form, as
  /// ``ArchitectureKit/System/init(initialState:context:reduce:feedback:)`` takes it.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The test dependencies that effects run with.
  ///   - reduce: The feature's reducer, in mutating form.
  ///   - feedback: The feature's feedback loops.
  ///   - clock: The manual clock in `context`, if any.
  ///   - exhaustivity: How strictly the test must account for what happened.
  public init(
    initialState: State,
    context: Context,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, ErrorType, Context>] = [],
    clock: ManualClock? = nil,
    exhaustivity: Exhaustivity = .on
  ) {
    self.context = context
    self.clock = clock
    self.exhaustivity = exhaustivity
    self.core = SystemCore(initialState: initialState, reduce: reduce, feedback: feedback)
    core.completesKnownOutcomesInline = false
    inbox.receiver = { [weak self] event, id in self?.buffer(event, from: id) }
    clock?.onSleep { [weak self] in
      Task { @MainActor in self?.wakeWaiters() }
    }
    core.start { self.handle($0) }
  }

  /// The current state.
  public var state: State {
    core.state
  }

  /// The requests whose effects are running or waiting for the test to run or simulate them.
  public var runningRequests: [EffectRequest] {
    effects.sorted { $0.key.rawValue < $1.key.rawValue }.filter { !$0.value.hasEnded }
      .map(\.value.request)
  }

  /// Adds a callback that receives the state after every step, as
  /// ``ArchitectureKit/System/addLoopCallback(_:)`` does, so hooks such as analytics can be
  /// tested too.
  ///
  /// ```swift
  /// var screens: [String] = []
  /// system.addLoopCallback { screens.append(Analytics.name(of: $0)) }
  /// ```
  ///
  /// - Parameter callback: Receives each new state.
  public func addLoopCallback(_ callback: @escaping (State) -> Void) {
    loopCallbacks.append(callback)
  }

  /// Sends an event, as a user would, and checks the state change.
  ///
  /// ```swift
  /// system.send(.increment) { $0 = 1 }
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
  public func send(
    _ event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkAccountedFor(before: "sending \(event)", at: site)
    let before = core.state
    core.send(event) { handle($0) }
    checkState(before: before, assert, after: "sending \(event)", at: site)
  }

  /// Receives the next event an effect sent, checks it is `event`, reduces it and checks the
  /// state change.
  ///
  /// When no event is buffered yet, it waits for the effects started with
  /// ``run(_:fileID:filePath:line:column:)`` until one sends an event, or until all of them have
  /// ended or sleep on the manual clock; then it fails.
  ///
  /// - Parameters:
  ///   - event: The event you expect.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - assert: Changes the state before the step into the state you expect after it.
  public func receive(
    _ event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkAccountedFor(before: "receiving \(event)", at: site, ignoringReceived: true)
    while true {
      await waitUntil { !received.isEmpty }
      guard !received.isEmpty else {
        reportFailure("Expected to receive \(event), but no effect sent an event.", at: site)
        return
      }
      let next = received.removeFirst()
      if next.event != event {
        if exhaustivity == .off { continue }
        reportFailure("Received \(next.event) instead of \(event).", at: site)
      }
      let before = core.state
      core.deliver(next.event, from: next.source) { handle($0) }
      checkState(before: before, assert, after: "receiving \(event)", at: site)
      return
    }
  }

  /// Accounts for requests that started after the last step.
  ///
  /// Each expected value must equal (same type, `==`) the request of one effect that started;
  /// see ``ArchitectureKit/EffectRequest`` for what the request of each feedback form is.
  ///
  /// - Parameters:
  ///   - requests: The requests you expect to have started, in any order.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func expectStarted(
    _ requests: any Equatable & Sendable...,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    match(requests, in: &startedRequests, kind: "started", at: site)
  }

  /// Accounts for requests whose running effects were cancelled after the last step.
  ///
  /// - Parameters:
  ///   - requests: The requests you expect to have been cancelled, in any order.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func expectCancelled(
    _ requests: any Equatable & Sendable...,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    match(requests, in: &cancelledRequests, kind: "cancelled", at: site)
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
    guard let index = failures.firstIndex(where: { matches($0.error) }) else {
      let seen = failures.map { "\($0.error)" }
      reportFailure("Expected an effect failure; failures: \(seen).", at: site)
      return
    }
    failures.remove(at: index)
  }

  /// Ends the running effect of `request` as if it had produced `event`, without running it.
  ///
  /// The event is then waiting to be received with
  /// ``receive(_:fileID:filePath:line:column:assert:)``.
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
    end(id, with: .event(event))
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
    end(id, with: .failed(failure))
  }

  /// Runs the real effect of `request` against the test context.
  ///
  /// It starts in a task and returns at once; receive what it sends with
  /// ``receive(_:fileID:filePath:line:column:assert:)``. It is cancelled, as in a
  /// ``ArchitectureKit/System``, when its request changes or vanishes.
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
    guard let id = pendingEffect(for: request, at: site), let tracked = effects[id] else { return }
    let context = self.context
    let inbox = self.inbox
    let send = Send<Event> { event in await inbox.deliver(event, id) }
    effects[id]?.task = Task { [weak self] in
      let outcome = await tracked.effect.run(with: context, send: send)
      self?.end(id, with: outcome)
    }
  }

  /// Waits until every effect started with ``run(_:fileID:filePath:line:column:)`` has ended or
  /// sleeps on the manual clock.
  ///
  /// Use it before asserting what such effects did without sending an event, such as a failure.
  public func settle() async {
    await waitUntil { false }
  }

  /// Waits for the effects that run, then fails for anything the test did not account for.
  ///
  /// With ``Exhaustivity/on``, it fails for events not received, requests and failures not
  /// expected, and effects still running (which it then cancels).
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    await waitUntil { false }
    checkAccountedFor(before: "finishing", at: site)
    let running = runningRequests
    if exhaustivity == .on, !running.isEmpty {
      reportFailure(
        "Effects are still running at the end of the test: \(running.map(\.description)). "
          + "Simulate or run them to their end, or change the state so their requests vanish.",
        at: site
      )
    }
    core.stop { _ in }
    for tracked in effects.values { tracked.task?.cancel() }
    effects.removeAll()
  }

  // MARK: Internals

  private func handle(_ output: CoreOutput<State, Event, ErrorType, Context>) {
    switch output {
    case .stepped:
      for callback in loopCallbacks { callback(core.state) }
    case .effectFinished, .eventIgnored:
      break
    case .effectStarted(let id, let request, let effect):
      guard let effect else { return }
      effects[id] = TrackedEffect(request: request, effect: effect)
      startedRequests.append(request)
    case .effectCancelled(let id, let request):
      effects.removeValue(forKey: id)?.task?.cancel()
      received.removeAll { $0.source == id }
      cancelledRequests.append(request)
    case .effectFailed(_, let request, let error):
      failures.append((request, error))
    }
  }

  private func buffer(_ event: Event, from id: EffectID) {
    guard core.isLive(id) else { return }
    received.append((event, id))
    wakeWaiters()
  }

  private func end(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    guard effects[id] != nil, core.isLive(id) else { return }
    effects[id]?.hasEnded = true
    effects[id]?.task = nil
    switch outcome {
    case .event(let event):
      core.finish(id, with: .finished) { handle($0) }
      received.append((event, id))
    case .finished, .failed, .cancelled:
      core.finish(id, with: outcome) { handle($0) }
    }
    wakeWaiters()
  }

  private func pendingEffect(for request: some Equatable & Sendable, at site: CallSite)
    -> EffectID?
  {
    let candidates = effects.filter { !$0.value.hasEnded && $0.value.task == nil }
    if let match = candidates.sorted(by: { $0.key.rawValue > $1.key.rawValue })
      .first(where: { $0.value.request.hasValue(request) })
    {
      return match.key
    }
    reportFailure(
      "No effect waits for the test with the request \(request); waiting: "
        + "\(candidates.values.map(\.request.description)).",
      at: site
    )
    return nil
  }

  /// Whether no launched effect can make progress without the test.
  private var isQuiescent: Bool {
    let working = effects.values.filter { $0.task != nil }.count
    return working == 0 || working <= (clock?.sleeperCount ?? 0)
  }

  /// Waits until `condition` holds or no running effect can make progress without the test.
  private func waitUntil(_ condition: () -> Bool) async {
    while !condition(), !isQuiescent {
      await withCheckedContinuation { waiters.append($0) }
    }
  }

  private func wakeWaiters() {
    let waiting = waiters
    waiters = []
    for waiter in waiting { waiter.resume() }
  }

  private func match(
    _ expected: [any Equatable & Sendable],
    in actual: inout [EffectRequest],
    kind: String,
    at site: CallSite
  ) {
    for request in expected {
      if let index = actual.firstIndex(where: { isEqual(request, $0.value) }) {
        actual.remove(at: index)
      } else {
        reportFailure(
          "Expected the request \(request) to have \(kind); \(kind): "
            + "\(actual.map(\.description)).",
          at: site
        )
      }
    }
  }

  private func checkAccountedFor(
    before action: String,
    at site: CallSite,
    ignoringReceived: Bool = false
  ) {
    guard exhaustivity == .on else {
      startedRequests.removeAll()
      cancelledRequests.removeAll()
      failures.removeAll()
      return
    }
    if !ignoringReceived, !received.isEmpty {
      reportFailure(
        "Events from effects were not received before \(action): "
          + "\(received.map { "\($0.event)" }). Assert them with receive(_:).",
        at: site
      )
      received.removeAll()
    }
    if !startedRequests.isEmpty {
      reportFailure(
        "Requests started but were not expected before \(action): "
          + "\(startedRequests.map(\.description)). Assert them with expectStarted(_:).",
        at: site
      )
      startedRequests.removeAll()
    }
    if !cancelledRequests.isEmpty {
      reportFailure(
        "Requests were cancelled but not expected before \(action): "
          + "\(cancelledRequests.map(\.description)). Assert them with expectCancelled(_:).",
        at: site
      )
      cancelledRequests.removeAll()
    }
    if !failures.isEmpty {
      reportFailure(
        "Effects failed and no event was made of it before \(action): "
          + "\(failures.map { "\($0.request): \($0.error)" }). Assert them with expectFailure().",
        at: site
      )
      failures.removeAll()
    }
  }

  private func checkState(
    before: State,
    _ assert: ((inout State) -> Void)?,
    after action: String,
    at site: CallSite
  ) {
    let actual = core.state
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
    let difference = diff(expected: expected, actual: actual) ?? "(the dumps are identical)"
    reportFailure(
      "The state after \(action) is not the expected one (− expected, + actual):\n\(difference)",
      at: site
    )
  }
}

/// Carries events from running effects to their harness; it is generic over the event type only,
/// so the `@Sendable` sender does not capture the state's metatype.
@MainActor
private final class Inbox<Event: Sendable> {
  var receiver: ((Event, EffectID) -> Void)?

  func deliver(_ event: Event, _ id: EffectID) {
    receiver?(event, id)
  }
}

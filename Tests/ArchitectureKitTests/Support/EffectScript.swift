import ArchitectureKit
import FunctionalCore
import TestDoubles

/// The effects of the runtime drivers: every run parks in the script until the test tells it
/// to send an event or to end, so effect completion is deterministic without sleeping.
///
/// An effect's body does not know which run (``Token``) it is; the script maps runs to bodies
/// when the test first addresses one. The live run of a request is the body whose task was not
/// cancelled; a stale (cancelled) run is any cancelled body of that request, which the runtime
/// must treat alike. A body ignores its cancellation, as work already under way on another
/// thread does, so the runtime alone must drop what it sends afterwards.
///
/// A body that waits for a command waits for the test: it tells its job's ``WorkUnit`` so, as
/// an effect asleep on a manual clock does. A harness's failsafe then never mistakes it for
/// work under way, and keeps waiting for a result that is only slow to reach a busy main actor.
final class EffectScript: Sendable {
  enum Command: Sendable {
    case send(PropertyEvent)
    case end(EffectOutcome<PropertyEvent, CounterError>)
  }

  private struct Body {
    let request: RequestID
    /// Set once the body watches its task's cancellation: from then on `isCancelled` is exact.
    var isReady = false
    var isCancelled = false
    var hasExited = false
    var token: Token?
    /// The body's share of its job, while it runs as an effect's root task.
    var unit: WorkUnit?
    var commands: [Command] = []
    var waiter: CheckedContinuation<Command, Never>?
  }

  private struct Contents {
    var bodies: [Int: Body] = [:]
    var lastID = 0
    var isClosed = false
  }

  private let contents = Lock(Contents())
  /// Bumped after every change the test may wait for: a body ready, cancelled or exited.
  private let changes = Tally()

  // MARK: Effect side

  /// A `run` effect's body.
  func single(_ request: RequestID) async throws(CounterError) -> PropertyEvent {
    switch await play(request, send: nil) {
    case .event(let event): return event
    case .failed(let error): throw error
    case .finished, .cancelled: throw .generic
    }
  }

  /// The body of a child's or a screen's `run` effect: the script plays the parent's events,
  /// so the result comes embedded and `extract` takes it out.
  func single<Event>(
    _ request: RequestID,
    embedded extract: (PropertyEvent) -> Event?
  ) async throws(CounterError) -> Event {
    guard let event = extract(try await single(request)) else { throw .generic }
    return event
  }

  /// A stream effect's body.
  func stream(_ request: RequestID, send: Send<PropertyEvent>) async throws(CounterError) {
    switch await play(request, send: send) {
    case .failed(let error): throw error
    case .event, .finished, .cancelled: return
    }
  }

  /// An `AsyncResult` effect, which can also give up as if it were cancelled.
  func deferred(_ request: RequestID) -> AsyncResult<EmptyContext, PropertyEvent, CounterError> {
    AsyncResult { _ throws(CancellationError) in
      switch await self.play(request, send: nil) {
      case .event(let event): return .success(event)
      case .failed(let error): return .failure(error)
      case .finished, .cancelled: throw CancellationError()
      }
    }
  }

  private func play(
    _ request: RequestID,
    send: Send<PropertyEvent>?
  ) async -> EffectOutcome<PropertyEvent, CounterError> {
    let unit = WorkUnit.currentOwned
    let id = contents.withLock { contents in
      contents.lastID += 1
      contents.bodies[contents.lastID] = Body(request: request, unit: unit)
      return contents.lastID
    }
    return await withTaskCancellationHandler {
      update(id) { $0.isReady = true }
      while true {
        switch await nextCommand(for: id) {
        case .send(let event):
          await send?(event)
        case .end(let outcome):
          update(id) { $0.hasExited = true }
          return outcome
        }
      }
    } onCancel: {
      update(id) { $0.isCancelled = true }
    }
  }

  private func update(_ id: Int, _ change: (inout Body) -> Void) {
    contents.withLock { contents in
      if var body = contents.bodies[id] {
        change(&body)
        contents.bodies[id] = body
      }
    }
    changes.increment()
  }

  private func nextCommand(for id: Int) async -> Command {
    await withCheckedContinuation { continuation in
      let command = contents.withLock { contents -> Command? in
        guard var body = contents.bodies[id] else { return .end(.failed(.generic)) }
        defer { contents.bodies[id] = body }
        if !body.commands.isEmpty { return body.commands.removeFirst() }
        if contents.isClosed { return .end(.failed(.generic)) }
        body.waiter = continuation
        // From now on the body waits for the test.
        body.unit?.suspend()
        return nil
      }
      if let command { continuation.resume(returning: command) }
    }
  }

  // MARK: Test side

  /// Hands `command` to the body of `token`'s run, waiting for it to be ready.
  ///
  /// - Returns: `false` when no such body came before the failsafe.
  func command(_ token: Token, isLive: Bool, _ command: Command) async -> Bool {
    await waitWithFailsafe { contents in
      guard let id = Self.body(of: token, isLive: isLive, in: &contents),
        var body = contents.bodies[id]
      else { return nil }
      defer { contents.bodies[id] = body }
      if let waiter = body.waiter {
        body.waiter = nil
        let unit = body.unit
        // Working again before it runs, so the job never looks idle in between.
        return {
          unit?.resume()
          waiter.resume(returning: command)
        }
      }
      body.commands.append(command)
      return {}
    }
  }

  /// Waits until the body of `token`'s run returned.
  func waitForExit(of token: Token) async -> Bool {
    await waitUntil { contents in
      contents.bodies.values.contains { $0.token == token && $0.hasExited }
    }
  }

  /// Waits until `count` bodies watch their cancellation.
  func waitUntilReady(count: Int) async -> Bool {
    await waitUntil { contents in contents.bodies.values.count(where: \.isReady) >= count }
  }

  /// Ends every body, now and when it starts, and waits for `count` bodies to return.
  func close(waitingFor count: Int) async -> Bool {
    let waiters = contents.withLock { contents in
      contents.isClosed = true
      var waiters: [(CheckedContinuation<Command, Never>, WorkUnit?)] = []
      for (id, body) in contents.bodies {
        guard let waiter = body.waiter else { continue }
        waiters.append((waiter, body.unit))
        contents.bodies[id]?.waiter = nil
      }
      return waiters
    }
    for (waiter, unit) in waiters {
      unit?.resume()
      waiter.resume(returning: .end(.failed(.generic)))
    }
    return await waitUntil { contents in
      contents.bodies.values.count(where: \.hasExited) >= count
    }
  }

  /// The requests whose body is ready, not cancelled and not returned: what the effects see
  /// running.
  var runningRequests: [RequestID] {
    contents.withLock { contents in
      contents.bodies.values.filter { $0.isReady && !$0.isCancelled && !$0.hasExited }
        .map(\.request).sorted()
    }
  }

  /// The body a run's commands go to, assigning one if the run has none yet.
  private static func body(of token: Token, isLive: Bool, in contents: inout Contents) -> Int? {
    if let id = contents.bodies.first(where: { $0.value.token == token })?.key { return id }
    let candidates = contents.bodies.filter { _, body in
      body.isReady && body.token == nil && body.request == token.request
        && body.isCancelled == !isLive
    }
    guard let id = candidates.keys.min() else { return nil }
    contents.bodies[id]?.token = token
    return id
  }

  /// Waits until `isMet` holds, or the failsafe passes.
  private func waitUntil(_ isMet: @escaping @Sendable (Contents) -> Bool) async -> Bool {
    await waitWithFailsafe { contents -> (@Sendable () -> Void)? in
      guard isMet(contents) else { return nil }
      return {}
    }
  }

  /// Waits until `attempt` returns an action (run outside the lock), or the failsafe passes.
  private func waitWithFailsafe(
    _ attempt: @escaping @Sendable (inout Contents) -> (@Sendable () -> Void)?
  ) async -> Bool {
    while true {
      let seen = changes.value
      if let action = contents.withLock({ attempt(&$0) }) {
        action()
        return true
      }
      let changes = self.changes
      let changed = await failsafe(
        until: { changes.value > seen }, wait: { await changes.wait(untilAtLeast: seen + 1) })
      guard changed else { return false }
    }
  }
}

/// The trigger of an observer that stops its system on a chosen kind of activity, once.
final class StopHook: Sendable {
  private let trigger = Lock<StopTrigger?>(nil)

  func arm(_ trigger: StopTrigger) {
    self.trigger.withLock { $0 = trigger }
  }

  /// Whether the system must stop after `activity`; disarms the hook when it does.
  func shouldStop(after activity: RecordedActivity) -> Bool {
    trigger.withLock { trigger in
      guard let armed = trigger, armed.matches(activity) else { return false }
      trigger = nil
      return true
    }
  }
}

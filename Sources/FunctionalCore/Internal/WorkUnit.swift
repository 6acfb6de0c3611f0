/// One task's share of a job in a ``WorkGroup``, bound to the task that runs it.
///
/// A runtime runs each effect's root task with a unit as ``current``. Code that makes the task
/// wait for a test (a manual clock's sleep, an event parked until the test receives it) takes
/// the unit with ``currentOwned``, calls ``suspend()`` once the wait is registered, and whoever
/// ends the wait calls ``resume()`` *before* resuming the task, so the job never looks idle
/// while it is about to run.
///
/// Only the task that owns the unit may suspend it. Child tasks inherit task-local values, so
/// without that check a child sleeping on the clock while its parent still works would make the
/// job look idle. A task the runtime does not know about therefore always counts as working:
/// an unknown shape errs on the side of waiting, which a failsafe timeout then reports, never
/// on the side of giving up early. Concurrent combinators of this module hand their children
/// units of their own with ``spawnChildren(_:)`` and ``awaitChild(_:)``.
@usableFromInline
package final class WorkUnit: Sendable {
  /// The unit of the running task, if a runtime tracks it.
  @TaskLocal package static var current: WorkUnit?

  package let group: WorkGroup
  private let key: UInt64
  private let owner: Int?

  private init(group: WorkGroup, key: UInt64, owner: Int?) {
    self.group = group
    self.key = key
    self.owner = owner
  }

  /// Runs `body` as the root task of a job that ``WorkGroup/begin(_:label:)`` started.
  ///
  /// - Parameters:
  ///   - group: The job's group.
  ///   - key: The job's key in the group.
  ///   - body: The job's work, run in the current task.
  /// - Returns: What `body` returns.
  @usableFromInline
  package static func run<Value>(
    in group: WorkGroup,
    key: UInt64,
    _ body: () async -> Value
  ) async -> Value {
    let unit = WorkUnit(group: group, key: key, owner: currentTaskIdentity())
    return await $current.withValue(unit, operation: body)
  }

  /// Whether the current task is the root task of job `key` of `group`.
  ///
  /// - Parameters:
  ///   - group: The job's group.
  ///   - key: The job's key in the group.
  /// - Returns: `true` when the current task owns the job's unit.
  package static func isRunningRoot(of group: WorkGroup, key: UInt64) -> Bool {
    guard let unit = currentOwned else { return false }
    return unit.group === group && unit.key == key
  }

  /// The current task's unit, when the current task owns it.
  @usableFromInline
  package static var currentOwned: WorkUnit? {
    guard let unit = current, let owner = unit.owner, owner == currentTaskIdentity() else {
      return nil
    }
    return unit
  }

  /// The task stops counting as working: it waits for the test.
  package func suspend() {
    group.adjust(key, by: -1)
  }

  /// The task counts as working again; call it before resuming the task.
  package func resume() {
    group.adjust(key, by: 1)
  }

  /// The task waits for the outside world (a callback): something may still come, but the task
  /// is on its way to no sleep.
  package func beginExternalWait() {
    group.adjust(key, by: -1, external: 1)
  }

  /// The outside world answered; call it before resuming the task.
  package func endExternalWait() {
    group.adjust(key, by: 1, external: -1)
  }

  /// Reserves units for `count` child tasks the current task is about to start.
  ///
  /// The children count as working from now on. When the current task is not tracked, the children
  /// are not either.
  package static func spawnChildren(_ count: Int) -> ChildUnits {
    guard let unit = currentOwned else { return ChildUnits(group: nil, key: 0) }
    unit.group.adjust(unit.key, by: count)
    return ChildUnits(group: unit.group, key: unit.key)
  }

  /// Waits for one child while not counting as working; the child that ends hands its share
  /// back to this task, so the job never looks idle between the two.
  ///
  /// - Parameter next: Waits for one child; returns `nil` when there was none to wait for.
  /// - Returns: What `next` returns.
  package static func awaitChild<Value>(_ next: () async -> Value?) async -> Value? {
    guard let unit = currentOwned else { return await next() }
    unit.suspend()
    let value = await next()
    if value == nil { unit.resume() }
    return value
  }

  /// The shares reserved for the children of one tracked task.
  package struct ChildUnits: Sendable {
    let group: WorkGroup?
    let key: UInt64

    /// Runs `body` as one child, in the child's task.
    ///
    /// When it returns, its share passes to the parent waiting in ``WorkUnit/awaitChild(_:)``.
    package func run<Value>(_ body: () async -> Value) async -> Value {
      guard let group else { return await body() }
      let unit = WorkUnit(group: group, key: key, owner: currentTaskIdentity())
      return await WorkUnit.$current.withValue(unit, operation: body)
    }

    /// Gives up the shares of `count` children the parent no longer waits for (they were
    /// cancelled, or a timeout left them behind).
    package func abandon(_ count: Int = 1) {
      guard count > 0 else { return }
      group?.adjust(key, by: -count)
    }
  }
}

/// Identifies the running task while it lives.
private func currentTaskIdentity() -> Int? {
  withUnsafeCurrentTask { $0?.hashValue }
}

/// Starts an unstructured task where the current task's work runs: on the executor of a test
/// harness, when the current task is an effect the harness runs there (see ``JobDrainer``), and
/// on the global concurrent executor otherwise.
///
/// A child task inherits the executor on its own; an unstructured task does not. The few
/// unstructured tasks of this module (a timeout's racers, a run shielded from cancellation) are
/// work of the effect that starts them, so a harness must see them as it sees children.
///
/// - Parameter operation: The task's work.
/// - Returns: The task.
package func startTask<Success: Sendable>(
  _ operation: @escaping @Sendable @concurrent () async -> Success
) -> Task<Success, Never> {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
    let executor = WorkUnit.current?.group.drainer as? any TaskExecutor
  {
    return Task(executorPreference: executor, operation: operation)
  }
  return Task(operation: operation)
}

/// The way back from an effect's task to the runtime that started it.
///
/// An effect runs off its system's isolation (a ``System``'s effect once it first suspended);
/// everything it reports from then on (an event it sends, how it ended) hops back through the
/// port to the system's actor — the main actor for ``System``, the system itself for
/// ``BackgroundSystem`` — so ``System`` and ``BackgroundSystem`` share one launch and delivery
/// path. (What a ``System``'s effect reports before, its launch hands over itself: see
/// ``EffectHandoff``.) A running effect never keeps its system alive, and a result that arrives
/// after the system is gone is dropped.
///
/// The port holds no weak reference to the shell or the main actor (see PerformanceLedger: no
/// weak references on the way back). It reaches the shell without owning it, through the
/// system's ``TaskBag``: every owner of a shell detaches the bag in its `deinit`, before it
/// releases the shell, and the port takes its strong reference under the bag's lock only while
/// the bag is attached. An actor that owns its runtime is held weakly (its own `deinit` detaches
/// the bag only after its last reference is gone, too late to take a new one safely); the main
/// actor is held strongly.
///
/// - Invariant: `shell` and the actor are written once, on the runtime's isolation, before any
///   effect can run, and `shell` is used only inside ``withShell(_:)`` while isolated to that
///   actor, which is the only isolation the shell is ever used from. That is what makes
///   `@unchecked Sendable` sound; the thread-sanitizer run of the suite (stress, storm and leak
///   tests) checks it.
@usableFromInline
package final class RuntimePort<State, Event: Sendable, ErrorType: Error, Context: Sendable>:
  @unchecked Sendable
{
  @usableFromInline package typealias Shell = RuntimeShell<State, Event, ErrorType, Context>

  /// The runtime; valid while `tasks` is attached (see the type's discussion).
  @usableFromInline unowned(unsafe) var shell: Shell?
  /// The main actor, when the runtime lives there (never released, so held strongly).
  @usableFromInline let mainActor: MainActor?
  /// The actor that owns the runtime, otherwise.
  @usableFromInline weak var actor: (any Actor)?
  /// The runtime's tasks; detached by the runtime's owner before the runtime goes away.
  @usableFromInline let tasks: TaskBag
  /// The runtime's effects at work; a result on its way back is not work of its own.
  @usableFromInline let work: WorkGroup

  @usableFromInline
  init(isolation: (any Actor)?, tasks: TaskBag, work: WorkGroup) {
    self.mainActor = isolation as? MainActor
    self.actor = mainActor == nil ? isolation : nil
    self.tasks = tasks
    self.work = work
  }

  /// Sets the actor results hop back to, for an actor that owns its runtime; call it before any
  /// effect starts.
  @usableFromInline
  package func bind(to isolation: any Actor) {
    self.actor = isolation
  }

  /// Runs `body` with the runtime, on its isolation; does nothing when the system is gone.
  ///
  /// Inlinable, with ``finish(_:with:)`` and the launch of effects, so that a result reaches the
  /// core through code specialized for the system's types (see PerformanceLedger:
  /// specialization).
  @inlinable
  package func withShell<Value: Sendable>(
    _ body: @escaping @Sendable (Shell) -> Value?
  ) async -> Value? {
    guard let isolation = mainActor ?? actor else { return nil }
    return await perform(on: isolation) {
      self.tasks.whileAttached { self.shell }.flatMap { $0.flatMap(body) }
    }
  }

  /// Hands an event sent by a running effect to its system, and waits while the system holds it
  /// (a test harness holds it until the test receives it).
  @usableFromInline
  func deliver(_ event: Event, from id: EffectID) async {
    let unit = WorkUnit.currentOwned
    work.beginHop(id.rawValue)
    let resumption = await withShell { $0.deliver(event, from: id, unit: unit) }
    work.endHop(id.rawValue)
    await resumption?.wait()
  }

  /// Reports how an effect ended to its system, and ends its job in the work group.
  ///
  /// The job ends on the system's isolation, after the outcome was handled, so the task has
  /// nothing left to do when it leaves: it ends there, rather than hopping back off the
  /// system's actor to a thread of its own only to end.
  @inlinable
  func finish(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) async {
    let work = self.work
    work.beginHop(id.rawValue)
    let handled = await withShell { shell -> Bool? in
      shell.finishTask(id, with: outcome)
      work.end(id.rawValue)
      return true
    }
    if handled == nil { work.end(id.rawValue) }
  }
}

/// Runs `body` isolated to `actor`.
@usableFromInline
func perform<Value: Sendable>(
  on actor: isolated any Actor,
  _ body: @Sendable () -> Value?
) -> Value? {
  body()
}

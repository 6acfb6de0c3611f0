/// The way back from an effect's task to the runtime that started it.
///
/// An effect runs off its system's isolation; everything it reports (an event it sends, how it
/// ended) hops back through the port to the system's actor — the main actor for ``System``, the
/// system itself for ``BackgroundSystem`` — so ``System`` and ``BackgroundSystem`` share one
/// launch and delivery path. The port holds the runtime and the actor weakly: a running effect
/// never keeps its system alive, and a result that arrives after the system is gone is dropped.
///
/// - Invariant: `shell` and `isolation` are written once, on the runtime's isolation, before any
///   effect can run,
///   and `shell` is dereferenced only inside ``withShell(_:)`` while isolated to `isolation`, which is
///   the only isolation the shell is ever used from. That is what makes `@unchecked Sendable`
///   sound; the thread-sanitizer run of the suite (stress, storm and leak tests) checks it.
package final class RuntimePort<State, Event: Sendable, ErrorType: Error, Context: Sendable>:
  @unchecked Sendable
{
  package typealias Shell = RuntimeShell<State, Event, ErrorType, Context>

  weak var shell: Shell?
  private weak var isolation: (any Actor)?
  /// The runtime's effects at work; a result on its way back is not work of its own.
  private let work: WorkGroup

  init(isolation: (any Actor)?, work: WorkGroup) {
    self.isolation = isolation
    self.work = work
  }

  /// Sets the actor results hop back to, for an actor that owns its runtime; call it before any
  /// effect starts.
  package func bind(to isolation: any Actor) {
    self.isolation = isolation
  }

  /// Runs `body` with the runtime, on its isolation; does nothing when the system is gone.
  package func withShell<Value: Sendable>(
    _ body: @escaping @Sendable (Shell) -> Value?
  ) async -> Value? {
    guard let isolation else { return nil }
    return await perform(on: isolation) { self.shell.flatMap(body) }
  }

  /// Hands an event sent by a running effect to its system, and waits while the system holds it
  /// (a test harness holds it until the test receives it).
  func deliver(_ event: Event, from id: EffectID) async {
    let unit = WorkUnit.currentOwned
    work.beginHop(id.rawValue)
    let resumption = await withShell { $0.effectSent(event, from: id, unit: unit) }
    work.endHop(id.rawValue)
    await resumption?.wait()
  }

  /// Reports how an effect ended to its system.
  func finish(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) async {
    work.beginHop(id.rawValue)
    _ = await withShell { shell -> Bool? in
      shell.effectEnded(id, with: outcome)
      return nil
    }
    work.endHop(id.rawValue)
  }
}

/// Runs `body` isolated to `actor`.
private func perform<Value: Sendable>(
  on actor: isolated any Actor,
  _ body: @Sendable () -> Value?
) -> Value? {
  body()
}

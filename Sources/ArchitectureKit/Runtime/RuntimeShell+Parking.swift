import FunctionalCore

/// Test parking: under a test harness (`TestSystem`), a started effect waits for the test to
/// run it, and what an effect sends or ends with waits for the test to receive it. Nothing else
/// differs, so a test exercises exactly what the app runs; an app's shell has no
/// ``RuntimeShell/parking``, and its path tests that one optional.
extension RuntimeShell {
  /// What a test harness's shell parks, and how it runs effect tasks.
  @usableFromInline
  package final class Parking {
    /// Whether each effect runs as it starts, as an app's does, rather than waiting for the test
    /// to run it; what the effect sends is parked all the same.
    @usableFromInline let runsEffectsAtOnce: Bool
    /// The executor the harness runs every effect task on (a `TaskExecutor`), if any; see
    /// `TestExecutor` in the test-support module.
    @usableFromInline let executor: (any JobDrainer)?
    /// Effects that started and wait for the test to run them.
    var effects: [EffectID: Effect] = [:]
    /// Results that wait for the test to receive them, in arrival order.
    var results: [ParkedResult] = []

    /// Creates a harness's parking.
    ///
    /// - Parameters:
    ///   - runsEffectsAtOnce: Whether effects run as they start instead of waiting for the test.
    ///   - executor: The executor every effect task runs on, if any.
    package init(runsEffectsAtOnce: Bool, executor: (any JobDrainer)?) {
      self.runsEffectsAtOnce = runsEffectsAtOnce
      self.executor = executor
    }

    /// Forgets what a cancelled effect left parked; a sender waiting for the test goes on.
    func forget(_ id: EffectID) {
      effects[id] = nil
      results.removeAll { result in
        guard result.id == id else { return false }
        result.release()
        return true
      }
    }

    /// Forgets everything parked, as the system stops; every waiting sender goes on.
    func removeAll() {
      for result in results { result.release() }
      results.removeAll()
      effects.removeAll()
    }
  }

  /// A result of an effect, held until the test receives it.
  @usableFromInline
  package struct ParkedResult {
    /// The effect that produced it.
    package let id: EffectID
    /// What it carries.
    package let content: Content

    /// What a parked result carries.
    package enum Content {
      /// The effect ended with this event.
      case outcome(Event)
      /// A running effect sent this event; its sender waits until it is received.
      case sent(Event, Resumption, WorkUnit?)
    }

    /// The event the test receives.
    package var event: Event {
      switch content {
      case .outcome(let event), .sent(let event, _, _): event
      }
    }

    /// Lets the sender of a parked event go on, when there is one.
    func release() {
      if case .sent(_, let resumption, _) = content { resumption.open() }
    }
  }

  // MARK: What the harness reads and does

  /// The results that wait for the test to receive them, oldest first.
  package var parked: [ParkedResult] {
    parking?.results ?? []
  }

  /// Whether the effect waits for the test to run it.
  package func isParked(_ id: EffectID) -> Bool {
    parking?.effects[id] != nil
  }

  /// Runs an effect that waits for the test.
  package func runParked(_ id: EffectID, request: EffectRequest) {
    guard let effect = parking?.effects.removeValue(forKey: id) else { return }
    run(effect, id: id, request: request)
  }

  /// Ends a parked effect as if it had produced `outcome`, without running it.
  package func simulate(_ id: EffectID, with outcome: EffectOutcome<Event, ErrorType>) {
    guard parking?.effects.removeValue(forKey: id) != nil else { return }
    finish(id, with: outcome)
  }

  /// Reduces the oldest parked result, as the app would have when it arrived.
  ///
  /// - Returns: The event, or `nil` when nothing is parked.
  @discardableResult
  package func receiveParked() -> Event? {
    guard let parking, !parking.results.isEmpty else { return nil }
    let result = parking.results.removeFirst()
    switch result.content {
    case .outcome(let event):
      core.finish(result.id, with: .event(event), runtime: self)
    case .sent(let event, let resumption, let unit):
      core.deliver(event, from: result.id, runtime: self)
      unit?.resume()
      resumption.open()
    }
    return result.event
  }

  // MARK: What the effect path parks

  /// Keeps a started effect until the test runs it.
  @usableFromInline
  func park(_ effect: Effect, id: EffectID, in parking: Parking) {
    parking.effects[id] = effect
  }

  /// Holds the event a running effect ended with until the test receives it; returns whether
  /// it did.
  @usableFromInline
  func park(
    _ outcome: EffectOutcome<Event, ErrorType>, of id: EffectID, in parking: Parking
  ) -> Bool {
    guard case .event(let event) = outcome, core.isRunning(id) else { return false }
    parking.results.append(ParkedResult(id: id, content: .outcome(event)))
    work.signal()
    return true
  }

  /// Holds an event a running effect sent until the test receives it; returns what the sender
  /// waits for meanwhile.
  func park(
    _ event: Event, from id: EffectID, unit: WorkUnit?, in parking: Parking
  ) -> Resumption {
    let resumption = Resumption()
    parking.results.append(ParkedResult(id: id, content: .sent(event, resumption, unit)))
    // The sender waits for the test from now on.
    unit?.suspend()
    work.signal()
    return resumption
  }
}

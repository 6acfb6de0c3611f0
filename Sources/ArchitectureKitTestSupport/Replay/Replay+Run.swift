import ArchitectureKit

extension Replay {
  /// Replays the journal with `feature`, checking each step; returns the state after the last
  /// step replayed.
  ///
  /// The feature runs in a ``TestSystem``: the app's events are sent in the journal's order, and
  /// each effect ends as the journal says — with its recorded event, without one, or cancelled
  /// — without running (the context is never used by an effect). After each step the replay
  /// compares the state with the recorded one (or, when the journal kept no states, the changed
  /// paths with the recorded changes), and the effects the step started with the recorded ones:
  /// in the order of the feedback that started them, and, for one feedback's starts (the new
  /// elements of a set of requests, started in its hash table's order, which differs from one
  /// process to the next), in any order. A failure recorded in the journal ends its effect
  /// without an event: it changed no state.
  ///
  /// ```swift
  /// let state = try replay.run(
  ///   feature: ProductDetail.feature, context: .test(), throughStep: 3)
  /// #expect(state.isAddingToCart)
  /// ```
  ///
  /// - Parameters:
  ///   - feature: The feature that recorded the journal (or the one to check against it).
  ///   - initialState: The state to start from; `nil` takes the journal's own (it has one when it
  ///     kept states).
  ///   - context: The context the feature's children are projected from; no effect runs.
  ///   - lastStep: The step to stop after; `nil` replays the whole journal.
  /// - Returns: The state after the last step replayed.
  /// - Throws: ``ReplayError/diverged(step:event:difference:)`` at the first step that differs;
  ///   another ``ReplayError`` when the journal cannot be replayed (its events were only
  ///   described, the feature's types are not `Decodable`, there is no state to start from).
  @MainActor
  @discardableResult
  public func run<State: Equatable, Event: Sendable, ErrorType: Error, Context: Sendable>(
    feature: Feature<State, Event, ErrorType, Context>,
    initialState: State? = nil,
    context: Context,
    throughStep lastStep: Int? = nil
  ) throws(ReplayError) -> State {
    guard header["events"] == .string("codable") else { throw .eventsNotEncoded(system: system) }
    guard Event.self is any Decodable.Type else {
      throw .notDecodable(type: String(describing: Event.self))
    }
    if let lastStep, steps?.contains(lastStep) != true {
      throw .noSuchStep(lastStep, steps: steps)
    }
    let start = try startingState(initialState)
    var engine = ReplayEngine(
      system: TestSystem(
        initialState: start.state, context: context, feature: feature, exhaustivity: .off),
      recordsStartMidSession: start.isMidSession,
      comparesStates: header["states"] == .string("codable") && State.self is any Decodable.Type)
    return try engine.play(records, throughStep: lastStep)
  }

  /// Decodes a recorded value as `Value`, which must be `Decodable`.
  static func decode<Value>(_ json: JSONValue, step: Int) throws(ReplayError) -> Value {
    guard let type = Value.self as? any Decodable.Type else {
      throw .notDecodable(type: String(describing: Value.self))
    }
    func decode<Decoded: Decodable>(_ type: Decoded.Type) throws -> Any {
      try JSONValueDecoder().decode(type, from: json)
    }
    do {
      guard let value = try decode(type) as? Value else {
        throw ReplayError.notDecodable(type: String(describing: Value.self))
      }
      return value
    } catch let error as ReplayError {
      throw error
    } catch {
      throw .undecodable(step: step, reason: "\(error)")
    }
  }

  /// The state the replay starts from: the one given, or the journal's first snapshot.
  private func startingState<State>(_ given: State?) throws(ReplayError) -> (
    state: State, isMidSession: Bool
  ) {
    let firstStep = records.first { $0.kind == "step" }?.step ?? 1
    let snapshot = records.prefix { $0.kind != "step" }.first { $0.kind == "snapshot" }
    if let given { return (given, firstStep > 1) }
    guard let snapshot, let json = snapshot.value["state"] else {
      throw .noInitialState(
        reason: firstStep > 1
          ? "it starts at step \(firstStep) without the state before it (keep every step's "
            + "state, `states: .everyStep`, to replay a journal dumped from memory)"
          : "it kept no states; pass the initial state to run(feature:initialState:context:)")
    }
    guard header["states"] == .string("codable") else {
      throw .noInitialState(reason: "its states are descriptions, not encoded values")
    }
    let state: State = try Replay.decode(
      json, step: snapshot.step ?? 0)
    return (state, (snapshot.step ?? 0) > 0)
  }
}

/// The replay of one journal: the test system, and which of its effects is which of the
/// journal's.
@MainActor
struct ReplayEngine<State: Equatable, Event: Sendable, ErrorType: Error, Context: Sendable> {
  let system: TestSystem<State, Event, ErrorType, Context>
  /// Whether the journal starts after step 1 (dumped from memory): effects running when it
  /// starts have no `started` record, and are matched by their request when they end.
  let recordsStartMidSession: Bool
  /// Whether recorded states are compared exactly (else the changes are).
  let comparesStates: Bool
  /// The replay's effect of each of the journal's, by the journal's serial number.
  private var effects: [UInt64: EffectID] = [:]
  /// The replay's serial numbers seen so far.
  private var known: Set<UInt64> = []
  /// Effects the replay started that no `started` record has claimed yet, in start order.
  private var fresh: [(id: EffectID, request: EffectRequest)] = []
  /// Effects running when a mid-session journal starts, claimed by request when they end.
  private var unclaimed: [(id: EffectID, request: EffectRequest)] = []
  /// What the last action led to: steps, and events the replay did not reduce.
  private let outcome = Outcome()
  /// The number of the last step replayed, and its event, for the divergences that follow it.
  private var lastStep = (number: 0, event: "the start")
  private var hasStepped = false

  /// What a step of the replay did, as its observer saw it.
  final class Outcome {
    var steps = 0
    var ignored: [IgnoredEventReason] = []
  }

  init(
    system: TestSystem<State, Event, ErrorType, Context>, recordsStartMidSession: Bool,
    comparesStates: Bool
  ) {
    self.system = system
    self.recordsStartMidSession = recordsStartMidSession
    self.comparesStates = comparesStates
    let outcome = self.outcome
    system.shell.addObserver { activity in
      switch activity {
      case .step: outcome.steps += 1
      case .eventIgnored(_, let reason): outcome.ignored.append(reason)
      default: break
      }
    }
    collectStarted()
  }

  /// Plays the records; returns the state after the last step played.
  mutating func play(
    _ records: [Replay.Record], throughStep last: Int?
  ) throws(ReplayError) -> State {
    var index = 0
    while index < records.count {
      let record = records[index]
      index += 1
      switch record.kind {
      case "step":
        try checkNothingUnclaimed()
        let event = try event(of: record)
        try perform(record) { engine throws(ReplayError) in
          guard case .effect(let serial)? = Self.origin(of: record) else {
            return engine.system.shell.send(event)
          }
          // An event an effect sent while running (its end, if any, comes later).
          let id = try engine.effect(serial, request: record.value["origin"]?["request"]?.string)
          engine.system.shell.core.deliver(event, from: id, runtime: engine.system.shell)
        }
        if record.step == last { return system.state }
      case "finished", "failed":
        let id = try effect(record)
        // An effect that ended with its event: the event's step follows at once.
        let next = index < records.count ? records[index] : nil
        if record.kind == "finished", let next, next.kind == "step",
          case .effect(let serial)? = Self.origin(of: next), serial == record.effect
        {
          try checkNothingUnclaimed()
          index += 1
          let event = try event(of: next)
          try perform(next) { engine throws(ReplayError) in
            engine.system.shell.simulate(id, with: .event(event))
            engine.system.shell.receiveParked()
          }
          if next.step == last { return system.state }
        } else {
          system.shell.simulate(id, with: .finished)
        }
      case "started":
        try claimStart(record)
      case "cancelled":
        cancel(record)
      case "ignored":
        // An event the app sent to a child that was gone is sent again: it must be ignored
        // again. The others (sent after a stop, or from a cancelled effect) have no effect.
        if record.value["reason"] == .string("missingChild"), Self.origin(of: record) == .app {
          let event = try event(of: record)
          system.shell.send(event)
        }
      case "stopped":
        system.shell.stop()
      default:
        // Snapshots (the start was read before), and kinds of later versions of the format.
        break
      }
    }
    try checkNothingUnclaimed()
    return system.state
  }

  // MARK: Steps

  /// Performs the action of a step record and checks what it did.
  private mutating func perform(
    _ record: Replay.Record, _ action: (inout ReplayEngine) throws(ReplayError) -> Void
  ) throws(ReplayError) {
    let number = record.step ?? lastStep.number + 1
    let before = system.state
    outcome.steps = 0
    outcome.ignored = []
    lastStep = (number, Self.describe(record))
    hasStepped = true
    try action(&self)
    collectStarted()
    guard outcome.steps == 1 else {
      let reason =
        outcome.ignored.first.map { "it was ignored because \($0)" } ?? "it was not reduced"
      throw diverged("the journal reduced this event; in the replay \(reason).")
    }
    try compare(record, before: before, after: system.state)
  }

  /// Compares the state after a step with the recorded one, or its changes with the recorded
  /// changes.
  private func compare(
    _ record: Replay.Record, before: State, after: State
  ) throws(ReplayError) {
    if comparesStates, let json = record.value["state"] {
      let recorded: State = try Replay.decode(json, step: lastStep.number)
      guard recorded != after else { return }
      let difference =
        StateDump.diff(expected: recorded, actual: after) ?? "(the dumps are identical)"
      throw diverged("the state is not the recorded one (− recorded, + replayed):\n\(difference)")
    }
    guard case .array(let recordedChanges)? = record.value["diff"] else { return }
    let recorded = recordedChanges.map { change in
      StateChange(
        path: change["path"]?.string ?? "", before: change["before"]?.string ?? "",
        after: change["after"]?.string ?? "")
    }
    let replayed = StateDiff.changes(from: before, to: after)
    guard recorded != replayed else { return }
    func lines(_ changes: [StateChange]) -> String {
      changes.isEmpty
        ? "  (no change)"
        : changes.map { "  \($0.path.isEmpty ? "" : $0.path + ": ")\($0.before) → \($0.after)" }
          .joined(separator: "\n")
    }
    throw diverged(
      "the state changed otherwise than recorded.\nRecorded:\n\(lines(recorded))\n"
        + "Replayed:\n\(lines(replayed))")
  }

  // MARK: Effects

  /// Notes the effects the replay started since the last look, in start order.
  private mutating func collectStarted() {
    let started = system.shell.core.liveRequests
      .filter { !known.contains($0.id.rawValue) }
      .sorted { $0.id.rawValue < $1.id.rawValue }
    for effect in started {
      known.insert(effect.id.rawValue)
      fresh.append(effect)
    }
  }

  /// Matches a `started` record with the next effect the replay started, or with a later one
  /// of the same feedback.
  ///
  /// One feedback's starts in a step may come in another order than the journal's: a set or a
  /// dictionary of requests starts its new elements in the order of its hash table, and hashing
  /// is seeded per process, so the process that replays a journal is not the one that wrote
  /// it. The starts of different feedbacks keep their order, the feedbacks' own.
  private mutating func claimStart(_ record: Replay.Record) throws(ReplayError) {
    let request = record.request ?? "?"
    guard let next = fresh.first else {
      throw diverged("the journal started \(request); the replay started nothing more.")
    }
    // The first effect of the same feedback with the record's request: a journal whose starts
    // come in order looks at one effect per record.
    var index = fresh.startIndex
    while fresh[index].request.description != request {
      index += 1
      guard index < fresh.endIndex,
        fresh[index].request.feedbackIndex == next.request.feedbackIndex,
        fresh[index].request.scope == next.request.scope
      else {
        throw diverged("the journal started \(request); the replay started \(next.request).")
      }
    }
    let started = fresh.remove(at: index)
    if let serial = record.effect { effects[serial] = started.id }
  }

  /// Fails for effects the replay started that the journal did not, before the next step;
  /// those of a mid-session journal's start wait to be claimed when they end.
  private mutating func checkNothingUnclaimed() throws(ReplayError) {
    guard !fresh.isEmpty else { return }
    if !hasStepped, recordsStartMidSession {
      unclaimed += fresh
      fresh = []
      return
    }
    throw diverged(
      "the replay started \(fresh.map(\.request.description).joined(separator: ", ")), "
        + "which the journal did not.")
  }

  /// Cancels the replay's effect of a `cancelled` record if it still runs: the journal's was
  /// cancelled from outside a step (an attached task cancelled), or by a step the replay
  /// agreed on.
  private mutating func cancel(_ record: Replay.Record) {
    guard let serial = record.effect else { return }
    let id = effects.removeValue(forKey: serial) ?? claimUnclaimed(record.request)
    guard let id, system.shell.core.isRunning(id) else { return }
    system.shell.core.cancelEffects([id], runtime: system.shell)
  }

  /// The replay's effect of an effect record.
  private mutating func effect(_ record: Replay.Record) throws(ReplayError) -> EffectID {
    guard let serial = record.effect else {
      throw .malformed(line: record.line, reason: "an effect record has no effect")
    }
    return try effect(serial, request: record.request)
  }

  /// The replay's effect of the journal's effect `serial`, which must be waiting.
  private mutating func effect(_ serial: UInt64, request: String?) throws(ReplayError) -> EffectID {
    guard let id = effects[serial] ?? claimUnclaimed(request) else {
      throw diverged(
        "the journal's effect #\(serial) (\(request ?? "?")) ended, but no such effect runs in "
          + "the replay.")
    }
    effects[serial] = id
    guard system.shell.isParked(id) else {
      throw diverged(
        "the journal's effect #\(serial) (\(request ?? "?")) ended, but it no longer runs in "
          + "the replay.")
    }
    return id
  }

  private mutating func claimUnclaimed(_ request: String?) -> EffectID? {
    guard let index = unclaimed.firstIndex(where: { $0.request.description == request }) else {
      return nil
    }
    return unclaimed.remove(at: index).id
  }

  // MARK: Values

  /// The event of a record, decoded.
  private func event(of record: Replay.Record) throws(ReplayError) -> Event {
    guard let json = record.value["event"] else {
      throw .undecodable(step: record.step ?? lastStep.number, reason: "the record has no event")
    }
    return try Replay.decode(json, step: record.step ?? lastStep.number)
  }

  /// Where a record's event came from: `nil` when the record does not say.
  private static func origin(of record: Replay.Record) -> Origin? {
    guard let origin = record.value["origin"] else { return nil }
    guard origin["kind"] == .string("effect") else { return .app }
    return origin["effect"]?.uint64.map(Origin.effect)
  }

  private enum Origin: Equatable {
    case app
    case effect(UInt64)
  }

  /// A step's event and origin, for messages: `.addToCart`, `.failed(…) from #2 addToCart(id: 2)`.
  private static func describe(_ record: Replay.Record) -> String {
    guard case .effect(let serial)? = origin(of: record) else { return record.eventText }
    let request = record.value["origin"]?["request"]?.string.map { " \($0)" } ?? ""
    return "\(record.eventText) from #\(serial)\(request)"
  }

  private func diverged(_ difference: String) -> ReplayError {
    .diverged(step: lastStep.number, event: lastStep.event, difference: difference)
  }
}

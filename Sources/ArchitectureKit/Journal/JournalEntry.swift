/// One record of a journal, as kept in memory: the values themselves, turned into a line of
/// JSON only when written (at once to a file, on demand for the ring).
///
/// Events and states are held as `Any`: the journal's code is generic and runs unspecialized
/// (it is called from the shell's recording hooks), and every use of a generic entry type
/// looked up its metadata — more than half of what a recorded step cost.
///
/// See `Documentation/JournalFormat.md` for the lines.
@usableFromInline
struct JournalEntry {
  /// Since the journal began, in nanoseconds on the monotonic clock.
  @usableFromInline let time: Int64
  @usableFromInline let kind: Kind

  @usableFromInline
  init(time: Int64, kind: Kind) {
    self.time = time
    self.kind = kind
  }

  @usableFromInline
  enum Kind {
    /// An event was reduced: its number (from 1), the changes, and the state when kept.
    case step(Int, event: Any, origin: Origin, changes: Changes, state: Any?)
    /// An effect started, was cancelled or finished.
    case effect(EffectRecord, serial: UInt64, request: RequestName)
    /// An effect failed; the error, described.
    case failed(serial: UInt64, request: RequestName, error: String)
    /// An event was not reduced.
    case ignored(event: Any, reason: IgnoredEventReason, origin: Origin)
    /// The state after the step numbered `step` (0: when recording began).
    case snapshot(step: Int, state: Any)
    /// The system stopped.
    case stopped
  }

  /// Where an event came from, its effect's request named as the journal writes it.
  @usableFromInline
  enum Origin {
    case app
    case effect(UInt64, request: RequestName?)
  }

  /// A request as the journal writes it: described when written, or the text a redaction made
  /// of it when it was recorded.
  @usableFromInline
  enum RequestName {
    case request(EffectRequest)
    case text(String)

    var text: String {
      switch self {
      case .request(let request): request.description
      case .text(let text): text
      }
    }
  }

  /// A step's changes: listed when the step was recorded, or taken from the two states they
  /// are between when the entry is written.
  ///
  /// The states of a type made of plain values only (no reference, no collection's storage)
  /// are kept and compared when the entry is written: holding them shares no storage with the
  /// system's state, so its reducer's next change in place copies nothing, and a step costs a
  /// copy instead of a diff by reflection. The states of other types are compared at the step,
  /// and only their changes kept (see PerformanceLedger: changes listed when written). Only an
  /// `Unmanaged` reference or an unsafe pointer, which are plain values too, could show what
  /// they point to as it is when the entry is written.
  @usableFromInline
  enum Changes {
    /// The changes, listed at the step.
    case listed([StateChange])
    /// The state before the step and the state after it, of a type of plain values.
    case between(Any, Any)

    /// The changes between two states, listed now (by reflection, down the parts that
    /// changed).
    @usableFromInline
    static func list(from old: Any, to new: Any) -> [StateChange] {
      StateDiff.changes(from: old, to: new)
    }

    /// The changes, in the order of the state's declaration.
    var list: [StateChange] {
      switch self {
      case .listed(let changes): changes
      case .between(let old, let new): StateDiff.changes(from: old, to: new)
      }
    }
  }

  /// The kinds of effect records that carry nothing but the effect.
  @usableFromInline
  enum EffectRecord: String {
    case started, cancelled, finished
  }
}

/// How a journal writes its values: events and states encoded when they are `Encodable`,
/// described otherwise.
@usableFromInline
struct JournalEncoding {
  /// Whether events are written encoded (the header's `events` is `codable`).
  let encodesEvents: Bool
  /// Whether states are written encoded (the header's `states` is `codable`).
  let encodesStates: Bool

  /// The most characters a state's description holds, when the state is not `Encodable`.
  static var stateDescriptionLimit: Int { 100_000 }

  /// The header line's object.
  func header(system: String, states: JournalStates, started: String, capacity: Int?)
    -> JSONValue
  {
    var members: [JSONValue.Member] = [
      .init("format", .string("architecturekit-journal")),
      .init("version", .integer(1)),
      .init("system", .string(system)),
      .init("events", .string(encodesEvents ? "codable" : "description")),
      .init(
        "states",
        .string(states.interval == nil ? "none" : encodesStates ? "codable" : "description")),
    ]
    if let interval = states.interval { members.append(.init("stateInterval", .integer(interval))) }
    members.append(.init("started", .string(started)))
    members.append(.init("capacity", capacity.map { .integer($0) } ?? .null))
    return .object(members)
  }

  /// A record's object.
  @usableFromInline
  func record(_ entry: JournalEntry) -> JSONValue {
    var members: [JSONValue.Member] = []
    func add(_ key: String, _ value: JSONValue) {
      members.append(JSONValue.Member(key, value))
    }
    let time = JSONValue.Member("time", Self.seconds(entry.time))
    switch entry.kind {
    case .step(let number, let event, let origin, let changes, let state):
      add("kind", .string("step"))
      members.append(time)
      add("step", .integer(number))
      if let event = encoded(event) { add("event", event) }
      add("eventText", .string(ValueText.describe(event)))
      add("origin", Self.json(origin))
      add(
        "diff",
        .array(
          changes.list.map { change in
            .object([
              .init("path", .string(change.path)), .init("before", .string(change.before)),
              .init("after", .string(change.after)),
            ])
          }))
      if let state { add("state", self.state(state)) }
    case .effect(let record, let serial, let request):
      add("kind", .string(record.rawValue))
      members.append(time)
      add("effect", .integer(serial))
      add("request", .string(request.text))
    case .failed(let serial, let request, let error):
      add("kind", .string("failed"))
      members.append(time)
      add("effect", .integer(serial))
      add("request", .string(request.text))
      add("error", .string(error))
    case .ignored(let event, let reason, let origin):
      add("kind", .string("ignored"))
      members.append(time)
      if let event = encoded(event) { add("event", event) }
      add("eventText", .string(ValueText.describe(event)))
      switch reason {
      case .stopped: add("reason", .string("stopped"))
      case .cancelledEffect: add("reason", .string("cancelledEffect"))
      case .missingChild(let scope):
        add("reason", .string("missingChild"))
        add("scope", .string(scope))
      }
      add("origin", Self.json(origin))
    case .snapshot(let step, let state):
      add("kind", .string("snapshot"))
      members.append(time)
      add("step", .integer(step))
      add("state", self.state(state))
    case .stopped:
      add("kind", .string("stopped"))
      members.append(time)
    }
    return .object(members)
  }

  /// The event encoded, when events are; `null` if its encoding threw.
  private func encoded(_ event: Any) -> JSONValue? {
    guard encodesEvents, let event = event as? any Encodable else { return nil }
    return (try? JSONValueEncoder().encode(event)) ?? .null
  }

  /// The state encoded, or described.
  private func state(_ state: Any) -> JSONValue {
    if encodesStates, let state = state as? any Encodable {
      return (try? JSONValueEncoder().encode(state)) ?? .null
    }
    return .string(ValueText.describe(state, maxLength: Self.stateDescriptionLimit))
  }

  private static func json(_ origin: JournalEntry.Origin) -> JSONValue {
    switch origin {
    case .app:
      return .object([.init("kind", .string("app"))])
    case .effect(let serial, let request):
      var members: [JSONValue.Member] = [
        .init("kind", .string("effect")), .init("effect", .integer(serial)),
      ]
      if let request { members.append(.init("request", .string(request.text))) }
      return .object(members)
    }
  }

  /// Seconds, to the microsecond.
  static func seconds(_ nanoseconds: Int64) -> JSONValue {
    .floatingPoint(Double(nanoseconds / 1_000) / 1_000_000)
  }
}

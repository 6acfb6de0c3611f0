/// Gathers a journal's records, line by line, into a ``Journal``.
struct JournalBuilder {
  private let header: JournalHeader
  private var entries: [JournalEntry] = []
  private var effects: [Int: EffectLifetime] = [:]
  /// Warnings so far, each starting with its line (`line 9, …`).
  var warnings: [String] = []

  init(header: JournalHeader) {
    self.header = header
  }

  /// The journal read so far, its effects by serial number.
  var journal: Journal {
    Journal(
      header: header,
      entries: entries,
      effects: effects.values.sorted { $0.number < $1.number },
      warnings: warnings
    )
  }

  /// Adds the record on line `line`.
  mutating func add(_ record: JSONRecord, line: Int) throws(JSONRecord.Problem) {
    let kind = try record.string("kind")
    let time = try record.number("time")
    switch kind {
    case "step":
      entries.append(
        .step(
          JournalEntry.Step(
            time: time,
            number: try record.integer("step"),
            eventText: try record.string("eventText"),
            origin: try Self.origin(record.optionalRecord("origin")) ?? .app,
            changes: try record.records("diff").map { change throws(JSONRecord.Problem) in
              StateChange(
                path: try change.string("path"),
                before: try change.optionalString("before") ?? "",
                after: try change.optionalString("after") ?? ""
              )
            }
          )))
    case "ignored":
      entries.append(
        .ignored(
          JournalEntry.Ignored(
            time: time,
            eventText: try record.string("eventText"),
            reason: try record.string("reason"),
            scope: try record.optionalString("scope"),
            origin: try Self.origin(record.optionalRecord("origin"))
          )))
    case "started":
      let number = try record.integer("effect")
      let request = try record.string("request")
      guard effects[number] == nil else {
        warnings.append("line \(line): effect #\(number) started again; this start was skipped")
        return
      }
      effects[number] = EffectLifetime(
        number: number, request: request, start: time, end: nil, outcome: .running)
    case "finished", "cancelled", "failed":
      let number = try record.integer("effect")
      let request = try record.string("request")
      let outcome: EffectLifetime.Outcome =
        switch kind {
        case "finished": .finished
        case "cancelled": .cancelled
        default: .failed(error: try record.optionalString("error") ?? "")
        }
      // A dumped ring may hold the end of an effect whose start it no longer holds.
      var effect =
        effects[number]
        ?? EffectLifetime(number: number, request: request, start: nil, end: nil, outcome: .running)
      guard effect.outcome == .running else {
        warnings.append("line \(line): effect #\(number) ended again; this end was skipped")
        return
      }
      effect.end = time
      effect.outcome = outcome
      effects[number] = effect
    case "snapshot", "stopped":
      // A whole state (the timeline shows changes, not states) and the system's stop (its
      // running effects' ends follow as records of their own): nothing to draw.
      break
    default:
      warnings.append("line \(line): a record of unknown kind \"\(kind)\" was skipped")
    }
  }

  private static func origin(_ record: JSONRecord?) throws(JSONRecord.Problem) -> EventOrigin? {
    guard let record else { return nil }
    switch try record.string("kind") {
    case "effect":
      // The request may be missing: an event from an effect the journal saw start before it
      // began recording.
      return .effect(
        try record.integer("effect"), request: try record.optionalString("request") ?? "?")
    default:
      return .app
    }
  }
}

/// Why a journal could not be replayed, or where its replay stopped agreeing with it.
public enum ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The journal file could not be read.
  case unreadable(path: String, reason: String)
  /// A line of the journal is not what the format says (the header, or a record before the
  /// last line; a truncated last line is skipped with a warning).
  case malformed(line: Int, reason: String)
  /// The journal holds only the events' descriptions: its event type was not `Codable` when it
  /// was recorded.
  case eventsNotEncoded(system: String)
  /// The event type (or the state type, for a journal whose initial state must be read) of the
  /// feature is not `Decodable`.
  case notDecodable(type: String)
  /// The journal has no state to start from: it starts after its first step without a snapshot
  /// of the state before it, or it kept no states and no initial state was given.
  case noInitialState(reason: String)
  /// A recorded event (or state) could not be decoded as the feature's type.
  case undecodable(step: Int, reason: String)
  /// The journal has no step with this number.
  case noSuchStep(Int, steps: ClosedRange<Int>?)
  /// The replay did something else than the journal: at `step`, whose event is `event`, the
  /// state or the effects differ, as `difference` says.
  case diverged(step: Int, event: String, difference: String)

  /// A paragraph for people, naming the step and showing the difference.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "The journal \(path) cannot be read: \(reason)."
    case .malformed(let line, let reason):
      "Line \(line) of the journal is not a journal record: \(reason)."
    case .eventsNotEncoded(let system):
      "The journal of \(system) holds the events' descriptions only (its event type was not "
        + "Codable when it was recorded), so it cannot be replayed. Make the event type Codable "
        + "and record the session again."
    case .notDecodable(let type):
      "\(type) is not Decodable, so the journal's values cannot be read as it. Make it Codable."
    case .noInitialState(let reason):
      "The journal gives no state to start from: \(reason)."
    case .undecodable(let step, let reason):
      "The value of step \(step) cannot be decoded: \(reason)."
    case .noSuchStep(let step, let steps?):
      "The journal has no step \(step); its steps are \(steps.lowerBound) to \(steps.upperBound)."
    case .noSuchStep(let step, nil):
      "The journal has no step \(step); it has no steps."
    case .diverged(let step, let event, let difference):
      "The replay diverged from the journal at step \(step), \(event): \(difference)"
    }
  }
}

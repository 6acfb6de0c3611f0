/// A line of a journal about an event: reduced in a step, or ignored.
package enum JournalEntry: Equatable, Sendable {
  /// The event was reduced.
  case step(Step)
  /// The event was not reduced.
  case ignored(Ignored)

  /// An event that was reduced, and what it changed.
  package struct Step: Equatable, Sendable {
    /// Seconds since the journal started, from a monotonic clock.
    package var time: Double
    /// The step's number, from 1 (from the oldest step kept, in a dumped ring).
    package var number: Int
    /// The event's description.
    package var eventText: String
    /// Who sent the event.
    package var origin: EventOrigin
    /// The changed paths of the state.
    package var changes: [StateChange]

    /// A step, every field given.
    package init(
      time: Double,
      number: Int,
      eventText: String,
      origin: EventOrigin,
      changes: [StateChange]
    ) {
      self.time = time
      self.number = number
      self.eventText = eventText
      self.origin = origin
      self.changes = changes
    }
  }

  /// An event the system did not reduce, and why.
  package struct Ignored: Equatable, Sendable {
    /// Seconds since the journal started, from a monotonic clock.
    package var time: Double
    /// The event's description.
    package var eventText: String
    /// `stopped`, `cancelledEffect` or `missingChild`.
    package var reason: String
    /// The missing child's scope, for `missingChild`.
    package var scope: String?
    /// Who sent the event, when the writer said.
    package var origin: EventOrigin?

    /// An ignored event, every field given.
    package init(
      time: Double,
      eventText: String,
      reason: String,
      scope: String? = nil,
      origin: EventOrigin? = nil
    ) {
      self.time = time
      self.eventText = eventText
      self.reason = reason
      self.scope = scope
      self.origin = origin
    }
  }

  /// When the event was reduced or ignored.
  package var time: Double {
    switch self {
    case .step(let step): step.time
    case .ignored(let ignored): ignored.time
    }
  }

  /// The event's description.
  package var eventText: String {
    switch self {
    case .step(let step): step.eventText
    case .ignored(let ignored): ignored.eventText
    }
  }
}

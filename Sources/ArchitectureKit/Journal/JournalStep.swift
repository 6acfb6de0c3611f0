/// A record of a journal in memory: a step recorded inline, in its system's own types, or any
/// other record as a ``JournalEntry``.
///
/// A step recorded inline (``Journal/recordStepInline(_:origin:state:at:)``) keeps its event and
/// states as they are, not in `Any`: a counter's step is a few words of plain values, moved
/// into the ring and destroyed there without an existential's value witnesses (see
/// PerformanceLedger: steps recorded inline). It becomes a ``JournalEntry`` when read.
@usableFromInline
enum JournalRecord<State, Event> {
  case step(JournalStep<State, Event>)
  case entry(JournalEntry)

  /// The record as the journal writes it.
  var entry: JournalEntry {
    switch self {
    case .step(let step): step.entry
    case .entry(let entry): entry
    }
  }

  /// The snapshot of the state after this record, when it is a step that kept its state.
  @usableFromInline var snapshot: JournalEntry? {
    switch self {
    case .step(let step):
      return step.state.map {
        JournalEntry(time: step.time, kind: .snapshot(step: step.number, state: $0))
      }
    case .entry:
      // Every step is kept as a `JournalStep`, whichever path recorded it.
      return nil
    }
  }
}

/// A step recorded inline: what ``JournalEntry/Kind/step(_:event:origin:changes:state:)``
/// holds, in the system's types.
@usableFromInline
struct JournalStep<State, Event> {
  /// Since the journal began.
  @usableFromInline let time: Duration
  /// The step's number, from 1.
  @usableFromInline let number: Int
  @usableFromInline let event: Event
  @usableFromInline let origin: JournalEntry.Origin
  @usableFromInline let changes: Changes
  /// The state after the step, when the journal keeps it.
  @usableFromInline let state: State?

  /// A step's changes: listed at the step, or the two states they are between, listed when
  /// the step is read (see `JournalEntry.Changes`).
  @usableFromInline
  enum Changes {
    case listed([StateChange])
    case between(State, State)
  }

  @inlinable
  init(
    time: Duration, number: Int, event: Event, origin: JournalEntry.Origin, changes: Changes,
    state: State?
  ) {
    self.time = time
    self.number = number
    self.event = event
    self.origin = origin
    self.changes = changes
    self.state = state
  }

  /// The step as the journal writes it.
  @inlinable
  var entry: JournalEntry {
    let changes: JournalEntry.Changes =
      switch self.changes {
      case .listed(let changes): .listed(changes)
      case .between(let old, let new): .between(old, new)
      }
    return JournalEntry(
      time: time,
      kind: .step(number, event: event, origin: origin, changes: changes, state: state))
  }
}

/// A step as a journal in memory keeps it: what
/// ``JournalEntry/Kind/step(_:event:origin:changes:state:)`` holds, in the system's types.
///
/// A step recorded inline (``Journal/recordStepInline(_:origin:state:at:)``) keeps its event and
/// states as they are, not in `Any`: a counter's step is a few words of plain values, moved
/// into the ring and destroyed there without an existential's value witnesses (see
/// PerformanceLedger: steps recorded inline). It becomes a ``JournalEntry`` when read.
@usableFromInline
struct JournalStep<State, Event> {
  /// Since the journal began, in nanoseconds.
  @usableFromInline let time: Int64
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
    time: Int64, number: Int, event: Event, origin: JournalEntry.Origin, changes: Changes,
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

  /// Whether the step holds only plain values (no reference, no storage of a collection).
  ///
  /// Its event and state are of plain types, its origin names no request, and its changes are
  /// the two states rather than a list: dropping it needs no destruction.
  @inlinable var holdsOnlyPlainValues: Bool {
    guard _isPOD(State.self), _isPOD(Event.self), case .app = origin, case .between = changes
    else { return false }
    return true
  }

  /// The snapshot of the state after this step, when the step kept its state.
  @usableFromInline var snapshot: JournalEntry? {
    state.map { JournalEntry(time: time, kind: .snapshot(step: number, state: $0)) }
  }
}

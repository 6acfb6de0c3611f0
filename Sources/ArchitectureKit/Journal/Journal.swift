import FunctionalCore

/// A recorder of what a system does: each step's event, where it came from and what it changed,
/// the effects started, cancelled and finished, the failures — kept in memory for the last steps,
/// and written to a file as it goes when you ask.
///
/// Attach one to a ``System`` or a ``BackgroundSystem`` when you create it, or later with
/// ``System/record(into:)``:
///
/// ```swift
/// let journal = try Journal<ProductDetailState, ProductDetailEvent>(
///   writingTo: path, states: .everyStep)
/// let page = ProductDetail.start(context: context, journal: journal)
/// ```
///
/// A journal is [JSON Lines](https://jsonlines.org) in the format of
/// `Documentation/JournalFormat.md`: a header, then one record per line. Events and states are
/// written encoded when they are `Codable` — then a test replays the journal
/// (`Replay` in ArchitectureKitTestSupport) — and described otherwise; the header says which.
///
/// - **In memory**, it keeps the last ``capacity`` steps, each with the records that follow it:
///   ``lines`` and ``write(toFile:)`` give them as a journal, to attach to a bug report.
/// - **To a file** (``init(writingTo:capacity:states:redaction:)``), each
///   record is written as it happens, with one `write` call and no buffer in the process, so a
///   process that crashes or is killed loses at most the record it was writing.
///
/// Recording never changes what the system does. It costs a state diff per step (by
/// reflection, down the parts that changed), and for a file the encoding and the write of each
/// record; a system without a journal pays nothing. A state of at most 256 bytes made of plain
/// values only (numbers, Booleans, enums and structs of them: no `String`, collection or class),
/// with no state redaction, is kept instead, and compared when the record is written, as events
/// are described then.
///
/// ## Keeping secrets out
///
/// Everything written comes from the events, the states, the requests (which the feedback
/// derives from the states) and the effects' errors: a ``JournalRedaction`` changes each of
/// them before anything is made of it (its description, its encoding, the changes of a step).
///
/// A journal records one system: attaching it to a second one is reported and ignored. When
/// the state is `Sendable`, the journal is too, and ``lines`` can be read from any thread while
/// its system runs.
public final class Journal<State, Event: Sendable> {
  /// How many steps the journal keeps in memory (0: none).
  public let capacity: Int
  /// Which states the journal keeps beside its steps.
  public let states: JournalStates
  // What is kept out, one closure a property: read from the redaction's generic struct at
  // each record, unspecialized, they looked up its metadata each time. Events and states come
  // as `Any` (see `JournalActivity`): the closures take them back to their types.
  private let redactEvent: ((Any) -> Any)?
  private let redactState: ((Any) -> Any)?
  @usableFromInline let redactRequest: ((EffectRequest) -> String)?
  private let redactError: ((any Error) -> String)?
  @usableFromInline let encoding = JournalEncoding(
    encodesEvents: Event.self is any Encodable.Type, encodesStates: State.self is any Encodable.Type
  )
  /// Whether a step keeps the states it changed between, and lists the changes when written:
  /// for a small state of plain values that no redaction changes (see `JournalEntry.Changes`).
  @usableFromInline let keepsStatesForChanges: Bool
  /// Whether a step is recorded by ``recordStepInline(_:origin:state:at:)``, in code
  /// specialized for the system's types: when no redaction changes events or states.
  @usableFromInline let recordsStepsInline: Bool
  /// The largest state, in bytes, kept for its changes: two of them per step kept in memory.
  private static var largestStateKeptForChanges: Int { 256 }
  /// What the recording side uses: touched only by `begin` and `record`, which run on the
  /// isolation of the one system the journal records.
  ///
  /// Exclusivity: skips the run-time check (see PerformanceLedger: exclusivity opt-outs). No
  /// two accesses can overlap: only the recording side touches it, on one isolation, and each
  /// access reads or writes a field and is over before the journal calls any other code.
  @exclusivity(unchecked) @usableFromInline var recorder = JournalRecorderState<State>()
  /// What readers share with the recording side, under a lock.
  @usableFromInline let shared: Lock<JournalSharedState<State, Event>>

  /// A journal in memory.
  ///
  /// - Parameters:
  ///   - capacity: How many steps to keep: the oldest step is dropped, with the records that
  ///     follow it, when a new one would exceed it.
  ///   - states: Which whole states to keep beside the steps.
  ///   - redaction: What to keep out of the journal.
  public init(
    capacity: Int = 1_000,
    states: JournalStates = .none,
    redaction: JournalRedaction<State, Event> = .none
  ) {
    self.capacity = max(0, capacity)
    self.states = states
    redactEvent = redaction.events.map { redact in
      { event in if let event = event as? Event { redact(event) } else { event } }
    }
    redactState = redaction.states.map { redact in
      { state in if let state = state as? State { redact(state) } else { state } }
    }
    redactRequest = redaction.requests
    redactError = redaction.errors
    keepsStatesForChanges =
      redaction.states == nil && _isPOD(State.self)
      && MemoryLayout<State>.size <= Self.largestStateKeptForChanges
    recordsStepsInline = redaction.events == nil && redaction.states == nil
    shared = Lock(
      JournalSharedState(
        ring: JournalRing(capacity: capacity), keepsBase: states.interval != nil))
  }

  /// A journal written to a file as it goes, and kept in memory for its last steps.
  ///
  /// The file is created, or emptied; its header is written when the journal is attached.
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - capacity: How many steps to keep in memory as well (0: none).
  ///   - states: Which whole states to write beside the steps.
  ///   - redaction: What to keep out of the journal.
  /// - Throws: A ``JournalError`` when the file cannot be opened for writing.
  public convenience init(
    writingTo path: String,
    capacity: Int = 1_000,
    states: JournalStates = .none,
    redaction: JournalRedaction<State, Event> = .none
  ) throws(JournalError) {
    self.init(capacity: capacity, states: states, redaction: redaction)
    let file = try JournalFile(path: path)
    shared.withLock { $0.file = file }
    recorder.writesFile = true
  }

  /// The steps kept in memory as a journal: the header (with its ``capacity``), the state
  /// before the oldest step when it is known, then the records, one JSON object per element.
  ///
  /// Empty until the journal is attached to a system.
  public var lines: [String] {
    let (system, started, base, entries) = shared.withLock { shared in
      (shared.system, shared.started, shared.base, shared.ring.kept)
    }
    guard let system else { return [] }
    var lines = [
      encoding.header(system: system, states: states, started: started, capacity: capacity).text
    ]
    if let base { lines.append(encoding.record(base).text) }
    for entry in entries { lines.append(encoding.record(entry).text) }
    return lines
  }

  /// Writes the steps kept in memory to a file, as a journal (see ``lines``).
  ///
  /// - Parameter path: The file; it is created or replaced.
  /// - Throws: A ``JournalError`` when it cannot be written.
  public func write(toFile path: String) throws(JournalError) {
    let file = try JournalFile(path: path)
    let text = lines.map { $0 + "\n" }.joined()
    if let reason = file.write(text) { throw JournalError(path: path, reason: reason) }
    file.close()
  }

  /// Stops recording and closes the file: later activity of the system is not recorded, and
  /// what is in memory stays readable.
  public func close() {
    shared.withLock { shared in
      shared.isClosed = true
      shared.file?.close()
      shared.file = nil
    }
  }

  /// Keeps a record other than a step in memory and writes it to the file.
  ///
  /// The line is made before the lock is taken: it runs the events' own code.
  private func keep(_ entry: consuming JournalEntry) {
    let line = recorder.writesFile ? encoding.record(entry) : nil
    // Moved into the ring rather than copied: an entry's copy copies each `Any` it holds.
    var entry = Optional(entry)
    // swift-format-ignore: NeverForceUnwrap
    // Set the line above; `if let` or an optional parameter copied it again.
    shared.withLock { shared in shared.keep(entry.take()!, line: line) }
  }
}

/// What a journal's recording side keeps between steps.
@usableFromInline
struct JournalRecorderState<State> {
  @usableFromInline var start: Int64?
  /// The state after the last step (redacted), which the next step's changes are taken from.
  @usableFromInline var lastState: State?
  @usableFromInline var steps = 0
  /// Whether the journal was made to write a file: each record is then encoded as it comes.
  @usableFromInline var writesFile = false

  @usableFromInline
  init() {}
}

/// What a journal's readers share with its recording side, under its lock.
@usableFromInline
struct JournalSharedState<State, Event> {
  var system: String?
  var started = ""
  @usableFromInline let ring: JournalRing<State, Event>
  /// The snapshot of the state before the oldest step kept, when known: a dump starts with it.
  @usableFromInline var base: JournalEntry?
  /// Whether steps keep states, so that a dropped step's state becomes the ``base``.
  @usableFromInline let keepsBase: Bool
  var file: JournalFile?
  @usableFromInline var isClosed = false

  init(ring: JournalRing<State, Event>, keepsBase: Bool) {
    self.ring = ring
    self.keepsBase = keepsBase
  }

  /// Keeps a step in the ring.
  @inlinable
  mutating func keep(_ step: consuming JournalStep<State, Event>) {
    guard !isClosed else { return }
    guard keepsBase else { return ring.append(step) }
    if let dropped = ring.appendReturningDropped(step) {
      // The dropped step's state is the state before the oldest step kept, if it kept one.
      base = dropped.snapshot
    }
  }

  /// Keeps a step in the ring, and writes its line to the file.
  @inlinable
  mutating func keep(_ step: consuming JournalStep<State, Event>, line: JSONValue) {
    guard !isClosed else { return }
    keep(step)
    write(line)
  }

  /// Keeps a record other than a step in the ring, and writes its line to the file, if any.
  mutating func keep(_ entry: consuming JournalEntry, line: JSONValue?) {
    guard !isClosed else { return }
    ring.append(entry)
    if let line { write(line) }
  }

  /// Writes a line to the file, if any; a file that cannot be written is reported once and
  /// closed, and the journal goes on in memory.
  @usableFromInline
  mutating func write(_ line: JSONValue) {
    guard let file else { return }
    var bytes = line.utf8
    bytes.append(UInt8(ascii: "\n"))
    guard let reason = file.write(bytes) else { return }
    reportUnobserved(
      "\(JournalError(path: file.path, reason: reason)) The journal stops writing it.")
    file.close()
    self.file = nil
  }
}

extension Journal {
  /// Records a step in code specialized for the system's types.
  ///
  /// Called by the shell's recording hook: the record is made here and kept at once, without
  /// the `JournalActivity` every recorder is told through, nor the journal's generic code,
  /// which runs unspecialized (see PerformanceLedger: steps recorded inline). What it records
  /// is what ``record(_:at:)`` records for a step.
  ///
  /// - Returns: `false`, recording nothing, when the step takes the general path: when a
  ///   redaction changes events or states.
  @inlinable
  func recordStepInline(
    _ event: Event, origin: JournalOrigin, state: State, at time: Int64
  ) -> Bool {
    guard recordsStepsInline else { return false }
    let elapsed = recorder.start.map { time - $0 } ?? 0
    let (number, changes, kept) = nextStep(state)
    let origin = name(origin)
    if recorder.writesFile {
      keepWritten(
        JournalStep(
          time: elapsed, number: number, event: event, origin: origin, changes: changes,
          state: kept))
      return true
    }
    // Made inside the lock, where it is kept: made outside, the closure copied it.
    shared.withLock { shared in
      shared.keep(
        JournalStep(
          time: elapsed, number: number, event: event, origin: origin, changes: changes,
          state: kept))
    }
    return true
  }

  /// Keeps a step and writes it to the file.
  ///
  /// The line is encoded before the lock is taken, as it runs the event's and the state's own
  /// code. Out of line: the path of a journal in memory stays short.
  @inlinable @inline(never)
  func keepWritten(_ step: JournalStep<State, Event>) {
    let line = encoding.record(step.entry)
    shared.withLock { shared in shared.keep(step, line: line) }
  }

  /// Counts a step whose state (redacted already) is `state`: its number, its changes from the
  /// state before, and the state itself when the journal keeps it.
  @inlinable
  func nextStep(_ state: State) -> (
    number: Int, changes: JournalStep<State, Event>.Changes, kept: State?
  ) {
    recorder.steps += 1
    let number = recorder.steps
    var changes = JournalStep<State, Event>.Changes.listed([])
    // Taken rather than copied: the state after this step replaces it below.
    if let lastState = recorder.lastState.take() {
      changes =
        keepsStatesForChanges
        ? .between(lastState, state)
        : .listed(JournalEntry.Changes.list(from: lastState, to: state))
    }
    recorder.lastState = state
    return (number, changes, states.includes(step: number) ? state : nil)
  }
}

extension Journal: ActivityRecorder {
  package func begin(system: String, state: Any, at time: Int64) -> Bool {
    let state = redactState?(state) ?? state
    let encoding = self.encoding
    let states = self.states
    let isFirst = shared.withLock { shared -> Bool in
      guard shared.system == nil else { return false }
      shared.system = system
      shared.started = WallClock.now()
      if shared.file != nil {
        shared.write(
          encoding.header(system: system, states: states, started: shared.started, capacity: nil))
      }
      return true
    }
    guard isFirst else { return false }
    recorder.start = time
    recorder.lastState = state as? State
    if states.interval != nil {
      let snapshot = JournalEntry(time: 0, kind: .snapshot(step: 0, state: state))
      let line = recorder.writesFile ? encoding.record(snapshot) : nil
      shared.withLock { shared in
        shared.base = snapshot
        if let line { shared.write(line) }
      }
    }
    return true
  }

  package func record(_ activity: JournalActivity, at time: Int64) {
    let elapsed = recorder.start.map { time - $0 } ?? 0
    let kind: JournalEntry.Kind
    switch activity {
    case .step(let event, let origin, let state):
      // Redacted in `Any`, as the closures take them, then back in the system's types (a
      // redaction returns a value of the type it was given).
      guard let event = (redactEvent?(event) ?? event) as? Event,
        let state = (redactState?(state) ?? state) as? State
      else { return assertionFailure("A journal told of a step of another system's types.") }
      let (number, changes, kept) = nextStep(state)
      let step = JournalStep(
        time: elapsed, number: number, event: event, origin: name(origin), changes: changes,
        state: kept)
      if recorder.writesFile {
        keepWritten(step)
      } else {
        shared.withLock { shared in shared.keep(step) }
      }
      return
    case .started(let effect, let request):
      kind = .effect(.started, serial: effect, request: name(request))
    case .cancelled(let effect, let request):
      kind = .effect(.cancelled, serial: effect, request: name(request))
    case .finished(let effect, let request):
      kind = .effect(.finished, serial: effect, request: name(request))
    case .failed(let effect, let request, let error):
      let text = redactError?(error) ?? ValueText.describe(error)
      kind = .failed(serial: effect, request: name(request), error: text)
    case .ignored(let event, let reason, let origin):
      let event = redactEvent?(event) ?? event
      kind = .ignored(event: event, reason: reason, origin: name(origin))
    case .stopped:
      kind = .stopped
    }
    keep(JournalEntry(time: elapsed, kind: consume kind))
  }

  /// A request as the journal records it: redacted now, or described when written.
  @usableFromInline
  func name(_ request: EffectRequest) -> JournalEntry.RequestName {
    guard let redact = redactRequest else { return .request(request) }
    return .text(redact(request))
  }

  @usableFromInline
  func name(_ origin: JournalOrigin) -> JournalEntry.Origin {
    switch origin {
    case .app: .app
    case .effect(let serial, let request): .effect(serial, request: request.map(name))
    }
  }
}

// The recording side (`recorder`, the redaction closures) is used only on the isolation of the
// one system the journal records: `begin` refuses a second system, under the lock. Everything
// readers touch is under the lock, and what they read of the entries (events, states) is
// `Sendable` by this conformance's condition.
extension Journal: @unchecked Sendable where State: Sendable {}

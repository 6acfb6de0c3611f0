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
/// record; a system without a journal pays nothing.
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
  /// What is kept out.
  private let redaction: JournalRedaction<State, Event>
  private let encoding = JournalEncoding<State, Event>()
  /// What the recording side uses: touched only by `begin` and `record`, which run on the
  /// isolation of the one system the journal records.
  private var recorder = Recorder()
  /// What readers share with the recording side, under a lock.
  private let shared: Lock<Shared>

  /// The recording side's state.
  private struct Recorder {
    var start: ContinuousClock.Instant?
    var lastState: State?
    var steps = 0
    /// Whether the journal was made to write a file: each record is then encoded as it comes.
    var writesFile = false
  }

  /// What both sides touch.
  private struct Shared {
    var system: String?
    var started = ""
    var ring: JournalRing<JournalEntry<State, Event>>
    /// The state before the oldest step kept, when known: the snapshot a dump starts with.
    var base: (step: Int, state: State, time: Duration)?
    var file: JournalFile?
    var isClosed = false
  }

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
    self.redaction = redaction
    shared = Lock(Shared(ring: JournalRing(capacity: capacity)))
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
      (shared.system, shared.started, shared.base, Array(shared.ring.kept))
    }
    guard let system else { return [] }
    var lines = [
      encoding.header(system: system, states: states, started: started, capacity: capacity).text
    ]
    if let base {
      let snapshot = JournalEntry<State, Event>(
        time: base.time, kind: .snapshot(step: base.step, state: base.state))
      lines.append(encoding.record(snapshot).text)
    }
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

  /// Keeps an entry in memory and writes it to the file.
  ///
  /// The line is made before the lock is taken: it runs the events' and states' own code.
  private func keep(_ entry: JournalEntry<State, Event>) {
    let line = recorder.writesFile ? encoding.record(entry) : nil
    shared.withLock { shared in
      guard !shared.isClosed else { return }
      if let dropped = shared.ring.append(entry, isStep: entry.isStep),
        case .step(let number, _, _, _, let state) = dropped.kind
      {
        // The dropped step's state is the state before the oldest step kept, if it kept one.
        shared.base = state.map { (number, $0, dropped.time) }
      }
      if let line { write(line, in: &shared) }
    }
  }

  /// Writes a line to the file, if any; a file that cannot be written is reported once and
  /// closed, and the journal goes on in memory.
  private func write(_ line: JSONValue, in shared: inout Shared) {
    guard let file = shared.file else { return }
    var text = line.text
    text += "\n"
    guard let reason = file.write(text) else { return }
    reportUnobserved(
      "\(JournalError(path: file.path, reason: reason)) The journal stops writing it.")
    file.close()
    shared.file = nil
  }
}

extension Journal: ActivityRecorder {
  package func begin(system: String, state: State, at time: ContinuousClock.Instant) -> Bool {
    let state = redaction.states?(state) ?? state
    let isFirst = shared.withLock { shared -> Bool in
      guard shared.system == nil else { return false }
      shared.system = system
      shared.started = WallClock.now()
      if shared.file != nil {
        let header = encoding.header(
          system: system, states: states, started: shared.started, capacity: nil)
        write(header, in: &shared)
      }
      return true
    }
    guard isFirst else { return false }
    recorder.start = time
    recorder.lastState = state
    if states.interval != nil {
      let snapshot = JournalEntry<State, Event>(time: .zero, kind: .snapshot(step: 0, state: state))
      let line = recorder.writesFile ? encoding.record(snapshot) : nil
      shared.withLock { shared in
        shared.base = (0, state, .zero)
        if let line { write(line, in: &shared) }
      }
    }
    return true
  }

  package func record(_ activity: JournalActivity<State, Event>, at time: ContinuousClock.Instant) {
    let elapsed = recorder.start.map { time - $0 } ?? .zero
    let kind: JournalEntry<State, Event>.Kind
    switch activity {
    case .step(let event, let origin, let state):
      let event = redaction.events?(event) ?? event
      let state = redaction.states?(state) ?? state
      recorder.steps += 1
      let changes = recorder.lastState.map { StateDiff.changes(from: $0, to: state) } ?? []
      recorder.lastState = state
      let kept = states.includes(step: recorder.steps) ? state : nil
      kind = .step(recorder.steps, event, origin: name(origin), changes: changes, state: kept)
    case .started(let effect, let request):
      kind = .effect(.started, serial: effect, request: name(request))
    case .cancelled(let effect, let request):
      kind = .effect(.cancelled, serial: effect, request: name(request))
    case .finished(let effect, let request):
      kind = .effect(.finished, serial: effect, request: name(request))
    case .failed(let effect, let request, let error):
      let text = redaction.errors?(error) ?? ValueText.describe(error)
      kind = .failed(serial: effect, request: name(request), error: text)
    case .ignored(let event, let reason, let origin):
      kind = .ignored(redaction.events?(event) ?? event, reason: reason, origin: name(origin))
    case .stopped:
      kind = .stopped
    }
    keep(JournalEntry(time: elapsed, kind: kind))
  }
}

extension Journal {
  /// A request as the journal records it: redacted now, or described when written.
  private func name(_ request: EffectRequest) -> JournalEntry<State, Event>.RequestName {
    guard let redact = redaction.requests else { return .request(request) }
    return .text(redact(request))
  }

  private func name(_ origin: JournalOrigin) -> JournalEntry<State, Event>.Origin {
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

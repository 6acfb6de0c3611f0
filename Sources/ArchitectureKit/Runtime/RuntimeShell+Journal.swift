/// Recording: what the system does, told to the recorders attached to it — printed changes
/// (``System/printChanges(to:)``) and journals (``Journal``).
///
/// The shell holds them in one ``Recording``, `nil` until the first recorder is attached, so
/// every hook on the path of an event or an effect checks one optional and nothing else. Each
/// hook calls a function of this file, out of line: the recording's work (a clock read, a state
/// diff, a line written) stays off the path of a system that records nothing.
extension RuntimeShell {
  /// Attaches a recorder: it sees the current state, then everything the system does.
  ///
  /// - Parameter recorder: The recorder.
  /// - Returns: `false` when the recorder already records a system; it is not attached again.
  @discardableResult
  package func attachRecorder(_ recorder: some ActivityRecorder) -> Bool {
    let recording = recording ?? makeRecording()
    guard recorder.begin(system: "\(owner)", state: core.state, at: MonotonicClock.now()) else {
      reportUnobserved(
        "\(owner): the journal already records a system; a journal records one system only.")
      return false
    }
    recording.recorders.append(recorder)
    return true
  }

  /// Attaches a journal, from a system's initializer (inlinable, where ``attachRecorder(_:)``
  /// cannot be named).
  @usableFromInline
  func attachJournal(_ journal: Journal<State, Event>) {
    guard attachRecorder(journal), let recording else { return }
    // The first journal records its steps inline (``recordStep(_:state:in:)``).
    if recording.stepJournal == nil { recording.stepJournal = journal }
  }

  /// Makes the recording, knowing the requests of the effects already running.
  private func makeRecording() -> Recording {
    let recording = Recording()
    for (id, request) in core.runningRequests {
      recording.requests[id.rawValue] = request
    }
    madeExtras.recording = recording
    return recording
  }

  /// Records a step, once a recorder is attached.
  ///
  /// The recording is lent to the record without a retain: once made, it stays until the
  /// shell goes.
  @inlinable
  func recordStep(_ event: Event, state: State) {
    guard let recording = extras?.recording.map(Unretained.init) else { return }
    recording { recordStep(event, state: state, in: $0) }
  }

  /// Records a step; the core says which effect its event came from.
  ///
  /// Specialized for the system's types: the journal that records steps inline is told
  /// directly (``Journal/recordStepInline(_:origin:state:at:)``), and the other recorders, if
  /// any, through ``Recording/record(_:)`` as before.
  @inlinable
  func recordStep(_ event: Event, state: State, in recording: Recording) {
    let origin = recording.origin(of: core.entrySource)
    if let journal = recording.stepJournal {
      // Only `attachJournal` sets it, with a journal of this system's types.
      let journal = unsafeDowncast(journal, to: Journal<State, Event>.self)
      if journal.recordStepInline(event, origin: origin, state: state, at: MonotonicClock.now()) {
        if recording.hasOtherRecorders {
          recording.record(.step(event: event, origin: origin, state: state), except: journal)
        }
        return
      }
    }
    recording.record(.step(event: event, origin: origin, state: state))
  }

  /// Records an effect's start.
  @usableFromInline
  func recordStart(
    _ id: EffectID, _ request: EffectRequest, in recording: Recording
  ) {
    recording.requests[id.rawValue] = request
    recording.record(.started(effect: id.rawValue, request: request))
  }

  /// Records an effect's end: finished, failed (with its error) or cancelled.
  @usableFromInline
  func recordEnd(
    _ id: EffectID, _ request: EffectRequest, _ end: EffectEnd,
    in recording: Recording
  ) {
    recording.requests[id.rawValue] = nil
    switch end {
    case .finished:
      // Its event, if any, is reduced next, with this effect as its origin.
      recording.finished = (id.rawValue, request)
      recording.record(.finished(effect: id.rawValue, request: request))
    case .failed(let error):
      recording.record(.failed(effect: id.rawValue, request: request, error: error))
    case .cancelled:
      recording.record(.cancelled(effect: id.rawValue, request: request))
    }
  }

  /// Records an event that was not reduced.
  @usableFromInline
  func recordIgnored(
    _ event: Event, _ reason: IgnoredEventReason, in recording: Recording
  ) {
    let origin = recording.origin(of: core.entrySource)
    recording.record(.ignored(event: event, reason: reason, origin: origin))
  }

  /// How an effect ended, for ``recordEnd(_:_:_:in:)``.
  @usableFromInline
  enum EffectEnd {
    case finished
    case failed(any Error)
    case cancelled
  }
}

/// The recorders attached to a system, and what they need to know that the core does not say
/// each time: the requests of the running effects, which name an event's origin.
///
/// Used on its system's isolation only.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: each access is over before the recording calls a
/// recorder (``record(_:)`` calls them on a copy of ``recorders``), and only the shell's
/// recording hooks, on its system's isolation, touch them.
@usableFromInline
package final class Recording {
  /// The recorders, in the order they were attached.
  @exclusivity(unchecked) var recorders: [any ActivityRecorder] = []
  /// The requests of the running effects, by serial number.
  @exclusivity(unchecked) var requests: [UInt64: EffectRequest] = [:]
  /// The effect that finished last: its event, if any, is the next step's.
  @exclusivity(unchecked) var finished: (serial: UInt64, request: EffectRequest)?
  /// The journal that records steps inline, a `Journal` of its system's `State` and `Event`:
  /// the first one attached, if any.
  @exclusivity(unchecked) @usableFromInline var stepJournal: AnyObject?

  /// Whether a recorder other than ``stepJournal`` is attached.
  @usableFromInline var hasOtherRecorders: Bool {
    recorders.count > (stepJournal == nil ? 0 : 1)
  }

  /// Tells every recorder, with the time of this moment.
  @usableFromInline
  func record(_ activity: JournalActivity) {
    record(activity, except: nil)
  }

  /// Tells every recorder but `skipped`, with the time of this moment.
  @usableFromInline
  func record(_ activity: JournalActivity, except skipped: AnyObject?) {
    let now = MonotonicClock.now()
    // A copy: a recorder's output may attach another recorder.
    let recorders = self.recorders
    for recorder in recorders where recorder !== skipped { recorder.record(activity, at: now) }
  }

  /// The origin of an event from the effect with the serial number `serial` (0: the app).
  @usableFromInline
  func origin(of serial: UInt64) -> JournalOrigin {
    guard serial != 0 else { return .app }
    if let request = requests[serial] { return .effect(serial, request: request) }
    if let finished, finished.serial == serial { return .effect(serial, request: finished.request) }
    return .effect(serial, request: nil)
  }
}

import ArchitectureKit
import FunctionalCore
import TestDoubles

/// A feedback request as the model names it: the feedback, the key of a keyed request, and the
/// value (the condition form's `true` is 1).
///
/// The runtime drivers use it as the request value of every feedback, so a request names its
/// feedback and key, and `TestSystem.run(_:)` finds exactly one effect by it.
struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
  let feedback: Int
  let key: Int?
  let value: Int

  init(feedback: Int, key: Int? = nil, value: Int) {
    self.feedback = feedback
    self.key = key
    self.value = value
  }

  init(_ request: EffectRequest) {
    if let id = request.value as? RequestID {
      self = id
      return
    }
    let value = request.value as? Int ?? ((request.value as? Bool) == true ? 1 : -1)
    self.init(feedback: request.feedbackIndex, key: request.key as? Int, value: value)
  }

  static func < (lhs: RequestID, rhs: RequestID) -> Bool {
    (lhs.feedback, lhs.key ?? -1, lhs.value) < (rhs.feedback, rhs.key ?? -1, rhs.value)
  }

  var description: String {
    "f\(feedback)" + (key.map { "[\($0)]" } ?? "") + "=\(value)"
  }

  /// Whether the request's effect is known when it starts (feedback 4, `.pure` or `.failure`).
  var isInline: Bool { feedback == 4 }

  /// Whether the request's effect is a stream (feedback 1).
  var isStream: Bool { feedback == 1 }
}

/// One run of one request: the `generation`-th time that request started.
struct Token: Hashable, Sendable, CustomStringConvertible {
  let request: RequestID
  let generation: Int

  var description: String { "\(request)#\(generation)" }
}

/// A change the test makes to the state.
enum Mutation: Sendable, Equatable, CustomStringConvertible {
  case setSingle(Int?)
  case insertTag(Int)
  case removeTag(Int)
  case setSlot(Int, Int?)
  case setOn(Bool)
  case setEcho(Int?)

  var description: String {
    func show(_ value: Int?) -> String { value.map(String.init) ?? "nil" }
    return switch self {
    case .setSingle(let value): "single=\(show(value))"
    case .insertTag(let tag): "tags+\(tag)"
    case .removeTag(let tag): "tags-\(tag)"
    case .setSlot(let key, let value): "slots[\(key)]=\(show(value))"
    case .setOn(let isOn): "on=\(isOn)"
    case .setEcho(let value): "echo=\(show(value))"
    }
  }
}

enum PropertyEvent: Sendable, Equatable, CustomStringConvertible {
  /// A user event; a loop callback sends `then` during its step.
  case user(Mutation, then: [Mutation])
  /// An effect's result.
  case result(Token)

  var description: String {
    switch self {
    case .user(let mutation, let then) where then.isEmpty: "\(mutation)"
    case .user(let mutation, let then): "\(mutation) then \(then.map { "\($0)" })"
    case .result(let token): "result \(token)"
    }
  }
}

/// A state with a request for every kind of feedback.
struct PropertyState: Equatable, Sendable {
  /// Feedback 0, one request, effects handed to the runtime.
  var single: Int?
  /// Feedback 1, a set of requests, long-running effects.
  var tags: Set<Int> = []
  /// Feedback 2, keyed requests.
  var slots: [Int: Int] = [:]
  /// Feedback 3, the seed's condition form.
  var isOn = false
  /// Feedback 4, one request whose effect completes inline; its result counts the request
  /// down, so one event can cascade into several steps within one drain.
  var echo: Int?
  /// Every effect result reduced, in order.
  var results: [Token] = []
  /// What a loop callback sends after this step: the last user event's follow-ups.
  var followUps: [Mutation] = []

  static func reduce(_ state: inout PropertyState, _ event: PropertyEvent) {
    switch event {
    case .user(let mutation, let then):
      state.followUps = then
      switch mutation {
      case .setSingle(let value): state.single = value
      case .insertTag(let tag): state.tags.insert(tag)
      case .removeTag(let tag): state.tags.remove(tag)
      case .setSlot(let key, let value): state.slots[key] = value
      case .setOn(let isOn): state.isOn = isOn
      case .setEcho(let value): state.echo = value
      }
    case .result(let token):
      state.followUps = []
      state.results.append(token)
      if token.request.feedback == 4, token.request.value > 0 {
        state.echo = token.request.value - 1
      }
    }
  }

  /// The requests this state asks for, across all feedback.
  var requests: Set<RequestID> {
    var requests = Set<RequestID>()
    if let single { requests.insert(RequestID(feedback: 0, value: single)) }
    for tag in tags { requests.insert(RequestID(feedback: 1, value: tag)) }
    for (key, value) in slots { requests.insert(RequestID(feedback: 2, key: key, value: value)) }
    if isOn { requests.insert(RequestID(feedback: 3, value: 1)) }
    if let echo { requests.insert(RequestID(feedback: 4, value: echo)) }
    return requests
  }

  /// Whether the inline effect of an echo request fails instead of producing a result.
  static func echoFails(_ value: Int) -> Bool {
    value % 3 == 2
  }

  /// The outcome an inline (echo) run is known to end with.
  static func inlineOutcome(of token: Token) -> EffectOutcome<PropertyEvent, CounterError> {
    echoFails(token.request.value) ? .failed(.generic) : .event(.result(token))
  }
}

/// The inline effects' count of how often each request started, so their results name the run.
final class Generations {
  var counts: [RequestID: Int] = [:]

  func next(_ request: RequestID) -> Int {
    counts[request, default: 0] += 1
    return counts[request, default: 0]
  }
}

/// What a runtime reported, in the model's terms.
enum RecordedActivity: Equatable, Sendable, CustomStringConvertible {
  case step(PropertyEvent)
  case started(RequestID)
  case cancelled(RequestID)
  case finished(RequestID)
  case failed(RequestID)
  case ignored(PropertyEvent)

  init(_ activity: SystemActivity<PropertyState, PropertyEvent, CounterError>) {
    switch activity {
    case .step(let event, _, _): self = .step(event)
    case .effectStarted(let request): self = .started(RequestID(request))
    case .effectCancelled(let request): self = .cancelled(RequestID(request))
    case .effectFinished(let request): self = .finished(RequestID(request))
    case .effectFailed(let request, _): self = .failed(RequestID(request))
    case .eventIgnored(let event, _): self = .ignored(event)
    }
  }

  var description: String {
    switch self {
    case .step(let event): "step \(event)"
    case .started(let request): "started \(request)"
    case .cancelled(let request): "cancelled \(request)"
    case .finished(let request): "finished \(request)"
    case .failed(let request): "failed \(request)"
    case .ignored(let event): "ignored \(event)"
    }
  }
}

/// The kind of activity on which a hook stops its system (an observer that calls `stop()`).
enum StopTrigger: CaseIterable, Sendable, CustomStringConvertible {
  case step
  case effectStarted
  case effectCancelled
  case effectFinished
  case effectFailed
  case eventIgnored

  func matches(_ activity: RecordedActivity) -> Bool {
    switch (self, activity) {
    case (.step, .step), (.effectStarted, .started), (.effectCancelled, .cancelled),
      (.effectFinished, .finished), (.effectFailed, .failed), (.eventIgnored, .ignored):
      true
    default:
      false
    }
  }

  var description: String {
    switch self {
    case .step: "step"
    case .effectStarted: "effect started"
    case .effectCancelled: "effect cancelled"
    case .effectFinished: "effect finished"
    case .effectFailed: "effect failed"
    case .eventIgnored: "event ignored"
    }
  }
}

/// One thing the test does to a runtime.
enum PropertyAction: Sendable, CustomStringConvertible {
  /// A user sends an event from outside.
  case send(PropertyEvent)
  /// A stream's run sends `.result(token)`.
  case deliver(Token)
  /// A run's effect ends with an outcome (live, or stale after its cancellation).
  case finish(Token, EffectOutcome<PropertyEvent, CounterError>)
  /// An observer will stop the system on the next activity of this kind.
  case armStop(StopTrigger)
  /// The system is stopped from outside.
  case stop

  var description: String {
    switch self {
    case .send(let event): "send \(event)"
    case .deliver(let token): "deliver \(token)"
    case .finish(let token, let outcome): "finish \(token) with \(outcome)"
    case .armStop(let trigger): "stop on the next \(trigger)"
    case .stop: "stop"
    }
  }
}

/// A deliberately naïve reference of the runtime semantics.
///
/// A FIFO queue, the reducer, and request diffing by set difference, feedback by feedback:
/// ``SystemCore`` and every runtime must behave exactly like it. It is the single source of
/// truth of the property tests: it decides which runs the test can act on, and what each
/// runtime must report.
///
/// A *parking* reference models ``TestSystem``: an effect runs only once the test runs it
/// (``launchPending()``), so a known outcome is not queued when its effect starts.
struct ReferenceSystem {
  /// A request's current run.
  struct Run {
    var generation: Int
    var isRunning: Bool
    /// Whether the effect's work exists (always, unless parked until the test runs it).
    var isLaunched: Bool
  }

  enum Entry {
    /// An event; `source` is the stream run that sent it.
    case event(PropertyEvent, source: Token?)
    case outcome(Token, EffectOutcome<PropertyEvent, CounterError>)
  }

  let isParking: Bool
  var state = PropertyState()
  var isStopped = false
  /// The live runs: requests wanted by the state, each with its generation.
  var live: [RequestID: Run] = [:]
  var generations: [RequestID: Int] = [:]
  /// The mailbox: events, and outcomes of effects (a known outcome is queued as it starts).
  var queue: [Entry] = []
  var isDraining = false
  /// The kind of activity on which a hook stops the system, until it does.
  var stopTrigger: StopTrigger?
  /// Launched runs whose effect has not ended, in start order.
  ///
  /// They are the ones the test can make send or end. A cancelled run stays, since its work may
  /// still answer (and must be ignored).
  private(set) var runs: [Token] = []
  /// How many runs were launched (inline runs excluded): the effect bodies a runtime starts.
  private(set) var launchedCount = 0
  /// What happened since the last ``clearHistory()``.
  private(set) var activities: [RecordedActivity] = []

  init(isParking: Bool = false) {
    self.isParking = isParking
  }

  var reduced: [PropertyEvent] {
    activities.compactMap { if case .step(let event) = $0 { event } else { nil } }
  }

  var ignored: [PropertyEvent] {
    activities.compactMap { if case .ignored(let event) = $0 { event } else { nil } }
  }

  /// The requests whose effect runs.
  var runningRequests: [RequestID] {
    live.filter { $0.value.isRunning }.keys.sorted()
  }

  /// The requests whose effect body runs (launched, not inline).
  var runningBodies: [RequestID] {
    live.filter { $0.value.isRunning && $0.value.isLaunched && !$0.key.isInline }.keys.sorted()
  }

  /// A parked inline run, waiting for the test to run it.
  var pendingInline: Token? {
    live.first { $0.key.isInline && $0.value.isRunning && !$0.value.isLaunched }
      .map { Token(request: $0.key, generation: $0.value.generation) }
  }

  func isRunning(_ token: Token) -> Bool {
    live[token.request].map { $0.generation == token.generation && $0.isRunning } ?? false
  }

  mutating func clearHistory() {
    activities = []
  }

  mutating func start() {
    isDraining = true
    reconcile()
    drain()
  }

  mutating func apply(_ action: PropertyAction) {
    switch action {
    case .send(let event): send(event)
    case .deliver(let token): deliver(token)
    case .finish(let token, let outcome): finish(token, with: outcome)
    case .armStop(let trigger): stopTrigger = trigger
    case .stop: stop()
    }
  }

  mutating func send(_ event: PropertyEvent) {
    guard !isStopped else { return record(.ignored(event)) }
    enqueue(.event(event, source: nil))
  }

  mutating func finish(_ token: Token, with outcome: EffectOutcome<PropertyEvent, CounterError>) {
    runs.removeAll { $0 == token }
    enqueue(.outcome(token, outcome))
  }

  mutating func deliver(_ token: Token) {
    enqueue(.event(.result(token), source: token))
  }

  mutating func stop() {
    guard !isStopped else { return }
    isStopped = true
    let running = live.filter { $0.value.isRunning }.keys.sorted()
    live = [:]
    for request in running { record(.cancelled(request)) }
    if !isDraining {
      isDraining = true
      drain()
    }
  }

  /// Launches the runs a parking runtime holds for the test (inline ones excluded).
  mutating func launchPending() -> [Token] {
    var launched: [Token] = []
    for (request, run) in live.sorted(by: { $0.key < $1.key })
    where run.isRunning && !run.isLaunched && !request.isInline {
      live[request]?.isLaunched = true
      launched.append(Token(request: request, generation: run.generation))
    }
    runs += launched
    launchedCount += launched.count
    return launched
  }

  private mutating func enqueue(_ entry: Entry) {
    queue.append(entry)
    guard !isDraining else { return }
    isDraining = true
    drain()
  }

  /// Records an activity, and stops if it is the one a hook waits for.
  private mutating func record(_ activity: RecordedActivity) {
    activities.append(activity)
    if let trigger = stopTrigger, trigger.matches(activity) {
      stopTrigger = nil
      stop()
    }
  }

  private mutating func drain() {
    while !queue.isEmpty {
      switch queue.removeFirst() {
      case .event(let event, let source?) where !isRunning(source):
        record(.ignored(event))
      case .event(let event, _):
        if isStopped {
          record(.ignored(event))
        } else {
          step(event)
        }
      case .outcome(let token, let outcome):
        guard isRunning(token) else {
          if case .event(let stale) = outcome { record(.ignored(stale)) }
          continue
        }
        live[token.request]?.isRunning = false
        switch outcome {
        case .event(let event):
          record(.finished(token.request))
          if isStopped {
            record(.ignored(event))
          } else {
            step(event)
          }
        case .finished, .cancelled:
          record(.finished(token.request))
        case .failed:
          record(.failed(token.request))
        }
      }
    }
    isDraining = false
  }

  private mutating func step(_ event: PropertyEvent) {
    PropertyState.reduce(&state, event)
    // The loop callbacks send the follow-ups before the observers hear of the step.
    queue += state.followUps.map { .event(.user($0, then: []), source: nil) }
    record(.step(event))
    guard !isStopped else { return }
    reconcile()
  }

  /// Feedback by feedback, as the core does: vanished requests are cancelled, then new ones
  /// start; a hook's stop ends the reconciliation. (An event changes one request at most, so
  /// the order within a feedback never matters.)
  private mutating func reconcile() {
    let wanted = state.requests
    for feedback in 0..<5 {
      for request in live.keys where request.feedback == feedback && !wanted.contains(request) {
        guard let run = live.removeValue(forKey: request), run.isRunning else { continue }
        record(.cancelled(request))
        if isStopped { return }
      }
      for request in wanted where request.feedback == feedback && live[request] == nil {
        startRun(request)
        if isStopped { return }
      }
    }
  }

  private mutating func startRun(_ request: RequestID) {
    generations[request, default: 0] += 1
    let token = Token(request: request, generation: generations[request, default: 0])
    live[request] = Run(generation: token.generation, isRunning: true, isLaunched: !isParking)
    if !isParking {
      if request.isInline {
        queue.append(.outcome(token, PropertyState.inlineOutcome(of: token)))
      } else {
        runs.append(token)
        launchedCount += 1
      }
    }
    record(.started(request))
  }
}

/// Draws the random actions of a sequence from the reference, so every runtime driven with the
/// same seed gets the same actions while it agrees with the reference.
enum ActionGenerator {
  static func next(
    using random: inout SplitMix64,
    reference: ReferenceSystem
  ) -> PropertyAction {
    let roll = Int.random(in: 0..<100, using: &random)
    if roll < 50 || reference.runs.isEmpty {
      let followUps = random.chance(25) ? Int.random(in: 1...3, using: &random) : 0
      return .send(
        .user(
          mutation(using: &random),
          then: (0..<followUps).map { _ in mutation(using: &random) }))
    }
    let token = reference.runs[Int.random(in: reference.runs.indices, using: &random)]
    if roll < 70, token.request.isStream {
      return .deliver(token)
    }
    if roll < 94 {
      return .finish(token, outcome(for: token, using: &random))
    }
    if roll < 98 {
      let triggers = StopTrigger.allCases
      return .armStop(triggers[Int.random(in: triggers.indices, using: &random)])
    }
    return .stop
  }

  /// An outcome the run's effect form can produce: a `run` effect (feedback 0) returns or
  /// throws, a stream (1) returns or throws, an `AsyncResult` (2, 3) can also give up as if
  /// cancelled.
  private static func outcome(
    for token: Token,
    using random: inout SplitMix64
  ) -> EffectOutcome<PropertyEvent, CounterError> {
    switch Int.random(in: 0..<4, using: &random) {
    case 1: return .failed(.generic)
    case 2 where [2, 3].contains(token.request.feedback): return .cancelled
    default: return token.request.isStream ? .finished : .event(.result(token))
    }
  }

  private static func mutation(using random: inout SplitMix64) -> Mutation {
    let small = Int.random(in: 0..<4, using: &random)
    let maybe: Int? = random.chance(20) ? nil : small
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return .setSingle(maybe)
    case 1: return .insertTag(small)
    case 2: return .removeTag(small)
    case 3: return .setSlot(Int.random(in: 0..<3, using: &random), maybe)
    case 4: return .setOn(random.chance(60))
    default: return .setEcho(random.chance(30) ? nil : Int.random(in: 0..<6, using: &random))
    }
  }
}

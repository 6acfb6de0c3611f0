import ArchitectureKit
import FunctionalCore
import TestDoubles

/// A feedback request as the model names it: the child element it belongs to, the feedback, the
/// key of a keyed request, and the value (the condition form's `true` is 1).
///
/// The runtime drivers use it as the request value of every feedback, so a request names its
/// element, feedback and key, and `TestSystem.run(_:)` finds exactly one effect by it.
struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The identifier of the child the request belongs to; `nil` for the parent's own feedback.
  let element: Int?
  let feedback: Int
  let key: Int?
  let value: Int

  init(element: Int? = nil, feedback: Int, key: Int? = nil, value: Int) {
    self.element = element
    self.feedback = feedback
    self.key = key
    self.value = value
  }

  /// The request a runtime reported; the element always comes from the request's scope, so a
  /// child request reported under the wrong scope names another request.
  init(_ request: EffectRequest) {
    let element = PropertyChild.element(inScope: request.scope)
    if let id = request.value as? RequestID {
      self.init(element: element, feedback: id.feedback, key: id.key, value: id.value)
      return
    }
    let value = request.value as? Int ?? ((request.value as? Bool) == true ? 1 : -1)
    self.init(
      element: element, feedback: request.feedbackIndex, key: request.key as? Int, value: value)
  }

  // Written out, as the derived and tuple forms cost the property tests a tenth of their time
  // in debug builds (generic metadata lookups on every hash and comparison).
  static func < (lhs: RequestID, rhs: RequestID) -> Bool {
    let (left, right) = (lhs.element ?? -1, rhs.element ?? -1)
    if left != right { return left < right }
    if lhs.feedback != rhs.feedback { return lhs.feedback < rhs.feedback }
    let (leftKey, rightKey) = (lhs.key ?? -1, rhs.key ?? -1)
    if leftKey != rightKey { return leftKey < rightKey }
    return lhs.value < rhs.value
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(element ?? -1)
    hasher.combine(feedback)
    hasher.combine(key ?? -1)
    hasher.combine(value)
  }

  var description: String {
    let request = "f\(feedback)" + (key.map { "[\($0)]" } ?? "") + "=\(value)"
    return element.map { "\(PropertyChild.scope(of: $0)): \(request)" } ?? request
  }

  /// Whether the request's effect is known when it starts (the parent's feedback 4, `.pure` or
  /// `.failure`).
  var isInline: Bool { element == nil && feedback == 4 }

  /// Whether the request's effect is a stream (feedback 1, the parent's and a child's).
  var isStream: Bool { feedback == 1 }
}

/// One run of one request: the `generation`-th time that request started.
struct Token: Hashable, Sendable, CustomStringConvertible {
  let request: RequestID
  let generation: Int

  var description: String { "\(request)#\(generation)" }

  /// The event the run's effect sends: its result, embedded for a child's run.
  var event: PropertyEvent {
    element.map { .child($0, .result(self)) } ?? .result(self)
  }

  /// The child the run belongs to, if any.
  var element: Int? { request.element }
}

/// A change the test makes to the state, through the parent's reducer.
enum Mutation: Sendable, Equatable, CustomStringConvertible {
  case setSingle(Int?)
  case insertTag(Int)
  case removeTag(Int)
  case setSlot(Int, Int?)
  case setOn(Bool)
  case setEcho(Int?)
  /// Inserts a fresh child at `index` (clamped), unless a child has that identifier.
  case addChild(Int, single: Int?, at: Int)
  case removeChild(Int)
  /// Moves a child to `index` (clamped): its effects must not notice.
  case moveChild(Int, to: Int)
  /// The parent changes a child's request itself, as a parent may.
  case setChildSingle(Int, Int?)

  var description: String {
    func show(_ value: Int?) -> String { value.map(String.init) ?? "nil" }
    return switch self {
    case .setSingle(let value): "single=\(show(value))"
    case .insertTag(let tag): "tags+\(tag)"
    case .removeTag(let tag): "tags-\(tag)"
    case .setSlot(let key, let value): "slots[\(key)]=\(show(value))"
    case .setOn(let isOn): "on=\(isOn)"
    case .setEcho(let value): "echo=\(show(value))"
    case .addChild(let id, let single, let index): "children+\(id)(\(show(single)))@\(index)"
    case .removeChild(let id): "children-\(id)"
    case .moveChild(let id, let index): "children[\(id)]->@\(index)"
    case .setChildSingle(let id, let value): "children[\(id)].single=\(show(value))"
    }
  }
}

/// A change an event addressed to a child makes, through the child's reducer.
enum ChildMutation: Sendable, Equatable, CustomStringConvertible {
  case setSingle(Int?)
  case insertTag(Int)
  case removeTag(Int)

  var description: String {
    switch self {
    case .setSingle(let value): "single=\(value.map(String.init) ?? "nil")"
    case .insertTag(let tag): "tags+\(tag)"
    case .removeTag(let tag): "tags-\(tag)"
    }
  }
}

/// The event of one child feature.
enum ChildEvent: Sendable, Equatable, CustomStringConvertible {
  case user(ChildMutation)
  /// One of the child's effect results.
  case result(Token)

  var description: String {
    switch self {
    case .user(let mutation): "\(mutation)"
    case .result(let token): "result \(token)"
    }
  }
}

enum PropertyEvent: Sendable, Equatable, CustomStringConvertible {
  /// A user event; a loop callback sends `then` during its step.
  case user(Mutation, then: [Mutation])
  /// An effect's result.
  case result(Token)
  /// An event for the child with this identifier, present or not.
  case child(Int, ChildEvent)

  var description: String {
    switch self {
    case .user(let mutation, let then) where then.isEmpty: "\(mutation)"
    case .user(let mutation, let then): "\(mutation) then \(then.map { "\($0)" })"
    case .result(let token): "result \(token)"
    case .child(let id, let event): "\(PropertyChild.scope(of: id)) \(event)"
    }
  }

  /// The child identifier and event, for `forEach`.
  var child: (Int, ChildEvent)? {
    if case .child(let id, let event) = self { (id, event) } else { nil }
  }
}

/// The state of one child: a request of each of two feedback forms, so each element runs
/// effects of its own.
struct PropertyChild: Identifiable, Equatable, Sendable {
  let id: Int
  /// Child feedback 0, one request, a `run` effect.
  var single: Int?
  /// Child feedback 1, a set of requests, long-running effects.
  var tags: Set<Int> = []
  /// The child's effect results it reduced, in order.
  var results: [Token] = []

  static func reduce(_ child: inout PropertyChild, _ event: ChildEvent) {
    switch event {
    case .user(.setSingle(let value)): child.single = value
    case .user(.insertTag(let tag)): child.tags.insert(tag)
    case .user(.removeTag(let tag)): child.tags.remove(tag)
    case .result(let token): child.results.append(token)
    }
  }

  /// The requests this child asks for, named with its identifier.
  var requests: [RequestID] {
    var requests = tags.map { RequestID(element: id, feedback: 1, value: $0) }
    if let single { requests.append(RequestID(element: id, feedback: 0, value: single)) }
    return requests
  }

  /// The scope `forEach` names the child's requests and missing events with.
  static func scope(of id: Int) -> String {
    "children[\(id)]"
  }

  /// The child identifier a scope names: `nil` for the parent's own (empty) scope, and an
  /// identifier no child has (-1) for any other scope, so a wrong scope never matches.
  static func element(inScope scope: String) -> Int? {
    guard !scope.isEmpty else { return nil }
    guard scope.hasPrefix("children["), scope.hasSuffix("]"),
      let id = Int(scope.dropFirst("children[".count).dropLast())
    else { return -1 }
    return id
  }
}

/// A state with a request for every kind of feedback, and children that have their own.
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
  /// The children, run by `forEach` (feedback 5): each has effects of its own.
  var children: [PropertyChild] = []
  /// Every effect result reduced, in order, the children's included.
  var results: [Token] = []
  /// How many results the child held when the parent reduced each child result: the child's
  /// reducer runs first, so it always counts that result.
  var childResultCounts: [Int] = []
  /// What a loop callback sends after this step: the last user event's follow-ups.
  var followUps: [Mutation] = []

  /// The parent's own reducer; `forEach` runs the child's first on a child's event.
  static func reduce(_ state: inout PropertyState, _ event: PropertyEvent) {
    switch event {
    case .user(let mutation, let then):
      state.followUps = then
      apply(mutation, to: &state)
    case .result(let token):
      state.followUps = []
      state.results.append(token)
      if token.request.feedback == 4, token.request.value > 0 {
        state.echo = token.request.value - 1
      }
    case .child(let id, let event):
      state.followUps = []
      if case .result(let token) = event {
        state.results.append(token)
        state.childResultCounts.append(
          state.children.first { $0.id == id }.map(\.results.count) ?? -1)
      }
    }
  }

  private static func apply(_ mutation: Mutation, to state: inout PropertyState) {
    let children = state.children
    func clamped(_ index: Int) -> Int { min(max(index, 0), children.count) }
    func index(_ id: Int) -> Int? { children.firstIndex { $0.id == id } }
    switch mutation {
    case .setSingle(let value): state.single = value
    case .insertTag(let tag): state.tags.insert(tag)
    case .removeTag(let tag): state.tags.remove(tag)
    case .setSlot(let key, let value): state.slots[key] = value
    case .setOn(let isOn): state.isOn = isOn
    case .setEcho(let value): state.echo = value
    case .addChild(let id, let single, let position):
      guard index(id) == nil else { return }
      state.children.insert(PropertyChild(id: id, single: single), at: clamped(position))
    case .removeChild(let id):
      state.children.removeAll { $0.id == id }
    case .moveChild(let id, let position):
      guard let from = index(id) else { return }
      let child = state.children.remove(at: from)
      state.children.insert(child, at: min(max(position, 0), state.children.count))
    case .setChildSingle(let id, let value):
      guard let at = index(id) else { return }
      state.children[at].single = value
    }
  }

  /// What `forEach` does, written out naïvely: an event for a child runs the child's reducer
  /// on that child, then the parent's; an event for a child the state does not hold is not
  /// reduced at all.
  ///
  /// - Returns: The scope of the missing child, when the event was not reduced.
  static func referenceReduce(_ state: inout PropertyState, _ event: PropertyEvent) -> String? {
    if case .child(let id, let childEvent) = event {
      guard let at = state.children.firstIndex(where: { $0.id == id }) else {
        return PropertyChild.scope(of: id)
      }
      PropertyChild.reduce(&state.children[at], childEvent)
    }
    reduce(&state, event)
    return nil
  }

  /// The requests this state asks for, across all feedback, the children's included.
  var requests: Set<RequestID> {
    var requests = Set<RequestID>()
    if let single { requests.insert(RequestID(feedback: 0, value: single)) }
    for tag in tags { requests.insert(RequestID(feedback: 1, value: tag)) }
    for (key, value) in slots { requests.insert(RequestID(feedback: 2, key: key, value: value)) }
    if isOn { requests.insert(RequestID(feedback: 3, value: 1)) }
    if let echo { requests.insert(RequestID(feedback: 4, value: echo)) }
    for child in children { requests.formUnion(child.requests) }
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
  /// An event not reduced; `missingChild` is the scope `forEach` reported it missing at, `nil`
  /// for the other reasons.
  case ignored(PropertyEvent, missingChild: String? = nil)

  init(_ activity: SystemActivity<PropertyState, PropertyEvent, CounterError>) {
    switch activity {
    case .step(let event, _, _): self = .step(event)
    case .effectStarted(let request): self = .started(RequestID(request))
    case .effectCancelled(let request): self = .cancelled(RequestID(request))
    case .effectFinished(let request): self = .finished(RequestID(request))
    case .effectFailed(let request, _): self = .failed(RequestID(request))
    case .eventIgnored(let event, .missingChild(let scope)):
      self = .ignored(event, missingChild: scope)
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
    case .ignored(let event, nil): "ignored \(event)"
    case .ignored(let event, let scope?): "ignored \(event): no child at \(scope)"
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
    /// When the run started, among all runs: a removed child's runs are cancelled in this order.
    var order: Int
  }

  /// How often a sequence met each per-element lifetime the property test is about, so a test
  /// can check that the random sequences reach them.
  struct ChildCoverage {
    /// Running effects of a child cancelled because the child left the state.
    var cancelledByRemoval = 0
    /// Results and stream events of those effects that came late, and were dropped.
    var lateResultsOfRemoved = 0
    /// Requests a child started again after it was removed and came back.
    var startsAfterReappearing = 0
    /// Effects a child started while another child ran an equal request.
    var equalRequestsOfTwoChildren = 0
    /// Events for a child the state did not hold.
    var eventsForMissingChildren = 0
    /// Child events reduced by the child's and the parent's reducers.
    var childEventsReduced = 0

    /// Every count, by name.
    static var counts: [(name: String, count: WritableKeyPath<ChildCoverage, Int>)] {
      [
        ("child effects cancelled by removal", \.cancelledByRemoval),
        ("late results of removed children", \.lateResultsOfRemoved),
        ("starts of a child that came back", \.startsAfterReappearing),
        ("equal requests of two children", \.equalRequestsOfTwoChildren),
        ("events for missing children", \.eventsForMissingChildren),
        ("child events reduced", \.childEventsReduced),
      ]
    }

    static func += (lhs: inout ChildCoverage, rhs: ChildCoverage) {
      for (_, count) in counts { lhs[keyPath: count] += rhs[keyPath: count] }
    }
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
  private(set) var coverage = ChildCoverage()
  /// Runs cancelled because their child left the state (coverage only).
  private var removedRuns: Set<Token> = []
  /// Children that left the state once (coverage only).
  private var removedChildren: Set<Int> = []
  private var startCount = 0

  init(isParking: Bool = false) {
    self.isParking = isParking
  }

  var reduced: [PropertyEvent] {
    activities.compactMap { if case .step(let event) = $0 { event } else { nil } }
  }

  var ignored: [PropertyEvent] {
    activities.compactMap { if case .ignored(let event, _) = $0 { event } else { nil } }
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
    enqueue(.event(token.event, source: token))
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
        if removedRuns.contains(source) { coverage.lateResultsOfRemoved += 1 }
        record(.ignored(event))
      case .event(let event, _):
        if isStopped {
          record(.ignored(event))
        } else {
          step(event)
        }
      case .outcome(let token, let outcome):
        guard isRunning(token) else {
          if removedRuns.contains(token) { coverage.lateResultsOfRemoved += 1 }
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
    if let missing = PropertyState.referenceReduce(&state, event) {
      // Neither reducer ran: no step, no follow-ups, nothing to reconcile.
      coverage.eventsForMissingChildren += 1
      return record(.ignored(event, missingChild: missing))
    }
    if case .child = event { coverage.childEventsReduced += 1 }
    // The loop callbacks send the follow-ups before the observers hear of the step.
    queue += state.followUps.map { .event(.user($0, then: []), source: nil) }
    record(.step(event))
    guard !isStopped else { return }
    reconcile()
  }

  /// Reconciles feedback by feedback, as the core does.
  ///
  /// First the parent's five feedback, then `forEach`'s, which goes through the children in
  /// the state's order (each child's two feedback in turn) and then retires the children that
  /// left. Within a feedback, vanished requests are cancelled, then new ones start; a hook's
  /// stop ends the reconciliation. An event changes one parent request or one child at most,
  /// so the order within a feedback never matters.
  private mutating func reconcile() {
    let wanted = state.requests
    let vanished = live.keys.filter { !wanted.contains($0) }
    let new = wanted.filter { live[$0] == nil }
    guard !vanished.isEmpty || !new.isEmpty else { return }
    let positions = Dictionary(
      uniqueKeysWithValues: state.children.enumerated().map { ($1.id, $0) })
    // Where a request's feedback comes in the reconciliation; a child that left comes last.
    func turn(_ request: RequestID) -> Int {
      guard let element = request.element else { return request.feedback }
      guard let position = positions[element] else { return .max }
      return 5 + 2 * position + request.feedback
    }
    for feedback in Set(vanished.map(turn) + new.map(turn)).sorted() {
      if feedback == .max {
        retire(vanished.filter { turn($0) == .max })
        return
      }
      for request in vanished.filter({ turn($0) == feedback }).sorted() {
        guard let run = live.removeValue(forKey: request), run.isRunning else { continue }
        record(.cancelled(request))
        if isStopped { return }
      }
      for request in new.filter({ turn($0) == feedback }).sorted() {
        startRun(request)
        if isStopped { return }
      }
    }
  }

  /// Retires the requests of children that left the state: exactly their own runs are
  /// cancelled, in the order they started; a finished run leaves quietly.
  private mutating func retire(_ requests: [RequestID]) {
    let retired = requests.compactMap { request in live[request].map { (request, $0) } }
    for (request, run) in retired.sorted(by: { $0.1.order < $1.1.order }) {
      live[request] = nil
      removedChildren.insert(request.element ?? -1)
      guard run.isRunning else { continue }
      removedRuns.insert(Token(request: request, generation: run.generation))
      coverage.cancelledByRemoval += 1
      record(.cancelled(request))
      if isStopped { return }
    }
  }

  private mutating func startRun(_ request: RequestID) {
    generations[request, default: 0] += 1
    startCount += 1
    let token = Token(request: request, generation: generations[request, default: 0])
    if let element = request.element {
      if removedChildren.contains(element) { coverage.startsAfterReappearing += 1 }
      let isEqualElsewhere = live.contains { other, run in
        run.isRunning && other.element != element && other.element != nil
          && other.feedback == request.feedback && other.value == request.value
      }
      if isEqualElsewhere { coverage.equalRequestsOfTwoChildren += 1 }
    }
    live[request] = Run(
      generation: token.generation, isRunning: true, isLaunched: !isParking, order: startCount)
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
  /// The identifiers children are added with; events also go to one no child ever has.
  static let childIDs = 0..<4

  static func next(
    using random: inout SplitMix64,
    reference: ReferenceSystem
  ) -> PropertyAction {
    let roll = Int.random(in: 0..<100, using: &random)
    if roll < 50 || reference.runs.isEmpty {
      if random.chance(25) {
        // Often to a child that is there, sometimes to one that is not (or no longer).
        let present = reference.state.children.map(\.id)
        let id =
          !present.isEmpty && random.chance(75)
          ? present[Int.random(in: present.indices, using: &random)]
          : Int.random(in: childIDs.lowerBound...childIDs.upperBound, using: &random)
        return .send(.child(id, .user(childMutation(using: &random))))
      }
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

  /// An outcome the run's effect form can produce: a `run` effect (the parent's and a child's
  /// feedback 0) returns or throws, a stream (1) returns or throws, an `AsyncResult` (the
  /// parent's 2 and 3) can also give up as if cancelled.
  private static func outcome(
    for token: Token,
    using random: inout SplitMix64
  ) -> EffectOutcome<PropertyEvent, CounterError> {
    let canGiveUp = token.element == nil && [2, 3].contains(token.request.feedback)
    switch Int.random(in: 0..<4, using: &random) {
    case 1: return .failed(.generic)
    case 2 where canGiveUp: return .cancelled
    default: return token.request.isStream ? .finished : .event(token.event)
    }
  }

  private static func mutation(using random: inout SplitMix64) -> Mutation {
    let small = Int.random(in: 0..<4, using: &random)
    let maybe: Int? = random.chance(20) ? nil : small
    let child = Int.random(in: childIDs, using: &random)
    switch Int.random(in: 0..<11, using: &random) {
    case 0: return .setSingle(maybe)
    case 1: return .insertTag(small)
    case 2: return .removeTag(small)
    case 3: return .setSlot(Int.random(in: 0..<3, using: &random), maybe)
    case 4: return .setOn(random.chance(60))
    case 5: return .setEcho(random.chance(30) ? nil : Int.random(in: 0..<6, using: &random))
    case 6, 7: return .addChild(child, single: maybe, at: Int.random(in: 0...4, using: &random))
    case 8: return .removeChild(child)
    case 9: return .moveChild(child, to: Int.random(in: 0...4, using: &random))
    default: return .setChildSingle(child, maybe)
    }
  }

  private static func childMutation(using random: inout SplitMix64) -> ChildMutation {
    let small = Int.random(in: 0..<4, using: &random)
    switch Int.random(in: 0..<3, using: &random) {
    case 0: return .setSingle(random.chance(20) ? nil : small)
    case 1: return .insertTag(small)
    default: return .removeTag(small)
    }
  }
}

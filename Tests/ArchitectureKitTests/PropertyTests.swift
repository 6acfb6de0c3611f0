import ArchitectureKit
import FunctionalCore
import Testing

/// A feedback request as the model names it: the feedback, the key of a keyed request, and the
/// value (the condition form's `true` is 1).
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
    let value = request.value as? Int ?? ((request.value as? Bool) == true ? 1 : -1)
    self.init(feedback: request.feedbackIndex, key: request.key as? Int, value: value)
  }

  static func < (lhs: RequestID, rhs: RequestID) -> Bool {
    (lhs.feedback, lhs.key ?? -1, lhs.value) < (rhs.feedback, rhs.key ?? -1, rhs.value)
  }

  var description: String {
    "f\(feedback)" + (key.map { "[\($0)]" } ?? "") + "=\(value)"
  }
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
  /// A user event; the runtime's listener sends `then` during its step.
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
struct PropertyState: Equatable {
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

  static func reduce(_ state: inout PropertyState, _ event: PropertyEvent) {
    switch event {
    case .user(let mutation, _):
      switch mutation {
      case .setSingle(let value): state.single = value
      case .insertTag(let tag): state.tags.insert(tag)
      case .removeTag(let tag): state.tags.remove(tag)
      case .setSlot(let key, let value): state.slots[key] = value
      case .setOn(let isOn): state.isOn = isOn
      case .setEcho(let value): state.echo = value
      }
    case .result(let token):
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
}

/// The inline effects' count of how often each request started, so their results name the run.
final class Generations {
  var counts: [RequestID: Int] = [:]

  func next(_ request: RequestID) -> Int {
    counts[request, default: 0] += 1
    return counts[request, default: 0]
  }
}

/// A deliberately naïve reference of the runtime semantics.
///
/// A FIFO queue, the reducer, and request diffing by set difference: ``SystemCore`` must behave
/// exactly like it.
struct ReferenceSystem {
  var state = PropertyState()
  var isStopped = false
  /// The live runs: requests wanted by the state, each with its generation.
  var live: [RequestID: (generation: Int, isRunning: Bool)] = [:]
  var generations: [RequestID: Int] = [:]
  /// The mailbox: events, and outcomes of effects (a known outcome is queued as it starts).
  var queue: [Entry] = []

  enum Entry {
    case event(PropertyEvent)
    case outcome(Token, EffectOutcome<PropertyEvent, CounterError>)
  }
  // What happened since the last `clearHistory()`.
  var reduced: [PropertyEvent] = []
  var ignored: [PropertyEvent] = []
  var started: [RequestID] = []
  var cancelled: [RequestID] = []

  mutating func clearHistory() {
    reduced = []
    ignored = []
    started = []
    cancelled = []
  }

  mutating func start() {
    reconcile()
    drain()
  }

  mutating func send(_ event: PropertyEvent) {
    guard !isStopped else { return ignored.append(event) }
    queue.append(.event(event))
    drain()
  }

  mutating func finish(_ token: Token, with outcome: EffectOutcome<PropertyEvent, CounterError>) {
    queue.append(.outcome(token, outcome))
    drain()
  }

  mutating func deliver(_ token: Token) {
    queue.append(.event(.result(token)))
    drain()
  }

  mutating func stop() {
    guard !isStopped else { return }
    isStopped = true
    cancelled += live.filter(\.value.isRunning).keys
    live = [:]
    drain()
  }

  private func isRunning(_ token: Token) -> Bool {
    live[token.request].map { $0.generation == token.generation && $0.isRunning } ?? false
  }

  private mutating func drain() {
    while !queue.isEmpty {
      let entry = queue.removeFirst()
      let event: PropertyEvent
      switch entry {
      case .event(.result(let token)) where !isRunning(token):
        ignored.append(.result(token))
        continue
      case .event(let sent):
        guard !isStopped else {
          ignored.append(sent)
          continue
        }
        event = sent
      case .outcome(let token, let outcome):
        guard isRunning(token) else {
          if case .event(let stale) = outcome { ignored.append(stale) }
          continue
        }
        live[token.request]?.isRunning = false
        guard case .event(let result) = outcome else { continue }
        event = result
      }
      PropertyState.reduce(&state, event)
      reduced.append(event)
      if case .user(_, let then) = event {
        queue += then.map { .event(.user($0, then: [])) }
      }
      reconcile()
    }
  }

  private mutating func reconcile() {
    let wanted = state.requests
    for (request, run) in live where !wanted.contains(request) {
      live[request] = nil
      if run.isRunning { cancelled.append(request) }
    }
    for request in wanted where live[request] == nil {
      generations[request, default: 0] += 1
      let generation = generations[request, default: 0]
      started.append(request)
      live[request] = (generation, true)
      guard request.feedback == 4 else { continue }
      let token = Token(request: request, generation: generation)
      queue.append(
        .outcome(
          token,
          PropertyState.echoFails(request.value) ? .failed(.generic) : .event(.result(token))))
    }
  }
}

/// Drives a ``SystemCore`` and the reference side by side with random actions, and checks
/// after every action (and, through the core's output, after every step) that they agree.
final class CoreHarness {
  typealias Core = SystemCore<PropertyState, PropertyEvent, CounterError, EmptyContext>

  let core: Core
  var reference = ReferenceSystem()
  var random: SplitMix64
  /// Every handed-out run, by its identifier, with the token its results carry.
  var runs: [(id: EffectID, token: Token)] = []
  /// Runs the harness has ended (a stream sends nothing after it ended).
  var ended: Set<EffectID> = []
  var startCounts: [RequestID: Int] = [:]
  // What the core reported since the last action.
  var reduced: [PropertyEvent] = []
  var ignored: [PropertyEvent] = []
  var started: [RequestID] = []
  var cancelled: [RequestID] = []
  /// Steps taken within the current action, to stop a runaway drain.
  var steps = 0
  let location: SourceLocation

  init(seed: UInt64, location: SourceLocation = #_sourceLocation) {
    self.random = SplitMix64(seed: seed)
    self.location = location
    let generations = Generations()
    core = Core(
      initialState: PropertyState(),
      reduce: PropertyState.reduce,
      feedback: [
        .react(request: \.single, run: { _, _ in .user(.setOn(false), then: []) }),
        .react(requests: \.tags, stream: { _, _, _ in }),
        .react(keyedRequests: \.slots, run: { _, _ in .user(.setOn(false), then: []) }),
        .react({ _ in .unfold { _, _ in } }, when: \.isOn),
        .react(
          request: \.echo,
          effects: { value in
            let request = RequestID(feedback: 4, value: value)
            let generation = generations.next(request)
            return PropertyState.echoFails(value)
              ? .failure(.generic)
              : .pure(.result(Token(request: request, generation: generation)))
          }),
      ]
    )
    core.retainsPreviousState = true
  }

  /// Runs `count` random actions, checking after each; returns `false` on the first mismatch.
  func run(actions count: Int) -> Bool {
    perform(core: { core.start(handle: $0) }, reference: { $0.start() })
    guard check("start") else { return false }
    for index in 0..<count {
      let description = randomAction()
      guard check("action \(index): \(description)") else { return false }
    }
    return true
  }

  private func randomAction() -> String {
    let roll = Int.random(in: 0..<100, using: &random)
    if roll < 55 || runs.isEmpty {
      let followUps = random.chance(25) ? Int.random(in: 1...3, using: &random) : 0
      let event = PropertyEvent.user(
        randomMutation(), then: (0..<followUps).map { _ in randomMutation() })
      perform(core: { core.send(event, handle: $0) }, reference: { $0.send(event) })
      return "send \(event)"
    }
    let (id, token) = runs[Int.random(in: runs.indices, using: &random)]
    let isStream = token.request.feedback == 1
    if roll < 75, isStream, !ended.contains(id) {
      perform(
        core: { core.deliver(.result(token), from: id, handle: $0) },
        reference: { $0.deliver(token) })
      return "deliver \(token) from \(id)"
    }
    if roll < 98 {
      let outcome: EffectOutcome<PropertyEvent, CounterError> =
        switch Int.random(in: 0..<4, using: &random) {
        case 1: .failed(.generic)
        case 2: .cancelled
        default: isStream ? .finished : .event(.result(token))
        }
      ended.insert(id)
      perform(
        core: { core.finish(id, with: outcome, handle: $0) },
        reference: { $0.finish(token, with: outcome) })
      return "finish \(token) (\(id)) with \(outcome)"
    }
    perform(core: { core.stop(handle: $0) }, reference: { $0.stop() })
    return "stop"
  }

  private func randomMutation() -> Mutation {
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

  /// Runs one action on the core, recording its output, then on the reference.
  private func perform(
    core body: ((Core.Output) -> Void) -> Void,
    reference update: (inout ReferenceSystem) -> Void
  ) {
    reduced = []
    ignored = []
    started = []
    cancelled = []
    steps = 0
    reference.clearHistory()
    body { output in handle(output) }
    update(&reference)
  }

  private func handle(_ output: Core.Output) {
    switch output {
    case .stepped(let event, let previous):
      reduced.append(event)
      // After every step, before the next one reconciles: the live requests are exactly the
      // ones the previous state asked for.
      if let previous {
        let live = Set(core.liveRequests.map { RequestID($0.request) })
        if live != previous.requests {
          Issue.record(
            "live \(live.sorted()) but the state asks for \(previous.requests.sorted())",
            sourceLocation: location)
        }
      }
      steps += 1
      if steps > 10_000 {
        Issue.record("a drain ran away", sourceLocation: location)
        core.stop { _ in }
        return
      }
      // Listeners send these during the step: they must queue behind it.
      if case .user(_, let then) = event {
        for mutation in then { core.send(.user(mutation, then: []), handle: handle) }
      }
    case .effectStarted(let id, let request, let effect):
      let request = RequestID(request)
      started.append(request)
      startCounts[request, default: 0] += 1
      // A known outcome is reported at once, as the runtime does; the rest the harness ends.
      if case .done(let result) = effect {
        core.finish(id, with: EffectOutcome(result), handle: handle)
      } else {
        runs.append((id, Token(request: request, generation: startCounts[request, default: 0])))
      }
    case .effectCancelled(_, let request):
      cancelled.append(RequestID(request))
    case .eventIgnored(let event, _):
      ignored.append(event)
    case .effectFinished, .effectFailed:
      break
    }
  }

  private func check(_ action: String) -> Bool {
    var mismatches: [String] = []
    if core.state != reference.state {
      mismatches.append("state \(core.state), reference \(reference.state)")
    }
    if reduced != reference.reduced {
      mismatches.append("reduced \(reduced), reference \(reference.reduced)")
    }
    if ignored != reference.ignored {
      mismatches.append("ignored \(ignored), reference \(reference.ignored)")
    }
    if started.sorted() != reference.started.sorted() {
      mismatches.append("started \(started.sorted()), reference \(reference.started.sorted())")
    }
    if cancelled.sorted() != reference.cancelled.sorted() {
      mismatches.append(
        "cancelled \(cancelled.sorted()), reference \(reference.cancelled.sorted())")
    }
    let live = Set(core.liveRequests.map { RequestID($0.request) })
    let wanted = core.isStopped ? [] : core.state.requests
    if live != wanted || live != Set(reference.live.keys) {
      mismatches.append("live \(live.sorted()), the state asks for \(wanted.sorted())")
    }
    let running = Set(core.runningRequests.map { RequestID($0.request) })
    if running != Set(reference.live.filter(\.value.isRunning).keys) {
      mismatches.append("running \(running.sorted())")
    }
    guard mismatches.isEmpty else {
      Issue.record(
        "After \(action):\n\(mismatches.joined(separator: "\n"))", sourceLocation: location)
      return false
    }
    return true
  }
}

struct PropertyTests {
  @Test func theGeneratorReplaysTheReferenceSequence() {
    var random = SplitMix64(seed: 0)
    #expect(random.next() == 0xE220_A839_7B1D_CDAF)
    #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    #expect(random.next() == 0x06C4_5D18_8009_454F)
  }

  /// 8 seeds × 250 sequences of 10 to 60 random actions: sends (with reentrant follow-ups),
  /// effect results (live and stale), stream events, failures and stops.
  @Test(arguments: 0..<8 as Range<UInt64>)
  func theCoreBehavesLikeTheReferenceOverRandomSequences(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for sequence in 0..<StressLoad.scaled(250) {
      let sequenceSeed = random.next()
      let harness = CoreHarness(seed: sequenceSeed)
      let actions = Int.random(in: 10...60, using: &random)
      guard harness.run(actions: actions) else {
        Issue.record("Sequence \(sequence) of seed \(seed) (sequence seed \(sequenceSeed)).")
        return
      }
    }
  }

  @Test(arguments: 0..<4 as Range<UInt64>)
  func theFinalStateIsTheReducerFoldedOverTheEvents(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<500 {
      let events = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        Int.random(in: -100...100, using: &random)
      }
      let reduce: (inout [Int], Int) -> Void = { state, event in
        state.append(event)
        if state.count > 5, event < 0 { state.removeFirst() }
      }
      let core = SystemCore<[Int], Int, Never, EmptyContext>(
        initialState: [], reduce: reduce, feedback: [])
      core.start { _ in }
      for event in events { core.send(event) { _ in } }
      let folded = events.reduce(into: [Int]()) { reduce(&$0, $1) }
      #expect(core.state == folded)
    }
  }
}

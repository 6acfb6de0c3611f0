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

  /// The event the run's effect sends: its result, embedded for a child's or a screen's run.
  var event: PropertyEvent {
    guard let element else { return .result(self) }
    switch element {
    case ScreenPlace.destinationA: return .destination(.a(.result(self)))
    case ScreenPlace.destinationB: return .destination(.b(.result(self)))
    default:
      if let id = ScreenPlace.stackID(of: element) { return .path(id, .result(self)) }
      return .child(element, .result(self))
    }
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
  /// Presents a new destination screen, in case `a` (0) or `b` (1).
  case present(Int, single: Int?)
  /// Presents the destination anew, equal to what it is: a new screen with equal requests.
  case presentAgain
  case dismiss
  /// Changes the destination screen's request in place.
  case setDestinationSingle(Int?)
  /// Moves the destination screen to the other case, in place.
  case switchCaseInPlace
  case push(single: Int?)
  case pop
  case popToRoot

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
    case .present(let kind, let single): "present \(kind == 0 ? "a" : "b")(\(show(single)))"
    case .presentAgain: "present again"
    case .dismiss: "dismiss"
    case .setDestinationSingle(let value): "destination.single=\(show(value))"
    case .switchCaseInPlace: "switch case in place"
    case .push(let single): "push(\(show(single)))"
    case .pop: "pop"
    case .popToRoot: "pop to root"
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
  /// An event for the destination's screen in one case, presented or not.
  case destination(DestinationEvent)
  /// An event for the stack's screen with this ID, on the stack or not.
  case path(StackID, ScreenEvent)

  var description: String {
    switch self {
    case .user(let mutation, let then) where then.isEmpty: "\(mutation)"
    case .user(let mutation, let then): "\(mutation) then \(then.map { "\($0)" })"
    case .result(let token): "result \(token)"
    case .child(let id, let event): "\(PropertyChild.scope(of: id)) \(event)"
    case .destination(let event): "destination.\(event.caseName) \(event.screenEvent)"
    case .path(let id, let event): "path[\(id)] \(event)"
    }
  }

  /// The child identifier and event, for `forEach`.
  var child: (Int, ChildEvent)? {
    if case .child(let id, let event) = self { (id, event) } else { nil }
  }

  /// The destination's event, for `presents`.
  var destination: DestinationEvent? {
    if case .destination(let event) = self { event } else { nil }
  }

  /// The screen's ID and event, for `forEach(stack:)`.
  var pathEvent: (StackID, ScreenEvent)? {
    if case .path(let id, let event) = self { (id, event) } else { nil }
  }

  /// The event of a screen, in the destination or on the stack.
  var screenEvent: ScreenEvent? {
    switch self {
    case .destination(let event): event.screenEvent
    case .path(_, let event): event
    case .user, .result, .child: nil
    }
  }
}

/// The codes the model names navigation screens with, as a request's element: the
/// destination's two cases, and each screen of the stack by its ID.
enum ScreenPlace {
  static let destinationA = 100
  static let destinationB = 101
  static let stackBase = 1000

  static func stack(_ id: StackID) -> Int {
    stackBase + id.rawValue
  }

  static func isDestination(_ element: Int) -> Bool {
    element == destinationA || element == destinationB
  }

  /// The stack ID an element code names, if it names a stack screen.
  static func stackID(of element: Int) -> StackID? {
    element > stackBase ? StackID(rawValue: element - stackBase) : nil
  }
}

/// The event of a screen: a change through its reducer, or one of its effect's results.
enum ScreenEvent: Sendable, Equatable, CustomStringConvertible {
  case setSingle(Int?)
  case result(Token)

  var description: String {
    switch self {
    case .setSingle(let value): "single=\(value.map(String.init) ?? "nil")"
    case .result(let token): "result \(token)"
    }
  }
}

/// A screen in the destination or on the stack: one request, a `run` effect.
struct PropertyScreen: Equatable, Sendable {
  /// Where the screen is (``ScreenPlace``), set by the parent as it presents or pushes it; its
  /// requests name it.
  var place: Int
  var single: Int?
  /// The screen's effect results it reduced, in order.
  var results: [Token] = []

  static func reduce(_ screen: inout PropertyScreen, _ event: ScreenEvent) {
    switch event {
    case .setSingle(let value): screen.single = value
    case .result(let token): screen.results.append(token)
    }
  }

  var requests: [RequestID] {
    single.map { [RequestID(element: place, feedback: 0, value: $0)] } ?? []
  }
}

/// The destination: one screen, in one of two cases, composed with `ifCase`.
enum PropertyDestination: Equatable, Sendable {
  case a(PropertyScreen)
  case b(PropertyScreen)

  var screen: PropertyScreen {
    switch self {
    case .a(let screen), .b(let screen): screen
    }
  }

  /// Changes the screen's request in place.
  mutating func setSingle(_ value: Int?) {
    var screen = screen
    screen.single = value
    self = rebuilt(screen)
  }

  /// Moves the screen to the other case, in place.
  mutating func switchCase() {
    var screen = screen
    switch self {
    case .a:
      screen.place = ScreenPlace.destinationB
      self = .b(screen)
    case .b:
      screen.place = ScreenPlace.destinationA
      self = .a(screen)
    }
  }

  /// Whether an event for a case reaches this destination.
  func accepts(_ event: DestinationEvent) -> Bool {
    switch (self, event) {
    case (.a, .a), (.b, .b): true
    default: false
    }
  }

  /// Runs the screen's reducer on an event for this destination's case.
  mutating func reduce(_ event: DestinationEvent) {
    guard accepts(event) else { return }
    var screen = screen
    PropertyScreen.reduce(&screen, event.screenEvent)
    self = rebuilt(screen)
  }

  private func rebuilt(_ screen: PropertyScreen) -> PropertyDestination {
    switch self {
    case .a: .a(screen)
    case .b: .b(screen)
    }
  }
}

/// The event of the destination's screen in one case.
enum DestinationEvent: Sendable, Equatable {
  case a(ScreenEvent)
  case b(ScreenEvent)

  /// The case, as `ifCase` names a screen by it.
  var caseName: String {
    switch self {
    case .a: "a"
    case .b: "b"
    }
  }

  var screenEvent: ScreenEvent {
    switch self {
    case .a(let event), .b(let event): event
    }
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

  /// The scope `forEach` names the child's requests and missing events with, or for a
  /// screen's code (``ScreenPlace``), the scope `presents` and `ifCase`, or `forEach(stack:)`,
  /// name it with.
  static func scope(of id: Int) -> String {
    switch id {
    case ScreenPlace.destinationA: "destination.a"
    case ScreenPlace.destinationB: "destination.b"
    default: ScreenPlace.stackID(of: id).map { "path[\($0)]" } ?? "children[\(id)]"
    }
  }

  /// The child identifier (or screen code) a scope names: `nil` for the parent's own (empty)
  /// scope, and an identifier no child has (-1) for any other scope, so a wrong scope never
  /// matches.
  static func element(inScope scope: String) -> Int? {
    guard !scope.isEmpty else { return nil }
    switch scope {
    case "destination.a": return ScreenPlace.destinationA
    case "destination.b": return ScreenPlace.destinationB
    default: break
    }
    if scope.hasPrefix("path[#"), scope.hasSuffix("]"),
      let id = Int(scope.dropFirst("path[#".count).dropLast()), id > 0
    {
      return ScreenPlace.stack(StackID(rawValue: id))
    }
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
  /// The destination, run by `presents` (feedback 6) and `ifCase`.
  @Presented var destination: PropertyDestination?
  /// How many times the reducer presented a destination: the model's presentation identity.
  var presentations = 0
  /// The stack, run by `forEach(stack:)` (feedback 7).
  var path = Stack<PropertyScreen>()
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
    case .destination, .path:
      state.followUps = []
      if case .result(let token) = event.screenEvent { state.results.append(token) }
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
    case .present(let kind, let single):
      state.destination =
        kind == 0
        ? .a(PropertyScreen(place: ScreenPlace.destinationA, single: single))
        : .b(PropertyScreen(place: ScreenPlace.destinationB, single: single))
      state.presentations += 1
    case .presentAgain:
      guard let destination = state.destination else { return }
      state.destination = destination
      state.presentations += 1
    case .dismiss:
      state.destination = nil
    case .setDestinationSingle(let value):
      state.destination?.setSingle(value)
    case .switchCaseInPlace:
      state.destination?.switchCase()
    case .push(let single):
      let id = state.path.append(PropertyScreen(place: 0, single: single))
      state.path[id: id]?.place = ScreenPlace.stack(id)
    case .pop:
      if !state.path.isEmpty { state.path.removeLast() }
    case .popToRoot:
      state.path.removeAll()
    }
  }

  /// Where the child or screen an event is meant for was, when the state does not hold it:
  /// named as `forEach`, `presents` with `ifCase`, and `forEach(stack:)` report it.
  func missingChild(of event: PropertyEvent) -> String? {
    switch event {
    case .child(let id, _):
      children.contains { $0.id == id } ? nil : PropertyChild.scope(of: id)
    case .destination(let event):
      if let destination {
        destination.accepts(event) ? nil : "destination.\(event.caseName)"
      } else {
        "destination"
      }
    case .path(let id, _):
      path[id: id] == nil ? "path[\(id)]" : nil
    case .user, .result:
      nil
    }
  }

  /// What `forEach` does, written out naïvely: an event for a child runs the child's reducer
  /// on that child, then the parent's; an event for a child the state does not hold is not
  /// reduced at all.
  ///
  /// - Returns: The scope of the missing child, when the event was not reduced.
  static func referenceReduce(_ state: inout PropertyState, _ event: PropertyEvent) -> String? {
    if let missing = state.missingChild(of: event) { return missing }
    switch event {
    case .child(let id, let childEvent):
      if let at = state.children.firstIndex(where: { $0.id == id }) {
        PropertyChild.reduce(&state.children[at], childEvent)
      }
    case .destination(let destinationEvent):
      state.destination?.reduce(destinationEvent)
    case .path(let id, let screenEvent):
      if var screen = state.path[id: id] {
        PropertyScreen.reduce(&screen, screenEvent)
        state.path[id: id] = screen
      }
    case .user, .result:
      break
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
    if let screen = destination?.screen { requests.formUnion(screen.requests) }
    for screen in path { requests.formUnion(screen.requests) }
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
    /// The presentation the run's destination screen belonged to (``PropertyState/presentations``).
    var presentation = 0
  }

  /// Where each feedback comes in a reconciliation, as the composition orders them: the
  /// parent's five feedback, `forEach`'s children (each child's two feedback in turn, then the
  /// children that left), `presents` (the screen of an ended presentation, then the current
  /// screen's case `a`, then its case `b`), and `forEach(stack:)` (the popped screens, the top
  /// one first, then the screens on the stack, from the bottom).
  enum Turn {
    static func child(at position: Int, feedback: Int) -> Int { 5 + 2 * position + feedback }
    static let removedChildren = 1_000_000
    static let endedDestination = 2_000_000
    static func destination(_ element: Int) -> Int {
      endedDestination + 1 + element - ScreenPlace.destinationA
    }
    static func popped(_ id: StackID) -> Int { 3_000_000 + (span - id.rawValue) }
    static func onStack(at position: Int) -> Int { 4_000_000 + position }
    static let span = 100_000
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
    /// Running effects of the destination's screen cancelled as it was dismissed.
    var destinationsDismissed = 0
    /// … as another case, or another screen of the same case, was presented.
    var destinationsReplaced = 0
    /// … as an equal screen was presented anew: an equal request started again.
    var destinationsPresentedAnew = 0
    /// … as the screen moved to the other case or changed its request, in place.
    var destinationsChangedInPlace = 0
    /// Running effects of stack screens cancelled as they were popped.
    var screensPopped = 0
    /// Results of dismissed or popped screens' effects that came late, and were dropped.
    var lateResultsOfEndedScreens = 0
    /// Events for a screen the state did not hold.
    var eventsForMissingScreens = 0
    /// Screen events reduced by the screen's and the parent's reducers.
    var screenEventsReduced = 0

    /// Every count, by name.
    static var counts: [(name: String, count: WritableKeyPath<ChildCoverage, Int>)] {
      [
        ("child effects cancelled by removal", \.cancelledByRemoval),
        ("late results of removed children", \.lateResultsOfRemoved),
        ("starts of a child that came back", \.startsAfterReappearing),
        ("equal requests of two children", \.equalRequestsOfTwoChildren),
        ("events for missing children", \.eventsForMissingChildren),
        ("child events reduced", \.childEventsReduced),
        ("destinations dismissed", \.destinationsDismissed),
        ("destinations replaced", \.destinationsReplaced),
        ("destinations presented anew", \.destinationsPresentedAnew),
        ("destinations changed in place", \.destinationsChangedInPlace),
        ("screens popped", \.screensPopped),
        ("late results of ended screens", \.lateResultsOfEndedScreens),
        ("events for missing screens", \.eventsForMissingScreens),
        ("screen events reduced", \.screenEventsReduced),
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
  /// Whether the sequence also navigates.
  ///
  /// A navigating sequence presents, switches, dismisses, pushes and pops screens, and sends
  /// them events; one that does not draws exactly the actions it drew before the model had
  /// screens.
  let navigates: Bool
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
  /// Runs cancelled because their screen was dismissed or popped (coverage only).
  private var endedScreenRuns: Set<Token> = []
  /// Children that left the state once (coverage only).
  private var removedChildren: Set<Int> = []
  private var startCount = 0

  init(isParking: Bool = false, navigates: Bool = false) {
    self.isParking = isParking
    self.navigates = navigates
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
        countLateResult(of: source)
        record(.ignored(event))
      case .event(let event, _):
        if isStopped {
          record(.ignored(event))
        } else {
          step(event)
        }
      case .outcome(let token, let outcome):
        guard isRunning(token) else {
          countLateResult(of: token)
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

  private mutating func countLateResult(of token: Token) {
    if removedRuns.contains(token) { coverage.lateResultsOfRemoved += 1 }
    if endedScreenRuns.contains(token) { coverage.lateResultsOfEndedScreens += 1 }
  }

  private mutating func step(_ event: PropertyEvent) {
    if let missing = PropertyState.referenceReduce(&state, event) {
      // Neither reducer ran: no step, no follow-ups, nothing to reconcile.
      if case .child = event {
        coverage.eventsForMissingChildren += 1
      } else {
        coverage.eventsForMissingScreens += 1
      }
      return record(.ignored(event, missingChild: missing))
    }
    switch event {
    case .child: coverage.childEventsReduced += 1
    case .destination, .path: coverage.screenEventsReduced += 1
    case .user, .result: break
    }
    // The loop callbacks send the follow-ups before the observers hear of the step.
    queue += state.followUps.map { .event(.user($0, then: []), source: nil) }
    record(.step(event))
    guard !isStopped else { return }
    reconcile()
  }

  /// Reconciles feedback by feedback, as the core does, in the order of ``Turn``.
  ///
  /// Within a feedback, vanished requests are cancelled, then new ones start; a hook's stop
  /// ends the reconciliation. A screen of the destination presented anew is a new screen: the
  /// runs of the ended presentation are cancelled even when the new screen asks for equal
  /// requests, which start again. An event changes one parent request, one child or one screen
  /// at most, so the order within a feedback never matters.
  private mutating func reconcile() {
    let wanted = state.requests
    let presentation = state.presentations
    let ofEndedPresentation = Set(
      live.compactMap { request, run -> RequestID? in
        guard let element = request.element, ScreenPlace.isDestination(element),
          run.presentation != presentation
        else { return nil }
        return request
      })
    let vanished = live.keys.filter { !wanted.contains($0) || ofEndedPresentation.contains($0) }
    let new = wanted.filter { live[$0] == nil || ofEndedPresentation.contains($0) }
    guard !vanished.isEmpty || !new.isEmpty else { return }
    let positions = Dictionary(
      uniqueKeysWithValues: state.children.enumerated().map { ($1.id, $0) })
    let stackPositions = Dictionary(
      uniqueKeysWithValues: state.path.ids.enumerated().map { ($1, $0) })
    let isDismissed = state.destination == nil
    func turn(_ request: RequestID, vanishing: Bool) -> Int {
      guard let element = request.element else { return request.feedback }
      if ScreenPlace.isDestination(element) {
        if vanishing, isDismissed || ofEndedPresentation.contains(request) {
          return Turn.endedDestination
        }
        return Turn.destination(element)
      }
      if let id = ScreenPlace.stackID(of: element) {
        return stackPositions[id].map(Turn.onStack(at:)) ?? Turn.popped(id)
      }
      guard let position = positions[element] else { return Turn.removedChildren }
      return Turn.child(at: position, feedback: request.feedback)
    }
    let vanishing: [(request: RequestID, turn: Int)] = vanished.map {
      ($0, turn($0, vanishing: true))
    }
    let starting: [(request: RequestID, turn: Int)] = new.map { ($0, turn($0, vanishing: false)) }
    for current in Set(vanishing.map(\.turn) + starting.map(\.turn)).sorted() {
      let cancelled = vanishing.filter { $0.turn == current }.map(\.request)
      if current == Turn.removedChildren {
        retire(cancelled)
        if isStopped { return }
        continue
      }
      for request in cancelled.sorted() {
        guard let run = live.removeValue(forKey: request), run.isRunning else { continue }
        countCancellation(
          of: Token(request: request, generation: run.generation), turn: current,
          startsAgain: new.contains(request))
        record(.cancelled(request))
        if isStopped { return }
      }
      for request in starting.filter({ $0.turn == current }).map(\.request).sorted() {
        startRun(request)
        if isStopped { return }
      }
    }
  }

  /// Counts a screen's run cancelled in `turn` for the coverage.
  private mutating func countCancellation(of token: Token, turn: Int, startsAgain: Bool) {
    guard let element = token.element else { return }
    if ScreenPlace.isDestination(element) {
      guard turn == Turn.endedDestination else {
        coverage.destinationsChangedInPlace += 1
        return
      }
      endedScreenRuns.insert(token)
      if state.destination == nil {
        coverage.destinationsDismissed += 1
      } else if startsAgain {
        coverage.destinationsPresentedAnew += 1
      } else {
        coverage.destinationsReplaced += 1
      }
    } else if ScreenPlace.stackID(of: element) != nil, turn < Turn.onStack(at: 0) {
      endedScreenRuns.insert(token)
      coverage.screensPopped += 1
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
    // The children of `forEach` (screens have codes from ``ScreenPlace/destinationA`` on).
    if let element = request.element, element < ScreenPlace.destinationA {
      if removedChildren.contains(element) { coverage.startsAfterReappearing += 1 }
      let isEqualElsewhere = live.contains { other, run in
        guard run.isRunning, let otherElement = other.element else { return false }
        return otherElement != element && otherElement < ScreenPlace.destinationA
          && other.feedback == request.feedback && other.value == request.value
      }
      if isEqualElsewhere { coverage.equalRequestsOfTwoChildren += 1 }
    }
    live[request] = Run(
      generation: token.generation, isRunning: true, isLaunched: !isParking, order: startCount,
      presentation: state.presentations)
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
      if reference.navigates, random.chance(15) {
        return .send(screenEvent(using: &random, reference: reference))
      }
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
      let navigates = reference.navigates
      return .send(
        .user(
          mutation(using: &random, navigating: navigates),
          then: (0..<followUps).map { _ in mutation(using: &random, navigating: navigates) }))
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

  private static func mutation(using random: inout SplitMix64, navigating: Bool) -> Mutation {
    if navigating, random.chance(50) { return navigation(using: &random) }
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

  /// A change to the destination or the stack.
  private static func navigation(using random: inout SplitMix64) -> Mutation {
    let maybe: Int? = random.chance(20) ? nil : Int.random(in: 0..<4, using: &random)
    switch Int.random(in: 0..<7, using: &random) {
    case 0: return .present(Int.random(in: 0..<2, using: &random), single: maybe)
    case 1: return .presentAgain
    case 2: return random.chance(50) ? .setDestinationSingle(maybe) : .switchCaseInPlace
    case 3: return .dismiss
    case 4, 5: return .push(single: maybe)
    default: return random.chance(70) ? .pop : .popToRoot
    }
  }

  /// An event for a screen: often for one the state holds, sometimes for one it does not (or
  /// no longer).
  private static func screenEvent(
    using random: inout SplitMix64,
    reference: ReferenceSystem
  ) -> PropertyEvent {
    let event = ScreenEvent.setSingle(
      random.chance(20) ? nil : Int.random(in: 0..<4, using: &random))
    if random.chance(50) {
      return .destination(random.chance(50) ? .a(event) : .b(event))
    }
    let ids = reference.state.path.ids
    let id =
      !ids.isEmpty && random.chance(75)
      ? ids[Int.random(in: ids.indices, using: &random)]
      : StackID(rawValue: Int.random(in: 1...4, using: &random))
    return .path(id, event)
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

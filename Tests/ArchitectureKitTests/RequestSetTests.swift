import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

// RequestSet: a set for the state that journals its insertions and removals, and the feedback
// that reads the journal. It must start and cancel exactly what the `Set` form does (DESIGN §3,
// `react(requests:)`), whatever the state does with its copies, and a result of a fan-out must
// cost the element it removes, not the set.

// MARK: - The collection

struct RequestSetTests {
  @Test func aLiteralASequenceAndInsertionsMakeTheSameSet() {
    var built = RequestSet<String>()
    let inserted = [built.insert("a"), built.insert("b"), built.insert("a")]
    #expect(inserted == [true, true, false])
    let literal: RequestSet = ["a", "b"]
    #expect(built == literal)
    #expect(literal == RequestSet(["b", "a", "b"]))
    #expect(Set(literal) == ["a", "b"])
    #expect(literal.count == 2)
    #expect(!literal.isEmpty)
    #expect(literal.contains("a"))
    #expect(!literal.contains("z"))
    #expect(literal != ["a"])
    #expect(literal.hashValue == RequestSet(["b", "a"]).hashValue)
    #expect(RequestSet(["a"]).description == #"["a"]"#)
    #expect(Mirror(reflecting: literal).displayStyle == .set)
  }

  @Test func removingReturnsTheElementAndRemoveAllEmpties() {
    var requests: RequestSet = [1, 2]
    let removed = [requests.remove(1), requests.remove(1)]
    #expect(removed == [1, nil])
    requests.removeAll()
    #expect(requests.isEmpty)
    #expect(requests == [])
  }

  /// Random insertions, removals and copies, with elements whose hashes collide in threes,
  /// checked against a `Set` after each edit: the table keeps every element findable when
  /// removals shift their neighbours back, when it grows, and when a copy diverges.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func randomEditsKeepTheSameElementsAsASet(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var requests = RequestSet<Colliding>()
    var model = Set<Colliding>()
    var copies: [(RequestSet<Colliding>, Set<Colliding>)] = []
    for _ in 0..<2_000 {
      let element = Colliding(value: Int(random.next() % 300))
      switch random.next() % 8 {
      case 0...3:
        #expect(requests.insert(element) == model.insert(element).inserted)
      case 4...6:
        #expect(requests.remove(element) == model.remove(element))
      default:
        copies.append((requests, model))
      }
      #expect(requests.count == model.count)
      #expect(requests.contains(element) == model.contains(element))
    }
    #expect(Set(requests) == model)
    #expect(requests == RequestSet(model.shuffled(using: &random)))
    #expect(requests.hashValue == RequestSet(model.shuffled(using: &random)).hashValue)
    for value in 0..<300 {
      #expect(requests.contains(Colliding(value: value)) == model.contains(Colliding(value: value)))
    }
    for (copy, copyModel) in copies {
      #expect(Set(copy) == copyModel)
      #expect(copy.count == copyModel.count)
      #expect((copy == requests) == (copyModel == model))
    }
  }

  @Test func indicesVisitEveryElementOnce() {
    let requests = RequestSet(0..<100)
    var visited: [Int] = []
    var index = requests.startIndex
    while index != requests.endIndex {
      visited.append(requests[index])
      index = requests.index(after: index)
    }
    #expect(visited.sorted() == Array(0..<100))
    #expect(RequestSet<Int>().startIndex == RequestSet<Int>().endIndex)
  }

  /// Copies of one storage, mutated from many tasks at once: each copies the storage first,
  /// so none sees another's change (run under the thread sanitizer by `Scripts/check.sh`).
  @Test func copiesMutatedFromManyTasksStayIndependent() async {
    let shared = RequestSet(0..<100)
    let results = await withTaskGroup(of: (Int, RequestSet<Int>).self) { group in
      for task in 1...8 {
        group.addTask {
          var copy = shared
          for element in 0..<20 { copy.remove(element * 5 + task % 5) }
          copy.insert(1_000 + task)
          return (task, copy)
        }
      }
      return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(shared == RequestSet(0..<100))
    #expect(results.count == 8)
    for (task, copy) in results {
      #expect(copy.count == 81)
      #expect(copy.contains(1_000 + task))
      #expect(!copy.contains(task % 5))
    }
  }

  @Test func aCopyIsIndependentOfItsOriginal() {
    var original: RequestSet = [1, 2]
    var copy = original
    copy.insert(3)
    original.remove(2)
    #expect(original == [1])
    #expect(copy == [1, 2, 3])
  }

  /// A set frees its elements with itself, and a copy's with the copy: elements that hold
  /// references are destroyed, however the set got there (built, grown, emptied, copied).
  @Test func aSetReleasesTheElementsItHoldsWhenItGoes() {
    weak var kept: Token?
    weak var removed: Token?
    weak var copied: Token?
    do {
      let tokens = (0..<20).map { _ in Token() }
      kept = tokens[0]
      removed = tokens[1]
      var requests = RequestSet(tokens.map(Held.init))
      requests.remove(Held(token: tokens[1]))
      var copy = requests
      let extra = Token()
      copied = extra
      copy.insert(Held(token: extra))
      var emptied = copy
      emptied.removeAll()
      #expect(requests.count == 19 && copy.count == 20 && emptied.isEmpty)
    }
    #expect(kept == nil)
    #expect(removed == nil)
    #expect(copied == nil)
  }

  /// An object an element holds, to see when the element is destroyed.
  final class Token: Sendable {}

  /// An element that holds a reference, compared by identity.
  struct Held: Hashable, Sendable {
    let token: Token

    static func == (lhs: Held, rhs: Held) -> Bool { lhs.token === rhs.token }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(token)) }
  }
}

// MARK: - The feedback

@MainActor
struct RequestSetFeedbackTests {
  /// The requests of both forms: a `Set`, or a `RequestSet`.
  struct Sets<Requests: Equatable & Sendable>: Sendable {
    var requests: Requests
    var snapshots: [Requests] = []
  }

  /// An edit of the requests: the same edits drive both forms.
  enum SetEdit: Sendable {
    case insert(Int)
    case remove(Int)
    case removeAll
    case replace([Int])
    case snapshot
    case restore(Int)

    /// A random edit of elements 0 to 7.
    static func random(using random: inout SplitMix64) -> SetEdit {
      let element = Int.random(in: 0..<8, using: &random)
      return switch Int.random(in: 0..<100, using: &random) {
      case 0..<40: .insert(element)
      case 40..<75: .remove(element)
      case 75..<78: .removeAll
      case 78..<83: .replace((0..<Int.random(in: 0...5, using: &random)).map { $0 * 2 })
      case 83..<92: .snapshot
      default: .restore(Int.random(in: 0..<8, using: &random))
      }
    }
  }

  /// Runs `edits` on a core and returns, per step, what it cancelled and then started, each
  /// sorted; `edit` applies one edit to the form's requests.
  static func steps<Requests: Equatable & Sendable>(
    _ initial: Requests,
    _ edits: [SetEdit],
    retainsPreviousState: Bool,
    edit: @escaping (inout Requests, SetEdit) -> Void,
    feedback: Feedback<Sets<Requests>, SetEdit, Never, EmptyContext>
  ) -> [[String]] {
    let core = SystemCore<Sets<Requests>, SetEdit, Never, EmptyContext>(
      initialState: Sets(requests: initial),
      reduce: { state, event in
        switch event {
        case .snapshot: state.snapshots.append(state.requests)
        case .restore(let index):
          if !state.snapshots.isEmpty {
            state.requests = state.snapshots[index % state.snapshots.count]
          }
        default: edit(&state.requests, event)
        }
      },
      feedback: [feedback])
    core.retainsPreviousState = retainsPreviousState
    return core.startsAndCancels(sending: edits).map { step in
      step.filter { $0.hasPrefix("cancel") }.sorted()
        + step.filter { $0.hasPrefix("start") }.sorted()
    }
  }

  /// The steps of the `RequestSet` form.
  static func journaled(
    _ initial: [Int], _ edits: [SetEdit], retainsPreviousState: Bool = false
  ) -> [[String]] {
    steps(
      RequestSet(initial), edits, retainsPreviousState: retainsPreviousState, edit: apply,
      feedback: .react(requests: \.requests, effect: .stream { _, _, _ in await Gate().wait() }))
  }

  /// The steps of the `Set` form.
  static func plain(
    _ initial: [Int], _ edits: [SetEdit], retainsPreviousState: Bool = false
  ) -> [[String]] {
    steps(
      Set(initial), edits, retainsPreviousState: retainsPreviousState, edit: apply,
      feedback: .react(requests: \.requests, effect: .stream { _, _, _ in await Gate().wait() }))
  }

  /// Applies an edit of the elements to either form.
  static func apply<Requests: EditableSet>(_ requests: inout Requests, _ edit: SetEdit) {
    switch edit {
    case .insert(let element): requests.add(element)
    case .remove(let element): requests.drop(element)
    case .removeAll: requests.removeAll()
    case .replace(let elements): requests = Requests(elements)
    case .snapshot, .restore: break
    }
  }

  @Test func newElementsStartVanishedOnesAreCancelledAndTheRestAreLeftAlone() {
    let edits: [SetEdit] = [
      .insert(3), .insert(3), .remove(1), .remove(9), .snapshot, .insert(4), .restore(0),
      .removeAll, .replace([5, 6]),
    ]
    let steps = Self.journaled([1, 2], edits)
    #expect(
      steps == [
        ["start 1", "start 2"],
        ["start 3"],
        [],
        ["cancel 1"],
        [],
        [],
        ["start 4"],
        ["cancel 4"],
        ["cancel 2", "cancel 3"],
        ["start 5", "start 6"],
      ])
    #expect(steps == Self.plain([1, 2], edits))
  }

  /// 8 seeds × 100 sequences of 10 to 60 random edits (insert, remove, remove all, a set built
  /// afresh, snapshots put back), with and without the core keeping each previous state: both
  /// forms start and cancel the same requests at each step, cancellations first.
  @Test(arguments: 0..<8 as Range<UInt64>, [false, true])
  func theJournaledFormActsLikeTheSetFormOverRandomEdits(
    seed: UInt64,
    retainsPreviousState: Bool
  ) {
    var random = SplitMix64(seed: seed)
    for sequence in 0..<StressLoad.scaled(100) {
      let initial = (0..<Int.random(in: 0...5, using: &random)).map { $0 }
      let edits = (0..<Int.random(in: 10...60, using: &random)).map { _ in
        SetEdit.random(using: &random)
      }
      let journaled = Self.journaled(initial, edits, retainsPreviousState: retainsPreviousState)
      let plain = Self.plain(initial, edits, retainsPreviousState: retainsPreviousState)
      guard journaled == plain else {
        Issue.record("Sequence \(sequence) of seed \(seed): \(edits)")
        #expect(journaled == plain)
        return
      }
    }
  }

  /// A fan-out of 1,000 effects whose results each remove their element.
  ///
  /// Every effect finishes, none is cancelled, and each result hashes and compares a handful
  /// of elements, not the set. The `Set` form compares the whole set on each result.
  @Test func aResultOfAFanOutCostsItsElementNotTheSet() {
    let counter = ComparisonCounter()
    let width = 1_000

    func run<Requests: Equatable & Sendable>(
      _ empty: Requests,
      fill: @escaping (inout Requests) -> Void,
      remove: @escaping (inout Requests, CountedElement) -> Void,
      feedback: Feedback<Requests, CountedElement?, Never, EmptyContext>
    ) -> (finished: Int, cancelled: Int, perResult: Int) {
      var finished = 0
      var cancelled = 0
      let system = System(
        initialState: empty, context: EmptyContext(),
        feature: Feature(
          reduce: { state, event in
            if let event { remove(&state, event) } else { fill(&state) }
          }, feedback: [feedback]),
        observers: [
          { activity in
            switch activity {
            case .effectFinished: finished += 1
            case .effectCancelled: cancelled += 1
            default: break
            }
          }
        ])
      counter.reset()
      system.send(nil)
      // Filling the set and starting the effects cost a few hashes per element in both forms;
      // the results cost one element, or the set.
      return (finished, cancelled, counter.reset() / width)
    }

    let elements = (0..<width).map { CountedElement(value: $0, counter: counter) }
    let journaled = run(
      RequestSet<CountedElement>(),
      fill: { $0 = RequestSet(elements) }, remove: { $0.remove($1) },
      feedback: .react(requests: \.self, effect: .asyncResult { .pure($0) }))
    let plain = run(
      Set<CountedElement>(),
      fill: { $0 = Set(elements) }, remove: { $0.remove($1) },
      feedback: .react(requests: \.self, effect: .asyncResult { .pure($0) }))
    #expect(journaled.finished == width)
    #expect(journaled.cancelled == 0)
    #expect(plain.finished == width)
    #expect(plain.cancelled == 0)
    // Each element is hashed once when the set is filled and once when its result removes it;
    // its hash then serves every lookup (the set's, the journal's, the running effects'), so
    // only a couple of comparisons come on top.
    #expect(journaled.perResult <= 4, "\(journaled.perResult) hashes and comparisons per result")
    #expect(plain.perResult > 500)
  }

  /// The fan-out's state: the items pending, and the results that came back.
  struct FanOut: Sendable, Equatable {
    var pending: RequestSet<Int> = []
    var done: [Int] = []
  }

  enum FanOutEvent: Sendable, Equatable {
    case start(Int)
    case done(Int)
  }

  nonisolated static func reduceFanOut(_ state: inout FanOut, _ event: FanOutEvent) {
    switch event {
    case .start(let width): state.pending = RequestSet(0..<width)
    case .done(let item):
      state.pending.remove(item)
      state.done.append(item)
    }
  }

  /// The fan-out, with effects that suspend before their result, so each result hops back to
  /// the system.
  nonisolated static func suspendingFanOut() -> Feature<FanOut, FanOutEvent, Never, EmptyContext> {
    Feature(
      reduce: reduceFanOut,
      feedback: [
        .react(
          requests: \.pending,
          effect: .run { item, _ in
            await Task.yield()
            return .done(item)
          })
      ])
  }

  /// On `System` and on `BackgroundSystem`, every effect of a fan-out of 200 suspending effects
  /// returns its result once, each removal forgets its element, and nothing is cancelled.
  @Test func aFanOutOfSuspendingEffectsEndsWithEveryResultOnEachRuntime() async {
    var cancelled = 0
    let system = System(
      initialState: FanOut(), context: EmptyContext(),
      feature: Self.suspendingFanOut(),
      observers: [{ if case .effectCancelled = $0 { cancelled += 1 } }])
    await system.send(.start(200), while: { !$0.pending.isEmpty })
    #expect(system.state.done.sorted() == Array(0..<200))
    #expect(cancelled == 0)

    let background = await BackgroundSystem(
      initialState: FanOut(), context: EmptyContext(),
      feature: Self.suspendingFanOut())
    await background.send(.start(200), while: { !$0.pending.isEmpty })
    let state = await background.state
    #expect(state.done.sorted() == Array(0..<200))
    #expect(state.pending.isEmpty)
  }

  /// Effects that wait on gates the test opens, and a loop callback that asks for a new
  /// element on each result: each new element starts in the box of a request just retired
  /// (PerformanceLedger: keyed request boxes renewed) while the other effects are suspended,
  /// and every start names its own element, every result comes once.
  @Test(.timeLimit(.minutes(10)))
  func elementsAddedFromAHookWhileOthersWaitStartWithTheirOwnValues() async {
    struct State {
      var pending: RequestSet<Int> = []
      var done: [Int] = []
    }
    enum Event: Sendable {
      case start
      case add(Int)
      case done(Int)
    }
    let gates = GateSet()
    var started: [String] = []
    let system = System(
      initialState: State(), context: EmptyContext(),
      feature: Feature<State, Event, Never, EmptyContext>(
        reduce: { state, event in
          switch event {
          case .start: state.pending = RequestSet(0..<3)
          case .add(let item): state.pending.insert(item)
          case .done(let item):
            state.pending.remove(item)
            state.done.append(item)
          }
        },
        feedback: [
          .react(
            requests: \.pending,
            effect: .run { item, _ in
              await gates["\(item)"].wait()
              return .done(item)
            })
        ]),
      observers: [{ if case .effectStarted(let request) = $0 { started.append("\(request)") } }])
    var added: Set<Int> = []
    system.addLoopCallback { [weak system] state in
      // Once per result of the first three: a step that changes nothing sends nothing.
      if let last = state.done.last, last < 10, added.insert(last).inserted {
        system?.send(.add(last + 10))
      }
    }
    var states = system.states.makeAsyncIterator()
    system.send(.start)
    for item in [1, 0, 2, 11, 10, 12] {
      gates["\(item)"].open()
      // Ends with the result, or with the time limit's cancellation (then the checks fail).
      while let state = await states.next(), !state.done.contains(item) {}
    }
    #expect(system.state.done == [1, 0, 2, 11, 10, 12])
    #expect(system.state.pending.isEmpty)
    #expect(started.sorted() == ["0", "1", "10", "11", "12", "2"])
  }

  /// Key paths and closures to a `Set` still pick the `Set` forms; a `RequestSet` picks the
  /// journaled one; its requests are described as a set's elements are, without a key.
  @Test func setAndRequestSetFormsBothResolveAndDescribeTheirElementsAlike() {
    struct Both {
      var plain: Set<Int> = [1]
      var journaled: RequestSet<Int> = [2]
    }
    typealias Form = Feedback<Both, Int, Never, EmptyContext>
    let forms: [Form] = [
      .react(requests: \.plain, effects: { _ in .pure(0) }),
      .react(requests: \.plain, effect: .run { _, _ in 0 }),
      .react(requests: { $0.plain }, effect: .stream { _, _, _ in }),
      .react(requests: \.journaled, effect: .run { _, _ in 0 }),
      .react(requests: { $0.journaled }, effect: .job { _, _, _ in 0 }),
      .react(requests: { RequestSet($0.plain) }, effect: .asyncResult { _ in .pure(0) }),
    ]
    var started: [String] = []
    _ = System(
      initialState: Both(), context: EmptyContext(),
      feature: Feature(reduce: { _, _ in }, feedback: forms),
      observers: [
        { if case .effectStarted(let request) = $0 { started.append("\(request)") } }
      ])
    #expect(started == ["1", "1", "1", "2", "2", "1"])
  }
}

/// What both forms hold: a `Set` of `Int`s, or a `RequestSet`.
protocol EditableSet: Equatable, Sendable {
  init(_ elements: [Int])
  mutating func add(_ element: Int)
  mutating func drop(_ element: Int)
  mutating func removeAll()
}

extension Set<Int>: EditableSet {
  mutating func add(_ element: Int) { insert(element) }
  mutating func drop(_ element: Int) { remove(element) }
  mutating func removeAll() { removeAll(keepingCapacity: false) }
}

extension RequestSet<Int>: EditableSet {
  mutating func add(_ element: Int) { insert(element) }
  mutating func drop(_ element: Int) { remove(element) }
}

/// An element that counts how often it is hashed or compared.
struct CountedElement: Hashable, Sendable, CustomStringConvertible {
  var value: Int
  let counter: ComparisonCounter

  var description: String { "\(value)" }

  static func == (lhs: CountedElement, rhs: CountedElement) -> Bool {
    lhs.counter.increment()
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    counter.increment()
    hasher.combine(value)
  }
}

/// An element whose hashes collide in threes: a third of the values share each hash.
struct Colliding: Hashable, Sendable {
  var value: Int

  func hash(into hasher: inout Hasher) {
    hasher.combine(value / 3)
  }
}

import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

// KeyedRequests: a dictionary for the state that journals its changed keys, and the keyed
// feedback that reads the journal. The feedback must start and cancel exactly what the
// dictionary form does (DESIGN §3, keyed requests), whatever the state does with its copies,
// and a step must cost the changed keys, not the collection.

// MARK: - The collection

struct KeyedRequestsTests {
  @Test func aLiteralADictionaryAndMutationsMakeTheSameCollection() {
    var built = KeyedRequests<String, Int>()
    built["a"] = 1
    built.updateValue(2, forKey: "b")
    built["c", default: 0] += 3
    let literal: KeyedRequests = ["a": 1, "b": 2, "c": 3]
    #expect(built == literal)
    #expect(literal == KeyedRequests(["a": 1, "b": 2, "c": 3]))
    #expect(literal.dictionary == ["a": 1, "b": 2, "c": 3])
    #expect(literal.count == 3)
    #expect(!literal.isEmpty)
    #expect(Set(literal.keys) == ["a", "b", "c"])
    #expect(literal.values.sorted() == [1, 2, 3])
    #expect(literal["b"] == 2)
    #expect(literal["z"] == nil)
    #expect(literal["z", default: 9] == 9)
    #expect(
      Dictionary(uniqueKeysWithValues: literal.map { ($0.key, $0.value) }) == literal.dictionary)
    #expect(KeyedRequests<String, Int>(["a": 1]).description == #"["a": 1]"#)
    #expect(Mirror(reflecting: literal).displayStyle == .dictionary)
    #expect(literal != ["a": 1, "b": 2, "c": 4])
    #expect(literal != ["a": 1, "b": 2])
  }

  @Test func removingReturnsTheRequestAndRemoveAllEmpties() {
    var requests: KeyedRequests = ["a": 1, "b": 2]
    #expect(requests.removeValue(forKey: "a") == 1)
    #expect(requests.removeValue(forKey: "a") == nil)
    #expect(requests.updateValue(5, forKey: "b") == 2)
    requests.removeAll()
    #expect(requests.isEmpty)
    #expect(requests == [:])
  }

  @Test func aCopyIsIndependentOfItsOriginal() {
    var original: KeyedRequests = [1: 1, 2: 2]
    var copy = original
    #expect(copy.mark == original.mark)
    copy[1] = 10
    copy[3, default: 0] += 3
    original.removeValue(forKey: 2)
    #expect(original == [1: 1])
    #expect(copy == [1: 10, 2: 2, 3: 3])
  }

  @Test func eachChangeIsJournaledAndAnEqualRequestIsNot() throws {
    var requests: KeyedRequests = [1: 1, 2: 2]
    let mark = requests.mark
    requests[1] = 1
    requests.updateValue(2, forKey: 2)
    requests[1, default: 0] += 0
    requests[9] = nil
    requests.removeValue(forKey: 9)
    #expect(requests.mark == mark)
    #expect(try #require(requests.changedKeys(since: mark)).isEmpty)

    requests[1] = 5
    requests[3] = 3
    requests.removeValue(forKey: 2)
    requests[4, default: 0] += 1
    requests.updateValue(6, forKey: 1)
    #expect(requests.mark != mark)
    #expect(try #require(requests.changedKeys(since: mark)) == [1, 3, 2, 4, 1])
    #expect(try #require(requests.changedKeys(since: requests.mark)).isEmpty)
  }

  @Test func aChangeThroughTheOptionalSubscriptIsJournaled() throws {
    var requests: KeyedRequests = ["a": [1]]
    let mark = requests.mark
    requests["a"]?.append(2)
    requests["b"]?.append(1)
    #expect(requests == ["a": [1, 2]])
    #expect(try #require(requests.changedKeys(since: mark)) == ["a"])
  }

  /// Both branches make one change of the same key to the same request: a reconciler that
  /// trusted a mark from the other branch would see "one change since", and be wrong.
  @Test func aMarkFromOneBranchOfACopyIsNotInTheOther() throws {
    var left: KeyedRequests = [1: 1, 2: 2]
    let fork = left.mark
    var right = left
    left[1] = 10
    right[2] = 20
    #expect(left.mark != right.mark)
    #expect(left.changedKeys(since: right.mark) == nil)
    #expect(right.changedKeys(since: left.mark) == nil)
    #expect(try #require(left.changedKeys(since: fork)) == [1])
    #expect(try #require(right.changedKeys(since: fork)) == [2])

    // The same change on both branches still makes two histories.
    var twin = left
    let twinFork = twin.mark
    left[3] = 3
    twin[3] = 3
    #expect(left == twin)
    #expect(left.changedKeys(since: twin.mark) == nil)
    #expect(try #require(twin.changedKeys(since: twinFork)) == [3])
  }

  @Test func anOlderCopyDoesNotKnowTheMarksOfItsFuture() {
    var requests: KeyedRequests = [1: 1]
    let older = requests
    requests[1] = 2
    #expect(older.changedKeys(since: requests.mark) == nil)
  }

  @Test func valuesBuiltApartHaveHistoriesApart() {
    let one = KeyedRequests([1: 1])
    let other = KeyedRequests([1: 1])
    #expect(one == other)
    #expect(one.mark != other.mark)
    #expect(one.changedKeys(since: other.mark) == nil)
  }

  @Test func aLongJournalIsCompactedAndForgetsItsOldestMarks() throws {
    var requests = KeyedRequests(Dictionary(uniqueKeysWithValues: (0..<10).map { ($0, 0) }))
    let start = requests.mark
    for round in 1...200 { requests[round % 10] = round }
    #expect(requests.changedKeys(since: start) == nil)
    let recent = requests.mark
    requests[3] = -1
    #expect(try #require(requests.changedKeys(since: recent)) == [3])
  }

  /// A history that goes through many copies (each starts a run of stamps of its own) and many
  /// compactions: every mark of the value's own lineage names exactly the changes after it, or
  /// nothing once compacted away (never one of the last 32), and a side branch's marks are
  /// never found.
  @Test(arguments: 0..<4 as Range<UInt64>)
  func marksThroughCopiesAndCompactionsNameExactlyTheChangesAfterThem(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var requests: KeyedRequests = [0: 0]
    var lineage: [(mark: KeyedRequests<Int, Int>.Mark, key: Int)] = [(requests.mark, -1)]
    var copies: [KeyedRequests<Int, Int>] = []
    for round in 1...600 {
      // A copy kept alive makes the next change copy the storage and start a run.
      if Int.random(in: 0..<8, using: &random) == 0 { copies.append(requests) }
      let key = Int.random(in: 0..<8, using: &random)
      requests[key] = round
      lineage.append((requests.mark, key))
    }
    for (index, entry) in lineage.enumerated() {
      let after = lineage[(index + 1)...].map(\.key)
      if let changed = requests.changedKeys(since: entry.mark) {
        #expect(Array(changed) == after, "mark \(index) of \(lineage.count)")
      } else {
        #expect(after.count > 32, "mark \(index) of \(lineage.count) forgotten too early")
      }
    }
    for var copy in copies.suffix(20) {
      copy[100] = 1
      #expect(requests.changedKeys(since: copy.mark) == nil)
      #expect(try #require(copy.changedKeys(since: copy.mark)).isEmpty)
    }
  }

  @Test func removeAllStartsANewHistoryUnlessAlreadyEmpty() {
    var requests: KeyedRequests = [1: 1]
    let mark = requests.mark
    requests.removeAll()
    #expect(requests.mark != mark)
    #expect(requests.changedKeys(since: mark) == nil)
    let empty = requests.mark
    requests.removeAll()
    #expect(requests.mark == empty)
  }

  /// Copies of one storage, mutated from many tasks at once: each copies the storage first,
  /// so none sees another's change (run under the thread sanitizer by `Scripts/check.sh`).
  @Test func copiesMutatedFromManyTasksStayIndependent() async {
    let shared = KeyedRequests(Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 0) }))
    let results = await withTaskGroup(of: (Int, KeyedRequests<Int, Int>).self) { group in
      for task in 1...8 {
        group.addTask {
          var copy = shared
          for key in 0..<40 { copy[key, default: 0] += task }
          copy.removeValue(forKey: 50 + task)
          return (task, copy)
        }
      }
      return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(shared.values.allSatisfy { $0 == 0 })
    #expect(results.count == 8)
    for (task, copy) in results {
      #expect(copy.count == 99)
      #expect(copy[50 + task] == nil)
      #expect((0..<40).allSatisfy { copy[$0] == task })
      #expect(copy.changedKeys(since: shared.mark)?.count == 41)
    }
  }
}

// MARK: - The feedback

@MainActor
struct KeyedRequestsFeedbackTests {
  typealias Journaled = Held<KeyedRequests<String, Int>>
  typealias Plain = Held<[String: Int]>

  static let journaled = Feedback<Journaled, Edit<String>, Never, EmptyContext>.react(
    keyed: \.requests, effect: .stream { _, _, _ in await Gate().wait() })
  static let plain = Feedback<Plain, Edit<String>, Never, EmptyContext>.react(
    keyedRequests: \.requests, effect: .stream { _, _, _ in await Gate().wait() })

  /// Runs `edits` on a system, then stops it; returns what it cancelled and then started at its
  /// creation, at each step and at the stop, each sorted.
  static func run<Store: KeyedStore>(
    _ edits: [Edit<String>],
    from initial: [String: Int],
    feedback: Feedback<Held<Store>, Edit<String>, Never, EmptyContext>
  ) -> [[String]] where Store.Key == String {
    var steps: [[String]] = [[]]
    let system = System(
      initialState: Held(requests: Store(initial)), context: EmptyContext(),
      feature: Feature(reduce: { $0.apply($1) }, feedback: [feedback]),
      observers: [
        { activity in
          switch activity {
          case .step: steps.append([])
          case .effectStarted(let request): steps[steps.count - 1].append("start \(request)")
          case .effectCancelled(let request): steps[steps.count - 1].append("cancel \(request)")
          default: break
          }
        }
      ])
    for edit in edits { system.send(edit) }
    steps.append([])
    system.stop()
    return steps.map(inPhases)
  }

  @Test func eachKeyStartsRestartsAndCancelsItsOwnEffect() {
    let edits: [Edit<String>] = [
      .set("b", 2), .set("a", 1), .set("c", 1), .add("c", 0), .set("a", nil), .removeAll,
      .set("a", 3),
    ]
    let steps = Self.run(edits, from: ["a": 1, "b": 1], feedback: Self.journaled)
    #expect(
      steps == [
        ["start a: 1", "start b: 1"],
        ["cancel b: 1", "start b: 2"],
        [],
        ["start c: 1"],
        [],
        ["cancel a: 1"],
        ["cancel b: 2", "cancel c: 1"],
        ["start a: 3"],
        ["cancel a: 3"],
      ])
    #expect(steps == Self.run(edits, from: ["a": 1, "b": 1], feedback: Self.plain))
  }

  /// The state goes back to a copy it kept, and on to a copy edited on the side: the feedback
  /// must compare those with what runs, not trust the journal of another branch.
  @Test func anOlderCopyOrASideBranchPutBackIsComparedWhole() {
    let edits: [Edit<String>] = [
      .snapshot, .set("a", 2), .restore(0), .set("b", 5), .snapshot, .set("b", 6),
      .editSnapshot(1, "c", 1), .restore(1), .replace(["c": 1]),
    ]
    let steps = Self.run(edits, from: ["a": 1], feedback: Self.journaled)
    #expect(
      steps == [
        ["start a: 1"],
        [],
        ["cancel a: 1", "start a: 2"],
        ["cancel a: 2", "start a: 1"],
        ["start b: 5"],
        [],
        ["cancel b: 5", "start b: 6"],
        [],
        ["cancel b: 6", "start b: 5", "start c: 1"],
        ["cancel a: 1", "cancel b: 5"],
        ["cancel c: 1"],
      ])
    #expect(steps == Self.run(edits, from: ["a": 1], feedback: Self.plain))
  }

  @Test func aBurstLongerThanTheJournalIsComparedWhole() {
    let edits: [Edit<String>] = [.burst(7), .set("k0", 99), .burst(8)]
    let journaled = Self.run(edits, from: ["k0": 0, "k1": 0], feedback: Self.journaled)
    #expect(journaled == Self.run(edits, from: ["k0": 0, "k1": 0], feedback: Self.plain))
    #expect(journaled[1].count > 2)
  }

  /// Dictionary closures, dictionary literals and key paths to dictionaries still pick the
  /// dictionary forms; a `KeyedRequests` picks the journaled ones; both run.
  @Test func dictionaryAndKeyedRequestsFormsBothResolveAndRun() {
    struct Both {
      var plain: [String: Int] = ["a": 1]
      var journaled: KeyedRequests<String, Int> = ["b": 2]
    }
    typealias Form = Feedback<Both, Int, Never, EmptyContext>
    let forms: [Form] = [
      .react(keyedRequests: \.plain, effect: .asyncResult { _ in .pure(0) }),
      .react(keyedRequests: { $0.plain }, effect: .run { _, _ in 0 }),
      .react(keyedRequests: { _ in ["c": 3] }, effect: .stream { _, _, _ in }),
      .react(keyedRequests: \.plain, effect: .job { _, _, _ in 0 }),
      .react(keyed: \.journaled, effect: .asyncResult { _ in .pure(0) }),
      .react(keyed: { $0.journaled }, effect: .run { _, _ in 0 }),
      .react(keyed: { KeyedRequests($0.plain) }, effect: .stream { _, _, _ in }),
      .react(keyed: \.journaled, effect: .job { _, _, _ in 0 }),
    ]
    var started: [String] = []
    _ = System(
      initialState: Both(), context: EmptyContext(),
      feature: Feature(reduce: { _, _ in }, feedback: forms),
      observers: [
        { if case .effectStarted(let request) = $0 { started.append("\(request)") } }
      ])
    #expect(started == ["a: 1", "a: 1", "c: 3", "a: 1", "b: 2", "b: 2", "a: 1", "b: 2"])
  }

  /// With 1,000 keys, a step that changes one compares one request in the reducer and one in
  /// the feedback; the dictionary form compares them all.
  @Test func aStepComparesTheChangedRequestsNotTheCollection() {
    let counter = ComparisonCounter()
    let initial = Dictionary(
      uniqueKeysWithValues: (0..<1_000).map { ($0, CountedRequest(value: 0, counter: counter)) })

    func comparisons<Store: Equatable & Sendable>(
      _ store: Store,
      _ feedback: Feedback<Store, Int, Never, EmptyContext>,
      _ change: @escaping (inout Store, CountedRequest) -> Void
    ) -> (unchanged: Int, changed: Int) {
      let core = SystemCore<Store, Int, Never, EmptyContext>(
        initialState: store,
        reduce: { if $1 > 0 { change(&$0, CountedRequest(value: $1, counter: counter)) } },
        feedback: [feedback])
      let runtime = CoreOutputForwarder<Store, Int, Never, EmptyContext> { _ in }
      core.start(runtime: runtime)
      counter.reset()
      core.send(0, runtime: runtime)
      let unchanged = counter.reset()
      core.send(1, runtime: runtime)
      return (unchanged, counter.reset())
    }

    let journaled = comparisons(
      KeyedRequests(initial),
      .react(keyed: { $0 }, effect: .stream { _, _, _ in }),
      { $0[500] = $1 })
    #expect(journaled.unchanged == 0)
    #expect(journaled.changed <= 2)
    let plain = comparisons(
      initial, .react(keyedRequests: { $0 }, effect: .stream { _, _, _ in }), { $0[500] = $1 })
    #expect(plain.changed >= 1_000)
  }

  @Test func aForEachChildRunsJournaledKeyedRequests() {
    struct Row: Identifiable {
      let id: Int
      var downloads: KeyedRequests<String, Int> = [:]
    }
    struct Rows {
      var rows: [Row] = []
    }
    enum RowEvent: Sendable {
      case download(String, Int?)
    }
    enum RowsEvent: Sendable {
      case add(Int)
      case remove(Int)
      case row(Int, RowEvent)
    }
    let row = Feature<Row, RowEvent, Never, Void>(
      reduce: { state, event in
        if case .download(let file, let version) = event { state.downloads[file] = version }
      },
      feedback: [.react(keyed: \.downloads, effect: .stream { _, _, _ in await Gate().wait() })])
    let feature = Feature<Rows, RowsEvent, Never, Void>(reduce: { state, event in
      switch event {
      case .add(let id): state.rows.append(Row(id: id))
      case .remove(let id): state.rows.removeAll { $0.id == id }
      case .row: break
      }
    })
    .forEach(
      row, elements: \.rows, event: RowsEvent.row,
      extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
      context: { _ in })
    var log: [String] = []
    let system = System(
      initialState: Rows(), context: (), feature: feature,
      observers: [
        { activity in
          switch activity {
          case .effectStarted(let request): log.append("start \(request)")
          case .effectCancelled(let request): log.append("cancel \(request)")
          default: break
          }
        }
      ])
    system.send(.add(1))
    system.send(.add(2))
    system.send(.row(1, .download("a", 1)))
    system.send(.row(2, .download("a", 1)))
    system.send(.row(1, .download("a", 1)))
    system.send(.row(1, .download("a", 2)))
    system.send(.row(2, .download("b", 1)))
    system.send(.row(1, .download("a", nil)))
    system.send(.remove(2))
    #expect(
      log.prefix(6) == [
        "start rows[1]: a: 1",
        "start rows[2]: a: 1",
        "cancel rows[1]: a: 1",
        "start rows[1]: a: 2",
        "start rows[2]: b: 1",
        "cancel rows[1]: a: 2",
      ])
    // Removing a row cancels exactly its effects.
    #expect(log.count == 8)
    #expect(Set(log.dropFirst(6)) == ["cancel rows[2]: a: 1", "cancel rows[2]: b: 1"])
    system.stop()
  }

  // MARK: Property

  /// Keys and requests of plain values renew a retired request's box for a later start.
  ///
  /// (PerformanceLedger: keyed request boxes renewed.) Each start and cancellation must still
  /// describe its own key and value, and a request an observer kept must never change.
  @Test(arguments: [false, true])
  func aRenewedRequestDescribesItsOwnKeyAndAKeptOneNeverChanges(keepsRequests: Bool) {
    typealias State = Held<KeyedRequests<Int, Int>>
    let edits: [Edit<Int>] = [
      .set(2, 20), .set(1, nil), .set(3, 30), .set(2, 21), .set(3, nil), .set(2, nil),
      .set(4, 40), .set(5, 50), .removeAll, .set(6, 60),
    ]
    // The values are distinct, so a set of them starts and cancels as the keys do; its
    // requests have no key, which a renewal must leave so.
    let forms: [(feedback: Feedback<State, Edit<Int>, Never, EmptyContext>, namesKeys: Bool)] = [
      (.react(keyed: \.requests, effect: .stream { _, _, _ in await Gate().wait() }), true),
      (
        .react(
          keyedRequests: { $0.requests.dictionary },
          effect: .stream { _, _, _ in await Gate().wait() }), true
      ),
      (
        .react(
          requests: { RequestSet($0.requests.values) },
          effect: .stream { _, _, _ in await Gate().wait() }), false
      ),
    ]
    let expected = [
      ["start 1: 10"], ["start 2: 20"], ["cancel 1: 10"], ["start 3: 30"],
      ["cancel 2: 20", "start 2: 21"], ["cancel 3: 30"], ["cancel 2: 21"], ["start 4: 40"],
      ["start 5: 50"], ["cancel 4: 40", "cancel 5: 50"], ["start 6: 60", "cancel 6: 60"],
    ]
    for (feedback, namesKeys) in forms {
      var steps: [[String]] = [[]]
      var kept: [(request: EffectRequest, description: String)] = []
      let system = System(
        initialState: State(requests: [1: 10]), context: EmptyContext(),
        feature: Feature(reduce: { $0.apply($1) }, feedback: [feedback]),
        observers: [
          { activity in
            switch activity {
            case .step: steps.append([])
            case .effectStarted(let request):
              steps[steps.count - 1].append("start \(request)")
              if keepsRequests { kept.append((request, "\(request)")) }
            case .effectCancelled(let request):
              steps[steps.count - 1].append("cancel \(request)")
            default: break
            }
          }
        ])
      for edit in edits { system.send(edit) }
      system.stop()
      #expect(
        steps.map(inPhases)
          == expected.map { $0.map { namesKeys ? $0 : Self.droppingKeys($0) } })
      for (request, description) in kept {
        #expect("\(request)" == description)
      }
      #expect(kept.count == (keepsRequests ? 7 : 0))
    }
  }

  /// Effects a step cancels together are cancelled in the order they started, in every form,
  /// as a set's and a child's are: not in the table's hash order, which changes from one
  /// process to the next.
  @Test func effectsCancelledTogetherAreCancelledInTheOrderTheyStarted() {
    let keys = [5, 1, 7, 3, 8, 2, 6, 4]
    for (_, feedback) in Self.everyKeyedForm {
      let log = EffectLog()
      let system = Self.system(running: feedback, loggingInto: log)
      // One start per step: the start order is the order of the keys.
      for key in keys { system.send(.set(key, key * 10)) }
      // Removed in one step in another order (the journal lists them so), then all at once
      // (a new history: the table is walked).
      system.send(.remove([2, 7, 5]))
      system.send(.removeAll)
      #expect(log.started == keys.map { $0 * 10 })
      #expect(log.cancelled == [50, 70, 20] + [10, 30, 80, 60, 40])
      system.stop()
    }
    // A set kept in the state, several elements removed in one step: its journal lists them in
    // the order they were removed; they are cancelled in the order they started.
    enum SetEdit: Sendable {
      case insert(Int)
      case remove([Int])
    }
    var cancelled: [Int] = []
    let system = System(
      initialState: RequestSet<Int>(), context: EmptyContext(),
      feature: Feature<RequestSet<Int>, SetEdit, Never, EmptyContext>(
        reduce: { state, edit in
          switch edit {
          case .insert(let item): _ = state.insert(item)
          case .remove(let items): for item in items { _ = state.remove(item) }
          }
        },
        feedback: [.react(requests: { $0 }, effect: .stream { _, _, _ in await Gate().wait() })]),
      observers: [
        { activity in
          if case .effectCancelled(let request) = activity {
            cancelled.append(request.value as? Int ?? -1)
          }
        }
      ])
    for key in keys { system.send(.insert(key)) }
    system.send(.remove([2, 7, 5]))
    #expect(cancelled == [5, 7, 2])
    system.stop()
  }

  /// An observer that stops the system at the first of several cancellations one step makes.
  ///
  /// Every form stops at once: the effects not yet cancelled are reported cancelled once, by
  /// the stop, and the step's starts never happen.
  @Test func stoppingAtTheFirstOfAStepsCancellationsStopsEveryForm() {
    // Two changed keys vanish and one changes, one is new: the journal's walk of the changed
    // keys, and, after a new history, the walk of the whole table.
    let steps: [Edit<Int>] = [
      .setEach([(7, nil), (5, 51), (9, 90), (3, nil)]),
      .replace([5: 51, 1: 10, 9: 90]),
    ]
    for (name, feedback) in Self.everyKeyedForm {
      for step in steps {
        let log = EffectLog()
        let system = Self.system(running: feedback, loggingInto: log)
        log.onCancel = { [weak system] in system?.stop() }
        for key in [5, 1, 7, 3] { system.send(.set(key, key * 10)) }
        system.send(step)
        #expect(system.isStopped, "\(name), \(step)")
        #expect(log.started == [50, 10, 70, 30], "\(name), \(step)")
        // The first cancellation is the step's first in start order; the stop cancels the rest.
        #expect(log.cancelled.first == 50, "\(name), \(step)")
        #expect(log.cancelled.sorted() == [10, 30, 50, 70], "\(name), \(step)")
      }
    }
  }

  /// The values of the requests whose effects started and were cancelled.
  final class EffectLog {
    var started: [Int] = []
    var cancelled: [Int] = []
    /// Runs after each cancellation is logged.
    var onCancel: () -> Void = {}
  }

  /// Every keyed form over one state's requests, each effect running until cancelled: by key,
  /// a dictionary, a set made afresh, and a `Set`.
  static var everyKeyedForm:
    [(
      name: String,
      feedback: Feedback<Held<KeyedRequests<Int, Int>>, Edit<Int>, Never, EmptyContext>
    )]
  {
    [
      ("keyed", .react(keyed: \.requests, effect: .stream { _, _, _ in await Gate().wait() })),
      (
        "dictionary",
        .react(
          keyedRequests: { $0.requests.dictionary },
          effect: .stream { _, _, _ in await Gate().wait() })
      ),
      (
        "fresh set",
        .react(
          requests: { RequestSet($0.requests.values) },
          effect: .stream { _, _, _ in await Gate().wait() })
      ),
      (
        "Set",
        .react(
          requests: { Set($0.requests.values) }, effect: .stream { _, _, _ in await Gate().wait() })
      ),
    ]
  }

  /// A system with no requests that runs `feedback`, its starts and cancellations in `log`.
  static func system(
    running feedback: Feedback<Held<KeyedRequests<Int, Int>>, Edit<Int>, Never, EmptyContext>,
    loggingInto log: EffectLog
  ) -> System<Held<KeyedRequests<Int, Int>>, Edit<Int>, Never, EmptyContext> {
    System(
      initialState: Held(requests: [:]), context: EmptyContext(),
      feature: Feature(reduce: { $0.apply($1) }, feedback: [feedback]),
      observers: [
        { activity in
          switch activity {
          case .effectStarted(let request): log.started.append(request.value as? Int ?? -1)
          case .effectCancelled(let request):
            log.cancelled.append(request.value as? Int ?? -1)
            log.onCancel()
          default: break
          }
        }
      ])
  }

  /// A step's line as a set's element describes it: `start 2: 20` → `start 20`.
  static func droppingKeys(_ line: String) -> String {
    line.split(separator: " ").filter { !$0.hasSuffix(":") }.joined(separator: " ")
  }

  /// 8 seeds × 100 sequences of 10 to 60 random edits (set, add, remove all, replace with a
  /// value built afresh, snapshot, put back a snapshot, edit a snapshot, bursts that outgrow
  /// the journal), with and without the core keeping each previous state (which copies the
  /// collection on every change): both forms start and cancel the same requests at each step,
  /// cancellations first.
  @Test(arguments: 0..<8 as Range<UInt64>, [false, true])
  func theJournaledFormActsLikeTheDictionaryFormOverRandomEdits(
    seed: UInt64,
    retainsPreviousState: Bool
  ) {
    var random = SplitMix64(seed: seed)
    for sequence in 0..<StressLoad.scaled(100) {
      let initial = Dictionary(
        uniqueKeysWithValues: (0..<Int.random(in: 0...6, using: &random)).map {
          ($0, Int.random(in: 0..<3, using: &random))
        })
      let edits = (0..<Int.random(in: 10...60, using: &random)).map { _ in
        Edit<Int>.random(using: &random)
      }
      let journaled = Self.steps(
        KeyedRequests(initial), edits, retainsPreviousState: retainsPreviousState,
        feedback: .react(keyed: \.requests, effect: .stream { _, _, _ in }))
      let plain = Self.steps(
        initial, edits, retainsPreviousState: retainsPreviousState,
        feedback: .react(keyedRequests: \.requests, effect: .stream { _, _, _ in }))
      guard journaled == plain else {
        Issue.record("Sequence \(sequence) of seed \(seed): \(edits)")
        #expect(journaled == plain)
        return
      }
    }
  }

  /// Runs `edits` on a core; returns, per step, what it cancelled and then started.
  static func steps<Store: KeyedStore>(
    _ initial: Store,
    _ edits: [Edit<Int>],
    retainsPreviousState: Bool,
    feedback: Feedback<Held<Store>, Edit<Int>, Never, EmptyContext>
  ) -> [[String]] where Store.Key == Int {
    let core = SystemCore<Held<Store>, Edit<Int>, Never, EmptyContext>(
      initialState: Held(requests: initial), reduce: { $0.apply($1) }, feedback: [feedback])
    core.retainsPreviousState = retainsPreviousState
    return core.startsAndCancels(sending: edits).map(inPhases)
  }
}

/// A step's cancellations then its starts, each sorted; a start before a cancellation is kept
/// in place, so the comparison fails.
private func inPhases(_ step: [String]) -> [String] {
  let cancels = step.filter { $0.hasPrefix("cancel") }
  guard step.prefix(cancels.count).allSatisfy({ $0.hasPrefix("cancel") }) else { return step }
  return cancels.sorted() + step.dropFirst(cancels.count).sorted()
}

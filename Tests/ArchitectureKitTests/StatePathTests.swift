import ArchitectureKit
import FunctionalCore
import Testing

// StatePath applies a key path at its byte offset when it names stored properties held inline,
// and through the key path otherwise: both ways must read and write exactly what the key path
// does, and the compositions built on it must behave the same whichever way their path goes.

struct StatePathTests {
  final class Box {
    var rows: [Int] = [1]
  }

  struct Inner: Equatable {
    var flag = false
    var rows: [Int] = [1, 2]
    var label = "inner"
  }

  struct Root {
    var first: UInt8 = 7
    var inner = Inner()
    var name = "root"
    var optional: Inner? = Inner()
    let box = Box()

    var computedRows: [Int] {
      get { inner.rows }
      set { inner.rows = newValue }
    }
  }

  @Test func storedPathsHaveAnOffsetAndTheOthersDoNot() {
    #expect(StatePath(\Root.inner).offset != nil)
    #expect(StatePath(\Root.inner.rows).offset != nil)
    #expect(StatePath(\Root.name).offset != nil)
    #expect(StatePath(\Root.optional).offset != nil)
    #expect(StatePath(\Root.computedRows).offset == nil)
    #expect(StatePath(\Root.optional!.rows).offset == nil)
    #expect(StatePath(\Root.box.rows).offset == nil)
  }

  @Test func eachPathReadsAndWritesWhatItsKeyPathDoes() {
    func check<Value: Equatable>(
      _ path: WritableKeyPath<Root, Value>, _ change: (inout Value) -> Void
    ) {
      let statePath = StatePath(path)
      var root = Root()
      var expected = Root()
      #expect(statePath.get(&root) == expected[keyPath: path])
      statePath.modify(&root, change)
      change(&expected[keyPath: path])
      #expect(root[keyPath: path] == expected[keyPath: path])
      #expect(root.first == expected.first)
      #expect(root.name == expected.name)
      #expect(root.inner == expected.inner)
      #expect(root.optional == expected.optional)
    }
    check(\.first) { $0 = 9 }
    check(\.inner) { $0.flag = true }
    check(\.inner.rows) { $0.append(3) }
    check(\.inner.label) { $0 += "!" }
    check(\.name) { $0 = "changed" }
    check(\.optional) { $0 = nil }
    check(\.computedRows) { $0 = [] }
    check(\.optional!.rows) { $0.removeAll() }
  }

  @Test func aChangeInPlaceDoesNotCopyTheValue() {
    var root = Root()
    // An array of its own, uniquely held: a literal's may be a static object, copied by the
    // first change in any case.
    root.inner.rows = Array(0..<100)
    let path = StatePath(\Root.inner.rows)
    let before = path.modify(&root) { rows in rows.withUnsafeBufferPointer { $0.baseAddress } }
    path.modify(&root) { $0[0] = 10 }
    let after = path.modify(&root) { rows in rows.withUnsafeBufferPointer { $0.baseAddress } }
    #expect(before == after)
    #expect(root.inner.rows.prefix(2) == [10, 1])
  }
}

// MARK: - Compositions over both kinds of path

@MainActor
struct StatePathCompositionTests {
  struct Row: Identifiable, Sendable, Equatable {
    let id: Int
    var count = 0
  }

  struct List: Sendable, Equatable {
    var header = "list"
    var stored: [Row] = [Row(id: 1), Row(id: 2)]
    var nested = Nested()

    struct Nested: Sendable, Equatable {
      var rows: [Row] = [Row(id: 1), Row(id: 2)]
    }

    var computed: [Row] {
      get { stored }
      set { stored = newValue }
    }
  }

  enum Event: Sendable, Equatable {
    case row(Int, RowEvent)
  }

  enum RowEvent: Sendable, Equatable {
    case increment
  }

  /// How the list is reached.
  enum PathKind: CaseIterable, Sendable {
    case stored, nested, computed

    var path: WritableKeyPath<List, [Row]> {
      switch self {
      case .stored: \.stored
      case .nested: \.nested.rows
      case .computed: \.computed
      }
    }
  }

  static let row = Feature<Row, RowEvent, Never, EmptyContext>(
    reduce: { state, _ in state.count += 1 },
    feedback: [
      .react(request: { $0.count > 0 ? $0.count : nil }, effect: .stream { _, _, _ in })
    ])

  /// The same list, reached by a stored path, a nested stored path and a computed one: the
  /// same states, the same requests started and cancelled, the same missing child.
  @Test(arguments: PathKind.allCases)
  func aForEachActsTheSameWhateverItsPath(_ kind: PathKind) {
    let path = kind.path
    var requests: [String] = []
    var ignored: [String] = []
    let system = System(
      initialState: List(), context: EmptyContext(),
      feature: Feature<List, Event, Never, EmptyContext>(reduce: { _, _ in })
        .forEach(Self.row, elements: path, event: Event.row, context: { $0 }),
      observers: [
        { activity in
          switch activity {
          case .effectStarted(let request): requests.append("start \(request.scope)")
          case .effectCancelled(let request): requests.append("cancel \(request.scope)")
          case .eventIgnored(_, let reason): ignored.append("\(reason)")
          default: break
          }
        }
      ])
    system.send(.row(2, .increment))
    system.send(.row(2, .increment))
    system.send(.row(1, .increment))
    system.send(.row(3, .increment))
    #expect(system.state[keyPath: path] == [Row(id: 1, count: 1), Row(id: 2, count: 2)])
    #expect(requests.count == 3)
    #expect(requests.allSatisfy { $0.hasPrefix("start ") && $0.hasSuffix("]") })
    #expect(ignored.count == 1)
    #expect(ignored.first?.contains("[3]") == true)
  }
}

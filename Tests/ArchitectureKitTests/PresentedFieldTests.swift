import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// `presents` reaches a wrapper's projected value (`\.$destination`, a computed key path) at the
// stored wrapper's byte offset, found once in the first state seen. Every way a path can go
// must read and write exactly what the key path does: a projected wrapper, one nested in a
// stored struct, two wrappers of one type (even with one identity), a generic state, and paths
// that name no single field, which keep going through the key path.

/// A screen the tests present.
private typealias Detail = Navigation.Detail

/// Two wrappers of one type, one nested, and computed paths that are no wrapper's storage.
private struct Screens {
  var first: UInt8 = 7
  @Presented var sheet: Detail.State?
  var label = "screens"
  @Presented var popover: Detail.State?
  var nested = Nested()
  var others: [Presented<Detail.State>] = [Presented(wrappedValue: nil)]
  var stored = Presented<Detail.State>(wrappedValue: nil)

  struct Nested {
    var flag = false
    @Presented var alert: Detail.State?

    static let alertOffset = MemoryLayout<Nested>.offset(of: \Nested._alert)
  }

  /// A wrapper kept in an array: no field holds it.
  var inArray: Presented<Detail.State> {
    get { others[0] }
    set { others[0] = newValue }
  }

  /// Reads one wrapper and writes another.
  var crossed: Presented<Detail.State> {
    get { $sheet }
    set { $popover = newValue }
  }

  static let sheetOffset = MemoryLayout<Screens>.offset(of: \Screens._sheet)
  static let popoverOffset = MemoryLayout<Screens>.offset(of: \Screens._popover)
  static let alertOffset = MemoryLayout<Screens>.offset(of: \Screens.nested).flatMap { nested in
    Nested.alertOffset.map { nested + $0 }
  }
  static let storedOffset = MemoryLayout<Screens>.offset(of: \Screens.stored)
}

/// A state generic over what it also holds.
private struct Generic<Extra: Equatable>: Equatable {
  var extra: Extra
  @Presented var sheet: Detail.State?

  static var sheetOffset: Int? { MemoryLayout<Generic>.offset(of: \Generic._sheet) }
}

/// A state held by reference: its wrapper is not inline.
private final class Shared {
  @Presented var sheet: Detail.State?
}

/// A state seen through a protocol: the walk of fields would crash on the existential.
private protocol HasSheet {
  var shownSheet: Presented<Detail.State> { get set }
}

extension Screens: HasSheet {
  var shownSheet: Presented<Detail.State> {
    get { $sheet }
    set { $sheet = newValue }
  }
}

/// A state that is an enum: no fields.
private enum Modes {
  case browsing(Presented<Detail.State>)

  var sheet: Presented<Detail.State> {
    get { if case .browsing(let sheet) = self { sheet } else { fatalError() } }
    set { self = .browsing(newValue) }
  }
}

/// Counts the reads of a computed path.
private final class Reads {
  var count = 0
}

/// A computed wrapper kept in an array, whose reads are counted.
private struct Counted {
  let reads = Reads()
  var storage = [Presented<Detail.State>(wrappedValue: nil)]

  var sheet: Presented<Detail.State> {
    get {
      reads.count += 1
      return storage[0]
    }
    set { storage[0] = newValue }
  }
}

/// Two tabs, each with its sheet, and a path to the selected tab's: it breaks the contract of
/// `presents`, which a debug build reports.
private struct Tabs {
  var selected = 0
  @Presented var first: Detail.State?
  @Presented var second: Detail.State?

  var current: Presented<Detail.State> {
    get { selected == 0 ? $first : $second }
    set { if selected == 0 { $first = newValue } else { $second = newValue } }
  }
}

@MainActor
@Suite(.timeLimit(.minutes(3)))
struct PresentedFieldTests {
  @Test func projectedWrappersAreReachedAtTheirStoredFieldsAndNamedByTheirProperties() {
    var state = Screens()
    // One identity in two wrappers: the field is told by what the getter reads, not by it.
    state.$popover = state.$sheet
    let cases: [(WritableKeyPath<Screens, Presented<Detail.State>>, Int?, String)] = [
      (\.$sheet, Screens.sheetOffset, "sheet"),
      (\.$popover, Screens.popoverOffset, "popover"),
      (\.nested.$alert, Screens.alertOffset, "nested.alert"),
    ]
    for (path, offset, name) in cases {
      let field = PresentedField(path)
      #expect(field.access == .unknown)
      #expect(field.name(in: state) == name)
      #expect(offset != nil)
      #expect(field.access == offset.map { .field($0) })
      expectReadsAndWritesAsItsKeyPath(field, in: state)
    }
  }

  @Test func aStoredWrapperIsAtItsOffsetFromTheStart() {
    let field = PresentedField(\Screens.stored)
    #expect(Screens.storedOffset != nil)
    #expect(field.access == Screens.storedOffset.map { .field($0) })
    #expect(field.name(in: Screens()) == "stored")
    expectReadsAndWritesAsItsKeyPath(field, in: Screens())
  }

  @Test func aGenericStatesWrapperIsFoundInEachSpecialization() {
    let text = PresentedField(\Generic<String>.$sheet)
    let number = PresentedField(\Generic<UInt8>.$sheet)
    #expect(text.name(in: Generic(extra: "a")) == "sheet")
    #expect(number.name(in: Generic(extra: 1)) == "sheet")
    #expect(text.access == Generic<String>.sheetOffset.map { .field($0) })
    #expect(number.access == Generic<UInt8>.sheetOffset.map { .field($0) })
    #expect(Generic<String>.sheetOffset != Generic<UInt8>.sheetOffset)
    expectReadsAndWritesAsItsKeyPath(text, in: Generic(extra: "a"))
  }

  @Test func pathsThatNameNoSingleFieldGoThroughTheirKeyPaths() {
    for path in [\Screens.inArray, \Screens.crossed] {
      let field = PresentedField(path)
      _ = field.name(in: Screens())
      #expect(field.access == .keyPath)
      expectReadsAndWritesAsItsKeyPath(field, in: Screens())
    }
    let shared = PresentedField(\Shared.$sheet)
    let state = Shared()
    let before = state.$sheet
    #expect(shared.name(in: state) == "sheet")
    #expect(shared.access == .keyPath)
    // Looking for the field left the shared state as it was.
    #expect(state.$sheet.isSamePresentation(as: before))
  }

  @Test func statesThatAreNoStructKeepTheirKeyPaths() {
    var existential: any HasSheet = Screens()
    let throughProtocol = PresentedField(\(any HasSheet).shownSheet)
    #expect(throughProtocol.get(&existential).isSamePresentation(as: existential.shownSheet))
    #expect(throughProtocol.access == .keyPath)
    throughProtocol.modify(&existential) { $0.wrappedValue = Detail.State(product: "hat") }
    #expect(existential.shownSheet.wrappedValue == Detail.State(product: "hat"))
    var mode = Modes.browsing(Presented(wrappedValue: nil))
    let inEnum = PresentedField(\Modes.sheet)
    #expect(inEnum.get(&mode).isSamePresentation(as: mode.sheet))
    #expect(inEnum.access == .keyPath)
    // Named by the case that holds the wrapper, as reflection shows it.
    #expect(inEnum.name(in: mode) == "browsing")
  }

  @Test func aKeyPathsNameIsLookedForOnce() {
    var state = Counted()
    let field = PresentedField(\Counted.sheet)
    _ = field.name(in: state)
    let reads = state.reads.count
    #expect(field.access == .keyPath)
    for _ in 0..<3 { _ = field.name(in: state) }
    #expect(state.reads.count == reads)
    _ = field.get(&state)
    #expect(state.reads.count == reads + 1)
  }

  #if DEBUG
    @Test func aDebugBuildReportsAPathThatStopsReadingItsField() {
      var state = Tabs()
      let field = PresentedField(\Tabs.current)
      _ = field.get(&state)
      #expect(field.access == Tabs.firstOffset.map { .field($0) })
      #expect(!field.mismatchReported)
      state.selected = 1
      _ = field.get(&state)
      #expect(field.mismatchReported)
    }
  #endif

  /// A wrapper nested in a stored struct runs its child: presented, changed, dismissed, with
  /// its effect started and cancelled, and its events reported under its dotted name.
  @Test func aNestedWrapperRunsItsChild() async {
    let system = TestSystem(
      initialState: Screens(), context: Navigation.AppContext(),
      feature: Feature<Screens, NestedEvent, Never, Navigation.AppContext>(
        reduce: { state, event in
          switch event {
          case .show(let product): state.nested.alert = Detail.State(product: product)
          case .hide: state.nested.alert = nil
          case .alert: break
          }
        }
      )
      .presents(
        Detail.feature, state: \.nested.$alert, event: NestedEvent.alert,
        context: { context, state in Detail.Context(endpoint: "\(context.api)/\(state.product)") }
      ))
    system.send(.show("hat")) { $0.nested.alert = Detail.State(product: "hat") }
    system.expectStarted("hat", in: "nested.alert")
    system.send(.alert(.increment)) { $0.nested.alert?.quantity = 1 }
    system.send(.hide) { $0.nested.alert = nil }
    system.expectCancelled("hat", in: "nested.alert")
    let failures = await capturingFailures { system.send(.alert(.increment)) }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("child at nested.alert,") == true)
    await system.finish()
  }

  /// Checks that `field` reads and writes what its key path does, change after change.
  private func expectReadsAndWritesAsItsKeyPath<State: Equatable>(
    _ field: PresentedField<State, Detail.State>, in initial: State
  ) {
    let shoe = Presented(wrappedValue: Detail.State(product: "shoe"))
    let nothing = Presented<Detail.State>(wrappedValue: nil)
    let changes: [(inout Presented<Detail.State>) -> Void] = [
      { $0 = shoe }, { $0.wrappedValue?.quantity = 3 }, { $0 = nothing },
    ]
    var state = initial
    var expected = initial
    let path = field.path
    for change in changes {
      #expect(field.get(&state).isSamePresentation(as: state[keyPath: path]))
      field.modify(&state, change)
      change(&expected[keyPath: path])
      #expect(state == expected)
      #expect(state[keyPath: path].isSamePresentation(as: expected[keyPath: path]))
    }
  }
}

extension Tabs {
  static let firstOffset = MemoryLayout<Tabs>.offset(of: \Tabs._first)
}

/// The events of ``PresentedFieldTests/aNestedWrapperRunsItsChild()``.
private enum NestedEvent: Sendable, Equatable {
  case show(String)
  case hide
  case alert(Detail.Event)
}

extension Screens: Equatable {
  static func == (lhs: Screens, rhs: Screens) -> Bool {
    lhs.first == rhs.first && lhs.sheet == rhs.sheet && lhs.label == rhs.label
      && lhs.popover == rhs.popover && lhs.nested.alert == rhs.nested.alert
      && lhs.nested.flag == rhs.nested.flag && lhs.stored == rhs.stored
  }
}

extension Presented {
  /// Whether both are the same presentation: its identity, not its state.
  fileprivate func isSamePresentation(as other: Presented) -> Bool {
    identity == other.identity
  }
}

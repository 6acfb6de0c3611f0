import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

// DESIGN §8, "Dismissal from inside": a child that ends its own presentation with
// `dismissing(on:)`, through every composition its documentation names. `presents`,
// `forEach(stack:)` and `ifCase` honour it (NavigationTransitionTests, NavigationTests); the
// tests below are the compositions that do not yet.

/// Dismissal from inside, through `ifLet` and through a feature composed after it.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationDismissalTests {
  /// A sheet with a Close button.
  enum Sheet {
    struct State: Equatable, Sendable {
      var text = ""
    }

    enum Event: Equatable, Sendable {
      case type(String)
      case close
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { state, event in
        if case .type(let text) = event { state.text = text }
      })
      .dismissing(on: { $0 == .close })
    }
  }

  /// A panel that closes itself and holds a sheet, composed with one of the ways to compose.
  enum Panel {
    struct State: Equatable, Sendable, Identifiable {
      var id = 0
      var sheet = Sheet.State()
      var optionalSheet: Sheet.State? = Sheet.State()
      var rows: [Row] = [Row()]
    }

    struct Row: Equatable, Sendable, Identifiable {
      var id = 0
      var sheet = Sheet.State()
    }

    enum Event: Equatable, Sendable {
      case close
      case sheet(Sheet.Event)
      case optionalSheet(Sheet.Event)
      case row(Int, Sheet.Event)
    }

    enum Composition: String, CaseIterable, Sendable {
      case scope, ifLet, forEach
    }

    /// A panel that dismisses itself on `close`, with its sheet composed *after* the dismissal.
    static func feature(composing composition: Composition) -> Feature<
      State, Event, Never, Void
    > {
      let panel = Feature<State, Event, Never, Void>(reduce: { _, _ in })
        .dismissing(on: { $0 == .close })
      return switch composition {
      case .scope:
        panel.scope(Sheet.feature, state: \.sheet, event: Event.sheet, context: { _ in })
      case .ifLet:
        panel.ifLet(
          Sheet.feature, state: \.optionalSheet, event: Event.optionalSheet, context: { _ in })
      case .forEach:
        panel.forEach(
          Feature<Row, Sheet.Event, Never, Void>(reduce: { _, _ in })
            .scope(Sheet.feature, state: \.sheet, event: { $0 }, context: { _ in }),
          elements: \.rows, event: Event.row, context: { _ in })
      }
    }
  }

  struct State: Equatable, Sendable {
    var sheet: Sheet.State?
    @Presented var panel: Panel.State?
  }

  enum Event: Equatable, Sendable {
    case sheet(Sheet.Event)
    case panel(Panel.Event)
  }

  /// `dismissing(on:)` names `ifLet` among the compositions that end a child's presentation.
  @Test func aChildUnderIfLetDismissesItself() {
    let system = TestSystem(
      initialState: State(sheet: Sheet.State()), context: (),
      feature: Feature<State, Event, Never, Void>(reduce: { _, _ in })
        .ifLet(Sheet.feature, state: \.sheet, event: Event.sheet, context: { _ in }))
    system.send(.sheet(.type("a"))) { $0.sheet?.text = "a" }
    system.send(.sheet(.close)) { $0.sheet = nil }
  }

  /// A presented feature that dismisses itself keeps doing so when more children are composed
  /// into it afterwards.
  @Test(arguments: Panel.Composition.allCases)
  func aFeatureComposedAfterItsDismissalStillDismissesItself(
    composition: Panel.Composition
  ) {
    let system = TestSystem(
      initialState: State(panel: Panel.State()), context: (),
      feature: Feature<State, Event, Never, Void>(reduce: { _, _ in })
        .presents(
          Panel.feature(composing: composition), state: \.$panel, event: Event.panel,
          context: { _, _ in }))
    system.send(.panel(.close)) { $0.panel = nil }
  }

  /// `dismissing(on:)` says `scope` passes a child's dismissal on to the feature that presents
  /// it, as `ifCase` does.
  @Test func aScopedChildsDismissalEndsThePresentationAroundIt() {
    let system = TestSystem(
      initialState: State(panel: Panel.State()), context: (),
      feature: Feature<State, Event, Never, Void>(reduce: { _, _ in })
        .presents(
          Feature<Panel.State, Panel.Event, Never, Void>(reduce: { _, _ in })
            .scope(Sheet.feature, state: \.sheet, event: Panel.Event.sheet, context: { _ in }),
          state: \.$panel, event: Event.panel, context: { _, _ in }))
    system.send(.panel(.sheet(.close))) { $0.panel = nil }
  }
}

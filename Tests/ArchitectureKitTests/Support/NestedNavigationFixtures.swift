import ArchitectureKit

/// An app whose destination can be a flow with a stack of its own: how names read when
/// presentations nest.
///
/// Its screens are the ones of ``Navigation``: a product page (`detail`) and the settings.
enum NestedNavigation {
  typealias Screen = Navigation.Screen

  /// A flow presented as a whole: a stack of screens of its own.
  enum Flow {
    struct State: Equatable, Sendable {
      var path = Stack<Screen.State>()
    }

    enum Event: Equatable, Sendable {
      case path(StackID, Screen.Event)
      case push(Screen.State)
      case pop
    }

    static var feature: Feature<State, Event, Never, Navigation.AppContext> {
      Feature(
        reduce: { state, event in
          switch event {
          case .path: break
          case .push(let screen): state.path.append(screen)
          case .pop: state.path.removeLast()
          }
        }
      )
      .forEach(Screen.feature, stack: \.path, event: Event.path, context: { context, _ in context })
    }
  }

  enum Destination {
    enum State: Equatable, Sendable {
      case settings(Navigation.Settings.State)
      case flow(Flow.State)
    }

    enum Event: Equatable, Sendable {
      case settings(Navigation.Settings.Event)
      case flow(Flow.Event)
    }

    static var feature: Feature<State, Event, Never, Navigation.AppContext> {
      Feature(reduce: { _, _ in })
        .ifCase(
          Navigation.Settings.feature, case: State.settings, event: Event.settings,
          context: { _, _ in }
        )
        .ifCase(
          Flow.feature, case: State.flow, event: Event.flow, context: { context, _ in context })
    }
  }

  struct State: Equatable, Sendable {
    @Presented var destination: Destination.State?
    var path = Stack<Screen.State>()
  }

  enum Event: Equatable, Sendable {
    case destination(Destination.Event)
    case path(StackID, Screen.Event)
    case show(Destination.State)
    case dismiss
    case push(Screen.State)
    case pop
  }

  static var feature: Feature<State, Event, Never, Navigation.AppContext> {
    Feature(
      reduce: { state, event in
        switch event {
        case .destination, .path: break
        case .show(let destination): state.destination = destination
        case .dismiss: state.destination = nil
        case .push(let screen): state.path.append(screen)
        case .pop: state.path.removeLast()
        }
      }
    )
    .presents(
      Destination.feature, state: \.$destination, event: Event.destination,
      context: { context, _ in context }
    )
    .forEach(Screen.feature, stack: \.path, event: Event.path, context: { context, _ in context })
  }
}

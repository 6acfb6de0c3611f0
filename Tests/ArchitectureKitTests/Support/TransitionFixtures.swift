import ArchitectureKit

/// An app for every transition of a destination and a stack, whose screens' effects stop at
/// checkpoints the test controls.
///
/// A destination presents an editor or a viewer; a stack holds the same screens. Each screen
/// loads its document for as long as it is on screen: its effect stops at the checkpoint of its
/// place and document (`destination.editor a`, `path.viewer b`) and answers with the run's
/// number, so a late answer of an ended screen is told from the answer of the screen that
/// replaced it.
enum Transit {
  /// A screen that loads a document and can close itself.
  enum Screen {
    struct State: Equatable, Sendable {
      var document: String
      var loads: [Int] = []
      var edits = 0
    }

    enum Event: Equatable, Sendable {
      case loaded(String, run: Int)
      case edit
      case closeTapped
    }

    static var feature: Feature<State, Event, Never, CheckpointContext> {
      Feature(
        reduce: { state, event in
          switch event {
          case .loaded(_, let run): state.loads.append(run)
          case .edit: state.edits += 1
          case .closeTapped: break
          }
        },
        feedback: [
          .react(
            request: \.document,
            effect: .run { document, context in
              .loaded(document, run: await context.pass(document))
            })
        ]
      )
      .dismissing(on: { $0 == .closeTapped })
    }
  }

  /// The two kinds of screens, in a destination or on the stack.
  enum Destination {
    enum State: Equatable, Sendable {
      case editor(Screen.State)
      case viewer(Screen.State)

      /// Edits the screen in place, whichever it is: the presentation stays.
      mutating func edit() {
        switch self {
        case .editor(var screen):
          screen.edits += 1
          self = .editor(screen)
        case .viewer(var screen):
          screen.edits += 1
          self = .viewer(screen)
        }
      }
    }

    enum Event: Equatable, Sendable {
      case editor(Screen.Event)
      case viewer(Screen.Event)
    }

    static var feature: Feature<State, Event, Never, CheckpointContext> {
      Feature(reduce: { _, _ in })
        .ifCase(
          Screen.feature, case: State.editor, event: Event.editor,
          context: { context, _ in context.at("editor") }
        )
        .ifCase(
          Screen.feature, case: State.viewer, event: Event.viewer,
          context: { context, _ in context.at("viewer") })
    }
  }

  struct State: Equatable, Sendable {
    @Presented var destination: Destination.State?
    var path = Stack<Destination.State>()
  }

  enum Event: Equatable, Sendable {
    case destination(Destination.Event)
    case path(StackID, Destination.Event)
    case present(Destination.State)
    case dismiss
    case editDestination
    case push(Destination.State)
    case pop
    case popTo(StackID)
    case popToRoot
    case replaceScreen(StackID, Destination.State)
    case replacePath([Destination.State])
  }

  static var feature: Feature<State, Event, Never, CheckpointContext> {
    Feature(
      reduce: { state, event in
        switch event {
        case .destination, .path: break
        case .present(let destination): state.destination = destination
        case .dismiss: state.destination = nil
        case .editDestination: state.destination?.edit()
        case .push(let screen): state.path.append(screen)
        case .pop: state.path.removeLast()
        case .popTo(let id): state.path.pop(to: id)
        case .popToRoot: state.path.removeAll()
        case .replaceScreen(let id, let screen): state.path[id: id] = screen
        case .replacePath(let screens): state.path = Stack(screens)
        }
      }
    )
    .presents(
      Destination.feature, state: \.$destination, event: Event.destination,
      context: { context, _ in context.at("destination") }
    )
    .forEach(
      Destination.feature, stack: \.path, event: Event.path,
      context: { context, _ in context.at("path") })
  }

  static func editor(_ document: String, loads: [Int] = [], edits: Int = 0) -> Destination.State {
    .editor(Screen.State(document: document, loads: loads, edits: edits))
  }

  static func viewer(_ document: String, loads: [Int] = []) -> Destination.State {
    .viewer(Screen.State(document: document, loads: loads))
  }
}

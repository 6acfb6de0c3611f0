import ArchitectureKit

/// A small app that navigates.
///
/// It has a destination (a sheet) with two kinds of screens, a stack of the same screens, and a
/// confirmation dialog. Each screen runs an effect for as long as it is
/// presented, with a context made from the state it was presented with.
enum Navigation {
  /// What the app's effects reach: the API's base address.
  struct AppContext: Sendable {
    var api = "api"
  }

  /// A product's page: loads the product from an API made for it, and can close itself.
  enum Detail {
    struct State: Equatable, Codable, Sendable {
      var product: String
      var loaded: String?
      var quantity = 0
    }

    enum Event: Equatable, Sendable {
      case loaded(String)
      case increment
      case closeTapped
    }

    /// The API of one product.
    struct Context: Sendable {
      let endpoint: String
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .loaded(let text): state.loaded = text
          case .increment: state.quantity += 1
          case .closeTapped: break
          }
        },
        feedback: [
          .react(
            request: { $0.loaded == nil ? $0.product : nil },
            effect: .run { product, context in .loaded("\(context.endpoint) \(product)") })
        ]
      )
      .dismissing(on: { $0 == .closeTapped })
    }
  }

  /// The settings: saves a name while one is being saved, and closes once saved.
  enum Settings {
    struct State: Equatable, Codable, Sendable {
      var name = ""
      var saving: String?
    }

    enum Event: Equatable, Sendable {
      case save(String)
      case saved
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .save(let name): state.saving = name
          case .saved:
            state.name = state.saving ?? state.name
            state.saving = nil
          }
        },
        feedback: [.react(request: \.saving, effect: .run { _, _ in .saved })]
      )
      .dismissing(on: { $0 == .saved })
    }
  }

  /// The screens the app presents, in a sheet or on its stack.
  enum Screen {
    enum State: Equatable, Codable, Sendable {
      case detail(Detail.State)
      case settings(Settings.State)
    }

    enum Event: Equatable, Sendable {
      case detail(Detail.Event)
      case settings(Settings.Event)
    }

    static var feature: Feature<State, Event, Never, AppContext> {
      Feature(reduce: { _, _ in })
        .ifCase(
          Detail.feature, case: State.detail, event: Event.detail,
          context: { app, detail in Detail.Context(endpoint: "\(app.api)/\(detail.product)") }
        )
        .ifCase(Settings.feature, case: State.settings, event: Event.settings, context: { _, _ in })
    }
  }

  /// `Codable`, like every state here, so the navigation's own state can be saved and restored.
  struct State: Equatable, Codable, Sendable {
    @Presented var destination: Screen.State?
    var path = Stack<Screen.State>()
    @Presented var confirmation: DialogState<ConfirmationAction>?
    var log: [String] = []
  }

  enum ConfirmationAction: Equatable, Codable, Sendable {
    case popToRoot
  }

  enum Event: Equatable, Sendable {
    case destination(Screen.Event)
    case path(StackID, Screen.Event)
    case confirmation(ConfirmationAction?)
    case show(Screen.State)
    case dismiss
    case push(Screen.State)
    case pop
    case popToRootTapped
    case replacePath([Screen.State])
    /// A stack restored as it was saved: its screens under their saved IDs.
    case restorePath(Stack<Screen.State>)
  }

  static var feature: Feature<State, Event, Never, AppContext> {
    Feature(
      reduce: { state, event in
        switch event {
        case .destination(.detail(.closeTapped)): state.log.append("detail closed itself")
        case .destination, .path: break
        case .show(let screen): state.destination = screen
        case .dismiss: state.destination = nil
        case .push(let screen): state.path.append(screen)
        case .pop: state.path.removeLast()
        case .popToRootTapped:
          state.confirmation = .confirmationDialog(
            title: "Back to the start?",
            buttons: [.destructive("Pop all", action: .popToRoot), .cancel()])
        case .confirmation(.popToRoot): state.path.removeAll()
        case .confirmation(nil): state.log.append("stayed")
        case .replacePath(let screens): state.path = Stack(screens)
        case .restorePath(let path): state.path = path
        }
      }
    )
    .presents(
      Screen.feature, state: \.$destination, event: Event.destination,
      context: { context, _ in context }
    )
    .forEach(Screen.feature, stack: \.path, event: Event.path, context: { context, _ in context })
    .dialog(\.$confirmation, event: Event.confirmation)
  }

  static func detail(_ product: String) -> Screen.State {
    .detail(Detail.State(product: product))
  }
}

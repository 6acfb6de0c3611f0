import ArchitectureKit

/// A reading list: articles pushed on a stack, each loading its text while it is on screen, and
/// the settings presented as a sheet — navigation in an app whose code is on the main actor by
/// default.
///
/// The namespace is `nonisolated`, as ``Search`` is, so its feature is a computed `static var`:
/// a ``Feature`` is not `Sendable` (its closures run on the system's isolation), and Swift
/// rejects a `static let` of a type that is not `Sendable` in a nonisolated type. A main-actor
/// type may keep it in a `static let`: see ``ReaderScreen``.
nonisolated enum Reader {
  /// An article: loads its text while on screen, and pops itself when the reader is done.
  enum Article {
    struct State: Equatable {
      var slug: String
      var text: String?
    }

    enum Event: Equatable {
      case loaded(String)
      case doneTapped
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          if case .loaded(let text) = event { state.text = text }
        },
        feedback: [
          .react(
            request: { $0.text == nil ? $0.slug : nil },
            effect: .run { slug, context in .loaded(await context.fetch(slug)) })
        ]
      )
      .dismissing(on: { $0 == .doneTapped })
    }
  }

  /// The settings sheet: a font size, and a Close button.
  enum Settings {
    struct State: Equatable {
      var fontSize = 14
    }

    enum Event: Equatable {
      case biggerTapped
      case closeTapped
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { state, event in
        if event == .biggerTapped { state.fontSize += 2 }
      })
      .dismissing(on: { $0 == .closeTapped })
    }
  }

  enum Destination {
    enum State: Equatable {
      case settings(Settings.State)
    }

    enum Event: Equatable {
      case settings(Settings.Event)
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(reduce: { _, _ in })
        .ifCase(Settings.feature, case: State.settings, event: Event.settings, context: { _, _ in })
    }
  }

  struct State: Equatable {
    var path = Stack<Article.State>()
    @Presented var destination: Destination.State?
  }

  enum Event: Equatable {
    case path(StackID, Article.Event)
    case destination(Destination.Event)
    case open(String)
    case settingsTapped
  }

  struct Context {
    var fetch: @Sendable (String) async -> String
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .path, .destination: break
        case .open(let slug): state.path.append(Article.State(slug: slug))
        case .settingsTapped: state.destination = .settings(Settings.State())
        }
      }
    )
    .forEach(Article.feature, stack: \.path, event: Event.path, context: { context, _ in context })
    .presents(
      Destination.feature, state: \.$destination, event: Event.destination,
      context: { context, _ in context })
  }
}

/// The reading list's screen, on the main actor (the target's default): it builds the feature
/// once, in a `static let`, as a main-actor type may.
enum ReaderScreen {
  static let feature = Reader.feature
}

import ArchitectureKit

/// The app's root, on the main actor: the search and the transfers, composed with `scope`.
enum Browser {
  struct State: Equatable {
    var search = Search.State()
    var transfers = Transfers.State()
  }

  /// `nonisolated`, as `Transfers.Event` is: `TestSystem.receive(_:)` compares events.
  nonisolated enum Event: Equatable {
    case search(Search.Event)
    case transfers(Transfers.Event)
  }

  enum Failure: Error, Equatable {
    case search
  }

  struct Context {
    var search: Search.Context
    var transfers: Transfers.Context
  }

  static var feature: Feature<State, Event, Failure, Context> {
    Feature(reduce: { _, _ in })
      .scope(
        Search.feature, state: \.search, event: Event.search,
        extract: { if case .search(let event) = $0 { event } else { nil } },
        // A closure, not `\.search`: a key path to a main-actor property is not `Sendable`.
        context: { $0.search }, error: { _ in .search }
      )
      .scope(
        Transfers.feature, state: \.transfers, event: Event.transfers,
        extract: { if case .transfers(let event) = $0 { event } else { nil } },
        context: { $0.transfers }
      )
  }
}

import ArchitectureKit

/// A small tree of features: a search and a cart scoped into a shop, one row per element, and a
/// detail while one is selected.
enum Composed {
  enum Search {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }

    enum Event: Equatable, Sendable {
      case queryChanged(String)
      case loaded([String])
      case chose(String)
    }

    struct Context: Sendable {
      let prefix: String
    }

    struct Failure: Error, Equatable {}

    static var feature: Feature<State, Event, Failure, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .queryChanged(let query): state.query = query
          case .loaded(let results): state.results = results
          case .chose: break
          }
        },
        feedback: [
          .react(
            request: { $0.query.isEmpty ? nil : $0.query },
            effect: .run { query, context throws(Failure) in
              if query == "fail" { throw Failure() }
              return .loaded(["\(context.prefix)\(query)"])
            })
        ]
      )
    }
  }

  enum Cart {
    struct State: Equatable {
      var items: [String] = []
      var count: Int { items.count }
    }

    enum Event: Equatable, Sendable {
      case add(String)
      case clear
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { state, event in
        switch event {
        case .add(let item): state.items.append(item)
        case .clear: state.items.removeAll()
        }
      })
    }
  }

  enum Row {
    struct State: Equatable, Identifiable {
      let id: Int
      var image: String?
      var wantsImage = true
    }

    enum Event: Equatable, Sendable {
      case imageLoaded(String)
      case hide
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .imageLoaded(let image):
            state.image = image
            state.wantsImage = false
          case .hide: state.wantsImage = false
          }
        },
        feedback: [
          .react(
            request: { $0.wantsImage ? "image" : nil },
            effect: .run { _, _ in .imageLoaded("picture") })
        ]
      )
    }
  }

  enum Detail {
    struct State: Equatable {
      var item: String
      var isSaved = false
    }

    enum Event: Equatable, Sendable {
      case saved
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .saved: state.isSaved = true
          }
        },
        feedback: [
          .react(request: { $0.isSaved ? nil : "save \($0.item)" }, effect: .run { _, _ in .saved })
        ]
      )
    }
  }

  enum Shop {
    struct State: Equatable {
      var search = Search.State()
      var cart = Cart.State()
      var rows: [Row.State] = []
      var detail: Detail.State?
      var lastChoice: String?
    }

    enum Event: Equatable, Sendable {
      case search(Search.Event)
      case cart(Cart.Event)
      case row(Int, Row.Event)
      case detail(Detail.Event)
      case addRow(Int)
      case removeRow(Int)
      case select(String?)
    }

    struct Context: Sendable {
      var search = Search.Context(prefix: "found ")
    }

    enum Failure: Error, Equatable {
      case search
    }

    /// The parent's own reducer; it sees every event after the child that handled it.
    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .search(.chose(let item)):
        // A child's delegate event: the parent reacts in its own reducer, after the child.
        state.lastChoice = item
        state.cart.items.append(item)
      case .addRow(let id): state.rows.append(Row.State(id: id))
      case .removeRow(let id): state.rows.removeAll { $0.id == id }
      case .select(let item): state.detail = item.map { Detail.State(item: $0) }
      case .search, .cart, .row, .detail: break
      }
    }

    static var feature: Feature<State, Event, Failure, Context> {
      Feature(reduce: reduce)
        .scope(
          Search.feature, state: \.search, event: Event.search,
          extract: { if case .search(let event) = $0 { event } else { nil } },
          context: \.search, error: { _ in Failure.search }
        )
        .scope(
          Cart.feature, state: \.cart, event: Event.cart,
          extract: { if case .cart(let event) = $0 { event } else { nil } },
          context: { _ in }
        )
        .forEach(
          Row.feature, elements: \.rows, event: Event.row,
          extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
          context: { _ in }
        )
        .ifLet(
          Detail.feature, state: \.detail, event: Event.detail,
          extract: { if case .detail(let event) = $0 { event } else { nil } },
          context: { _ in })
    }
  }
}

import ArchitectureKit
import Foundation

/// A small shelf of features whose events and states are `Codable`, so its journals replay: a
/// search scoped into the shelf, one row per element with its details loaded by an effect, a
/// ticker that sends events while it runs, and a save that can fail.
///
/// Every effect completes without suspending (or suspends for good, the ticker after its two
/// ticks), so a `System` reduces what a send leads to before `send` returns: a journal's records
/// are known exactly.
enum Shelf {
  struct State: Equatable, Codable, Sendable {
    var search = Search.State()
    var rows: [Row.State] = []
    var isTicking = false
    var ticks = 0
    var saving: String?
    var saved: [String] = []
  }

  enum Event: Equatable, Codable, Sendable {
    case search(Search.Event)
    case row(id: Int, Row.Event)
    case addRow(Int)
    case removeRow(Int)
    case startTicking
    case stopTicking
    case tick
    case save(String)
    case didSave(String)
  }

  struct Failure: Error, Equatable, CustomStringConvertible {
    var description: String { "the disk is full" }
  }

  enum Search {
    struct State: Equatable, Codable, Sendable {
      var query = ""
      var results: [String] = []
    }

    enum Event: Equatable, Codable, Sendable {
      case queryChanged(String)
      case found([String])
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .queryChanged(let query): state.query = query
          case .found(let results): state.results = results
          }
        },
        feedback: [
          .react(
            request: { $0.query.isEmpty ? nil : $0.query },
            effect: .run { query, _ in .found(["\(query) 350", "\(query) 700"]) })
        ]
      )
    }
  }

  enum Row {
    struct State: Equatable, Codable, Sendable, Identifiable {
      let id: Int
      var details: String?
    }

    enum Event: Equatable, Codable, Sendable {
      case loaded(String)
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(
        reduce: { state, event in
          switch event {
          case .loaded(let details): state.details = details
          }
        },
        feedback: [
          .react(
            request: { $0.details == nil ? "details \($0.id)" : nil },
            effect: .run { request, _ in .loaded("\(request): fine") })
        ]
      )
    }
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .search, .row: break
    case .addRow(let id): state.rows.append(Row.State(id: id))
    case .removeRow(let id): state.rows.removeAll { $0.id == id }
    case .startTicking: state.isTicking = true
    case .stopTicking: state.isTicking = false
    case .tick: state.ticks += 1
    case .save(let name): state.saving = name
    case .didSave(let name):
      state.saving = nil
      state.saved.append(name)
    }
  }

  static var feature: Feature<State, Event, Failure, Void> {
    feature(reducing: reduce)
  }

  /// The shelf with another reducer of its own (its children unchanged), or another name for
  /// its ticker's request, to replay a journal against a changed feature.
  static func feature(
    reducing reduce: @escaping (inout State, Event) -> Void,
    ticker: String = "ticker"
  ) -> Feature<State, Event, Failure, Void> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(
          request: { $0.isTicking ? ticker : nil },
          effect: .stream { _, _, send in
            await send(.tick)
            await send(.tick)
            // Runs until its request vanishes.
            let forever = AsyncStream<Never> { _ in }
            for await _ in forever {}
          }),
        .react(
          request: \.saving,
          effect: .run { name, _ throws(Failure) in
            if name == "too big" { throw Failure() }
            return .didSave(name)
          }),
      ]
    )
    .scope(Search.feature, state: \.search, event: Event.search, context: { _ in })
    .forEach(
      Row.feature, elements: \.rows, event: { Event.row(id: $0, $1) }, context: { _ in },
      error: absurd)
  }

  /// The events of a session that goes through every kind of record: an app's event, an
  /// effect's event (a child's included), events sent by a running effect, a cancellation, a
  /// failure, an event for a child that is gone.
  static let session: [Event] = [
    .search(.queryChanged("yee")),
    .addRow(1),
    .addRow(2),
    .removeRow(1),
    .startTicking,
    .stopTicking,
    .save("draft"),
    .save("too big"),
    .row(id: 1, .loaded("late")),
    .search(.queryChanged("")),
  ]
}

/// Never called: the error mapping of a child that cannot fail.
private func absurd<Failure>(_ never: Never) -> Failure {}

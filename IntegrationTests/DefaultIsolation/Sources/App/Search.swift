import ArchitectureKit

/// A search screen, with every single-request feedback form.
///
/// The whole feature is `nonisolated`: its requests and events are compared where the
/// library runs, off the main actor too, so their conformances must not be main-actor ones.
nonisolated enum Search {
  /// What the search effect needs, compared with the running one after every step.
  struct Request: Hashable {
    var query: String
    var page: Int
  }

  enum Event: Equatable {
    case queryChanged(String)
    case nextPage
    case loaded([String])
    case suggested([String])
    case historyLoaded([String])
    case watch(String?)
    case liveUpdate(String)
    case exportTapped
    case exportProgress(String)
    case exportFinished
  }

  struct State: Equatable {
    var query = ""
    var page = 1
    var results: [String] = []
    var suggestions: [String] = []
    var history: [String]?
    var liveTopic: String?
    var liveUpdates: [String] = []
    var isExporting = false
    var exported: [String] = []
  }

  struct Failure: Error, Equatable {}

  struct Context {
    var search: @Sendable (Request) async throws(Failure) -> [String]
    var history: [String]
    var updates: @Sendable (String) -> [String]
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .queryChanged(let query):
      state.query = query
      state.page = 1
    case .nextPage: state.page += 1
    case .loaded(let results): state.results = results
    case .suggested(let suggestions): state.suggestions = suggestions
    case .historyLoaded(let history): state.history = history
    case .watch(let topic): state.liveTopic = topic
    case .liveUpdate(let update): state.liveUpdates.append(update)
    case .exportTapped: state.isExporting = true
    case .exportProgress(let line): state.exported.append(line)
    case .exportFinished: state.isExporting = false
    }
  }

  // Computed: a `static let` of a `Feature`, which is not `Sendable`, is an error in a
  // nonisolated type.
  static var feature: Feature<State, Event, Failure, Context> {
    Feature(
      reduce: reduce,
      feedback: [
        // react(_:when:): the history loads once, while the state has none.
        .react(
          { _ in AsyncResult.ask().map { Event.historyLoaded($0.history) } },
          when: { $0.history == nil }
        ),
        // react(request:effects:): suggestions for the query, as an AsyncResult.
        .react(
          request: { $0.query.isEmpty ? nil : $0.query },
          effects: { query in .pure(.suggested([query + "ift", query + "eet"])) }
        ),
        // react(request:effect: .run): the search itself, for a request of the feature's own type.
        .react(
          request: { $0.query.isEmpty ? nil : Request(query: $0.query, page: $0.page) },
          effect: .run { request, context throws(Failure) in
            .loaded(try await context.search(request))
          }
        ),
        // react(request:effect: .stream): live updates about the watched topic.
        .react(
          request: \.liveTopic,
          effect: .stream { topic, context, send in
            for update in context.updates(topic) { await send(.liveUpdate(update)) }
          }
        ),
        // react(request:effect: .job): an export that reports progress and ends with its last event.
        .react(
          request: { $0.isExporting ? $0.results : nil },
          effect: .job { results, _, send in
            for line in results { await send(.exportProgress(line)) }
            return .exportFinished
          }
        ),
      ]
    )
  }
}

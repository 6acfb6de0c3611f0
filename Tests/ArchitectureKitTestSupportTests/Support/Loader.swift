import ArchitectureKitTestSupport

/// A small feature with every kind of feedback the harness must handle.
enum Loader {
  struct State: Equatable {
    var query: String?
    var results: [String] = []
    var ticks = 0
    var isTicking = false
  }

  enum Event: Equatable, Sendable {
    case search(String?)
    case loaded(String)
    case startTicking
    case stopTicking
    case tick
  }

  enum Failure: Error, Equatable {
    case offline
  }

  struct Context: Sendable {
    var clock: ManualClock
    var search: @Sendable (String) async throws(Failure) -> String
  }

  enum Request: Equatable, Sendable {
    case search(String)
    case ticker
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .search(let query): state.query = query
    case .loaded(let result): state.results.append(result)
    case .startTicking: state.isTicking = true
    case .stopTicking: state.isTicking = false
    case .tick: state.ticks += 1
    }
  }

  static var feedback: [Feedback<State, Event, Failure, Context>] {
    [
      .react(
        request: { $0.query.map(Request.search) },
        effect: .run { request, context throws(Failure) in
          guard case .search(let query) = request else { return .loaded("") }
          return .loaded(try await context.search(query))
        }
      ),
      .react(
        request: { $0.isTicking ? Request.ticker : nil },
        effect: .stream { _, context, send in
          while true {
            do {
              try await context.clock.sleep(for: .seconds(1))
            } catch {
              return
            }
            await send(.tick)
          }
        }
      ),
    ]
  }

  static func context(clock: ManualClock = ManualClock()) -> Context {
    Context(
      clock: clock,
      search: { query throws(Failure) in
        if query == "offline" { throw .offline }
        return query.uppercased()
      })
  }
}

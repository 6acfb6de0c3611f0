import ArchitectureKit
import TestDoubles
import Testing

// DESIGN §5, "Requests": the core finds a live effect by its identifier in a table whose slots
// are reused. An identifier outlives its effect (a task still finishing, a result queued), so
// an identifier whose slot now holds another effect must find nothing: its result is stale.
@MainActor
struct LiveEffectsTests {
  private typealias Core = SystemCore<Int?, Int, CounterError, EmptyContext>
  private typealias Forwarder = CoreOutputForwarder<Int?, Int, CounterError, EmptyContext>

  /// A core whose state is the request itself: each event replaces it.
  private func makeCore() -> Core {
    Core(
      initialState: nil, reduce: { state, event in state = event },
      feedback: [
        .react(
          request: { $0 },
          effect: .run { request, _ in request })
      ])
  }

  @Test func aResultForAnEffectWhoseSlotWasReusedIsIgnored() {
    let core = makeCore()
    var started: [EffectID] = []
    var steps: [Int] = []
    var ignored: [(Int, IgnoredEventReason)] = []
    let runtime = Forwarder { output in
      switch output {
      case .effectStarted(let id, _, _): started.append(id)
      case .stepped(let event, _): steps.append(event)
      case .eventIgnored(let event, let reason): ignored.append((event, reason))
      default: break
      }
    }
    core.start(runtime: runtime)
    core.send(1, runtime: runtime)
    core.send(2, runtime: runtime)
    // The first effect was cancelled and dropped: the second took its slot.
    #expect(started.count == 2)
    #expect(!core.isRunning(started[0]))
    #expect(core.isRunning(started[1]))

    core.finish(started[0], with: .event(10), runtime: runtime)
    core.deliver(11, from: started[0], runtime: runtime)
    #expect(steps == [1, 2])
    #expect(ignored.map(\.0) == [10, 11])
    #expect(ignored.allSatisfy { $0.1 == .cancelledEffect })
    #expect(core.isRunning(started[1]))
    #expect(core.runningRequests.map(\.id) == [started[1]])

    core.finish(started[1], with: .event(20), runtime: runtime)
    #expect(steps == [1, 2, 20])
  }

  @Test func manyEffectsStartedAndCancelledKeepTheirRequestsApart() {
    let core = SystemCore<Set<Int>, Set<Int>, Never, EmptyContext>(
      initialState: [], reduce: { state, event in state = event },
      feedback: [.react(requests: { $0 }, effect: .run { request, _ in [request] })])
    var running: Set<Int> = []
    let runtime = CoreOutputForwarder<Set<Int>, Set<Int>, Never, EmptyContext> { output in
      switch output {
      case .effectStarted(_, let request, _):
        #expect(running.insert(request.value as! Int).inserted)
      case .effectCancelled(_, let request):
        #expect(running.remove(request.value as! Int) != nil)
      default: break
      }
    }
    core.start(runtime: runtime)
    var random = SplitMix64(seed: 7)
    for _ in 0..<200 {
      let wanted = Set((0..<12).filter { _ in Bool.random(using: &random) })
      core.send(wanted, runtime: runtime)
      #expect(running == wanted)
      #expect(Set(core.runningRequests.map { $0.request.value as! Int }) == wanted)
    }
  }

  // A feedback with one request at a time reuses its last request's box for the next one when
  // nothing else holds it. A request an observer kept must never change under it.
  @Test func aRequestAnObserverKeptKeepsItsValueWhenTheNextOneStarts() {
    var started: [EffectRequest] = []
    var finished: [EffectRequest] = []
    let system = System<Int?, Int, CounterError, EmptyContext>(
      initialState: nil, context: EmptyContext(),
      feature: Feature(
        reduce: { state, event in state = event < 5 ? event + 1 : nil },
        feedback: [.react(request: { $0 }, effects: { request in .pure(request) })]),
      observers: [
        { activity in
          switch activity {
          case .effectStarted(let request): started.append(request)
          case .effectFinished(let request): finished.append(request)
          default: break
          }
        }
      ])
    system.send(1)
    #expect(started.map { $0.value as? Int } == [2, 3, 4, 5])
    #expect(finished.map { $0.value as? Int } == [2, 3, 4, 5])
    #expect(started == finished)
  }

  // The same chain with nobody keeping the requests: each is reported by the table as it runs.
  @Test func aChainOfRequestsNobodyKeptReportsEachOneWhileItIsLive() {
    let core = makeCore()
    var live: [[Int]] = []
    let runtime = Forwarder { _ in }
    core.start(runtime: runtime)
    for request in 1...4 {
      core.send(request, runtime: runtime)
      live.append(core.liveRequests.map { $0.request.value as! Int })
    }
    #expect(live == [[1], [2], [3], [4]])
  }
}

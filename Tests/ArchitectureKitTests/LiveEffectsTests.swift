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

  // An effect an event started leaves the table when it ends, after its end is reported: the
  // report has its request, and the table does not keep it.
  @Test func anEffectAnEventStartedIsReportedWithItsRequestThenLeaves() {
    let core = SystemCore<Int, Int, CounterError, EmptyContext>(
      initialState: 0, reduce: { state, event in state += event },
      feedback: [.react(on: { event, _ in event == 1 ? 10 : nil }, effect: .run { _, _ in 0 })])
    var finished: [(EffectID, Int)] = []
    let runtime = CoreOutputForwarder<Int, Int, CounterError, EmptyContext> { output in
      if case .effectFinished(let id, let request) = output {
        finished.append((id, request.value as! Int))
      }
    }
    core.start(runtime: runtime)
    var ids: [EffectID] = []
    for _ in 0..<3 {
      core.send(1, runtime: runtime)
      ids.append(contentsOf: core.runningRequests.map(\.id))
      core.finish(ids.last!, with: .event(0), runtime: runtime)
      #expect(core.liveRequests.isEmpty)
    }
    #expect(finished.map(\.0) == ids)
    #expect(finished.map(\.1) == [10, 10, 10])
    #expect(Set(ids).count == 3)
  }

  // A listener that stops the system while an event-started effect's end is reported: the stop
  // drops every effect, and the core, which would drop the ended one next, finds it gone.
  @Test(arguments: [false, true])
  func stoppingWhileAnEndIsReportedLeavesNothingLive(failed: Bool) {
    let core = SystemCore<Int, Int, CounterError, EmptyContext>(
      initialState: 0, reduce: { state, event in state += event },
      feedback: [.react(on: { event, _ in event == 1 ? 10 : nil }, effect: .run { _, _ in 0 })])
    var reported: [String] = []
    var stopAtEnd = true
    var stop: () -> Void = {}
    let runtime = CoreOutputForwarder<Int, Int, CounterError, EmptyContext> { output in
      switch output {
      case .effectFinished: reported.append("finished")
      case .effectFailed: reported.append("failed")
      case .effectCancelled: reported.append("cancelled")
      case .stepped(let event, _): reported.append("step \(event)")
      case .eventIgnored(let event, _): reported.append("ignored \(event)")
      default: return
      }
      if stopAtEnd, reported.last == "finished" || reported.last == "failed" {
        stopAtEnd = false
        stop()
      }
    }
    stop = { core.stop(runtime: runtime) }
    core.start(runtime: runtime)
    core.send(1, runtime: runtime)
    core.send(1, runtime: runtime)
    let first = core.runningRequests[0].id
    core.finish(first, with: failed ? .failed(.generic) : .event(5), runtime: runtime)
    #expect(core.liveRequests.isEmpty)
    #expect(
      reported == [
        "step 1", "step 1", failed ? "failed" : "finished", "cancelled",
      ] + (failed ? [] : ["ignored 5"]))
  }
}

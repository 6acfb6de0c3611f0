import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

/// An event payload that counts how many of its kind are alive, to see what a mailbox keeps.
final class Payload: Sendable {
  private let census: LiveCount

  init(_ census: LiveCount) {
    self.census = census
    census.add(1)
  }

  deinit {
    census.add(-1)
  }
}

struct Link: Sendable {
  let chain: Int
  let payload: Payload
}

struct Chains: Equatable {
  var links = [0, 0]
  var lastChain = 0
}

@Suite(.timeLimit(.minutes(10)))
struct MisuseTests {
  typealias Log = Recorder<SystemActivity<[String], String, CounterError>>

  // MARK: Send after stop

  @MainActor
  @Test func eventsQueuedWhenAStepStopsTheSystemAreIgnoredAndReported() {
    let system = System<[String], String, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) })
    var ignored: [(String, IgnoredEventReason)] = []
    system.addObserver { activity in
      if case .eventIgnored(let event, let reason) = activity { ignored.append((event, reason)) }
    }
    system.addLoopCallback { [unowned system] state in
      guard state == ["stop"] else { return }
      system.send("queued before stop")
      system.stop()
      system.send("sent after stop")
    }
    system.send("stop")
    system.send("sent later")
    #expect(system.state == ["stop"])
    #expect(ignored.map(\.0) == ["queued before stop", "sent after stop", "sent later"])
    #expect(ignored.allSatisfy { $0.1 == .stopped })
  }

  @MainActor
  @Test func aListenerThatStopsTheSystemAsAnEffectStartsKeepsEveryLaterFeedbackFromStarting() {
    typealias Shop = Feedback<Int, String, Never, EmptyContext>
    let never: AsyncResult<EmptyContext, String, Never> = .unfold { _, _ in }
    // Every form, after a first feedback whose start stops the system; all want to start at 1.
    let feedback: [Shop] = [
      .react(request: { $0 == 1 ? "first" : nil }, effects: { _ in never }),
      .react({ _ in never }, when: { $0 == 1 }),
      .react(request: { $0 == 1 ? "single" : nil }, effects: { _ in never }),
      .react(requests: { $0 == 1 ? ["set"] : [] }, effects: { _ in never }),
      .react(
        keyed: { $0 == 1 ? KeyedRequests(["keyed": "keyed"]) : KeyedRequests() },
        effect: .asyncResult { _ in never }),
    ]
    let system = System<Int, String, Never, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { state, _ in state += 1 },
      feedback: feedback)
    var started: [EffectRequest] = []
    var cancelled: [EffectRequest] = []
    system.addObserver { [unowned system] activity in
      switch activity {
      case .effectStarted(let request):
        started.append(request)
        system.stop()
      case .effectCancelled(let request):
        cancelled.append(request)
      default:
        break
      }
    }
    system.send("go")
    #expect(system.isStopped)
    #expect(started.count == 1)
    #expect(started.first?.hasValue("first") == true)
    #expect(cancelled == started)
  }

  @Test func sendAfterStopIsIgnoredAndReportedEvenWithoutObservers() async {
    let system = await BackgroundSystem<Int, CounterEvent, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reducer: counterReducer)
    await system.stop()
    // Reported on standard error; never a crash.
    await system.send(.increment)
    await system.stop()
    #expect(await system.state == 0)
  }

  // MARK: Reentrant sends

  @MainActor
  @Test func sendsFromCallbacksObserversAndBindingsAreQueuedInTheOrderMade() {
    let system = System<[String], String, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.last == "start" ? "work" : nil },
          effect: .stream { _, _, _ in await suspendUntilCancelled() })
      ])
    system.addLoopCallback { [unowned system] state in
      guard state.last == "start" else { return }
      system.send("from callback")
      #expect(system.state == ["start"])
    }
    system.addObserver { [unowned system] activity in
      switch activity {
      case .step("start", _, _):
        system.send("from observer")
      case .effectStarted:
        // During reconciliation, after the bindings ran.
        system.send("from effect start")
      default:
        break
      }
    }
    system.addUIBinding { [unowned system] state in
      if state.last == "start" { system.send("from binding") }
      if state.last == "from binding" { system.send("nested from binding") }
    }
    system.send("start")
    #expect(
      system.state == [
        "start", "from callback", "from observer", "from binding", "from effect start",
        "nested from binding",
      ])
    system.stop()
  }

  @Test func sendsFromABackgroundSystemsCallbacksAndObserversAreQueued() async {
    let system = await BackgroundSystem<[String], String, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) })
    await system.addLoopCallback { [weak system] state in
      guard state.last == "start", let system else { return }
      system.assumeIsolated { system in
        system.send("from callback")
        #expect(system.state == ["start"])
      }
    }
    await system.addObserver { [weak system] activity in
      guard case .step("from callback", _, _) = activity, let system else { return }
      system.assumeIsolated { $0.send("from observer") }
    }
    await system.send("start")
    #expect(await system.state == ["start", "from callback", "from observer"])
  }

  // MARK: Effects that never finish

  @Test func stopEndsASystemWhoseEffectIgnoresCancellation() async {
    let hold = Hold()
    let system = await BackgroundSystem<Int, Int, Never, Hold>(
      initialState: 0, context: hold, reduce: { $0 += $1 },
      feedback: [
        .react(
          request: { $0 == 0 ? "hang" : nil },
          effect: .run { _, hold in
            await hold.wait()
            return 100
          })
      ])
    let log = Recorder<SystemActivity<Int, Int, Never>>()
    await log.observe(system)
    await hold.entered.wait(untilAtLeast: 1)
    await system.stop()
    #expect(await system.isStopped)
    await system.send(1)
    #expect(await system.state == 0)
    #expect(log.cancelled.count == 1)
    // When the work ends at last, its result is dropped.
    hold.resume()
    await log.wait { if case .eventIgnored(100, .cancelledEffect) = $0 { true } else { false } }
    #expect(await system.state == 0)
  }

  @Test func anEffectThatNeverFinishesDoesNotKeepItsSystemAlive() async {
    let hold = Hold()
    weak var weakSystem: BackgroundSystem<Int, Int, Never, Hold>?
    do {
      let system = await BackgroundSystem<Int, Int, Never, Hold>(
        initialState: 0, context: hold, reduce: { $0 += $1 },
        feedback: [
          .react(
            request: { _ in "hang" },
            effect: .run { _, hold in
              await hold.wait()
              return 1
            })
        ])
      weakSystem = system
      await hold.entered.wait(untilAtLeast: 1)
    }
    #expect(weakSystem == nil)
    // The orphaned work ends whenever it can, with nowhere to deliver to.
    hold.resume()
    await hold.exited.wait(untilAtLeast: 1)
  }

  // DESIGN §5, "Lifecycle": the app may let go of a system from a hook (a binding that dismisses
  // the screen owning it) while an effect's result is being reduced; nothing holds the system
  // then but the app. The steps still queued run without it, and its Observation hook, which
  // reaches the system, must not run after its `deinit`.
  @MainActor
  @Test func anObservedSystemReleasedByAHookDuringAnEffectsStepIsNotReachedAgain() async {
    final class Owner {
      var system: System<Int, Int, Never, Void>?
    }
    let owner = Owner()
    weak var weakSystem: System<Int, Int, Never, Void>?
    var seen: [Int] = []
    // The effect's result must come after the hooks below are in place. A `Task.yield()` did
    // not ensure it: the effect could resume on another thread and end before its launch
    // returned, and its result was then reduced inside the initializer, with no hook to see it
    // (the test hung about once in thirty runs). The gate opens once the hooks are in place.
    let hooksInPlace = Gate()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let system = System<Int, Int, Never, Void>(
        initialState: 0, context: (),
        feature: Feature(
          reduce: { state, event in state = event },
          feedback: [
            .react(
              request: { $0 == 0 ? "load" : nil },
              effect: .run { _, _ in
                await hooksInPlace.wait()
                return 1
              })
          ]))
      system.addLoopCallback { [unowned system] state in
        seen.append(state)
        switch state {
        case 1:
          // The effect's result: queue one more step, then let go of the system.
          system.send(2)
          owner.system = nil
        case 2:
          done.resume()
        default:
          break
        }
      }
      _ = system.state  // Observation is installed on the first read.
      owner.system = system
      weakSystem = system
      hooksInPlace.open()
    }
    #expect(seen == [1, 2])
    #expect(weakSystem == nil)
  }

  // MARK: Effects that throw

  @Test func everyKindOfFailingEffectIsReportedAndTheSystemGoesOn() async {
    let system = await BackgroundSystem<[String], String, CounterError, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(request: { $0.first == "go" ? 1 : nil }, effects: { _ in .failure(.generic) }),
        .react(
          request: { $0.first == "go" ? 2 : nil },
          effects: { _ in .unfold { _, complete in complete(.failure(.generic)) } }),
        .react(
          request: { $0.first == "go" ? 3 : nil },
          effect: .run { _, _ throws(CounterError) in throw .generic }),
        .react(
          request: { $0.first == "go" ? 4 : nil },
          effect: .stream { _, _, send throws(CounterError) in
            await send("streamed")
            throw .generic
          }),
      ])
    let log = Log()
    await log.observe(system)
    await system.send("go")
    await log.wait(count: 4) { if case .effectFailed = $0 { true } else { false } }
    #expect(log.failures == Array(repeating: .generic, count: 4))
    #expect(
      Set(
        log.activities.compactMap { activity -> Int? in
          if case .effectFailed(let request, _) = activity { request.value as? Int } else { nil }
        }) == [1, 2, 3, 4])
    await system.send("after")
    #expect(await system.state == ["go", "streamed", "after"])
  }

  @MainActor
  @Test func aFailureNobodyObservesIsReportedWithoutACrash() {
    let system = System<Int, Int, CounterError, EmptyContext>(
      initialState: 0, context: EmptyContext(), reduce: { $0 += $1 },
      feedback: [.react(request: { $0 == 1 ? 1 : nil }, effects: { _ in .failure(.generic) })])
    system.send(1)
    system.send(1)
    #expect(system.state == 2)
  }

  @Test func aCallbackCompletedTwiceDeliversOnlyTheFirstResult() async {
    let system = await BackgroundSystem<[Int], Int, Never, EmptyContext>(
      initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0 == [0] ? "twice" : nil },
          effects: { _ in
            .unfold { _, complete in
              complete(.success(1))
              complete(.success(2))
            }
          })
      ])
    let log = Recorder<SystemActivity<[Int], Int, Never>>()
    await log.observe(system)
    await system.send(0)
    await log.wait { if case .step(1, _, _) = $0 { true } else { false } }
    await system.send(3)
    #expect(await system.state == [0, 1, 3])
    #expect(log.ignored.isEmpty)
  }

  // MARK: Bursts

  struct Burst: Equatable {
    var count = 0
    var last = -1
    /// Events reduced out of order or twice: must stay 0.
    var outOfOrder = 0
  }

  @MainActor
  @Test func aBurstOfAMillionEventsFromALoopCallbackIsReducedExactlyOnceInOrder() {
    let total = StressLoad.scaled(1_000_000)
    let system = System<Burst, Int, Never, EmptyContext>(
      initialState: Burst(), context: EmptyContext(),
      reduce: { burst, event in
        if event != burst.last + 1 { burst.outOfOrder += 1 }
        burst.last = event
        burst.count += 1
      })
    system.addLoopCallback { [unowned system] burst in
      // All of them queue behind the first step.
      if burst.count == 1 { for event in 1..<total { system.send(event) } }
    }
    system.send(0)
    #expect(system.state == Burst(count: total, last: total - 1, outOfOrder: 0))
  }

  @MainActor
  @Test func aMillionChainedEventsKeepTheMailboxSmall() {
    let perChain = StressLoad.scaled(500_000)
    let census = LiveCount()
    let system = System<Chains, Link, Never, EmptyContext>(
      initialState: Chains(), context: EmptyContext(),
      reduce: { chains, link in
        chains.links[link.chain] += 1
        chains.lastChain = link.chain
      })
    system.addLoopCallback { [unowned system] chains in
      // Two chains, each step sending the next link of its own: the mailbox is never empty,
      // yet never holds more than two pending events.
      if chains.links == [1, 0] { system.send(Link(chain: 1, payload: Payload(census))) }
      let chain = chains.lastChain
      if chains.links[chain] < perChain {
        system.send(Link(chain: chain, payload: Payload(census)))
      }
    }
    system.send(Link(chain: 0, payload: Payload(census)))
    #expect(system.state.links == [perChain, perChain])
    #expect(census.current == 0)
    // Reduced events must not pile up in the mailbox while it never empties.
    #expect(census.peak < 10_000, "the mailbox kept \(census.peak) reduced events")
  }
}

import ArchitectureKit
import FunctionalCore
import TestDoubles

/// The storm's state: the current request, and the model check of every result reduced.
struct StormState: Sendable, Equatable {
  var request: Int?
  var accepted = 0
  /// Results reduced while their request was not the current one: must stay 0.
  var stale = 0

  static func reduce(_ state: inout StormState, _ event: StormEvent) {
    switch event {
    case .change(let request):
      state.request = request
    case .result(let request):
      // The model: a result may only be reduced while its request is the live one.
      if request == state.request { state.accepted += 1 } else { state.stale += 1 }
    }
  }
}

enum StormEvent: Sendable, Equatable {
  case change(Int?)
  case result(Int)
}

/// What the storm's effects share with the test, from any thread: a gate per request that the
/// test opens to let the effect finish, and a timeline of each effect's life.
///
/// Every moment is stamped with a ticket from one counter, under one lock, so the test can
/// order what the bodies saw against what the system did.
final class StormProbe: Sendable {
  /// When, in tickets, things happened to the effect of one request.
  struct Timeline {
    /// The body was inside its cancellation handler's scope.
    var entered: Int?
    /// The cancellation handler ran.
    var sawCancellation: Int?
    /// The body ended.
    var exited: Int?
    /// The test first opened the gate.
    var released: Int?
    /// The system's observer saw the effect cancelled (the task was cancelled just before).
    var cancelled: Int?
    /// The test's model: the system had processed a change away from the request, or stopped.
    var superseded: Int?

    /// Whether the body saw a cancellation at once, by `moment`.
    ///
    /// Either its handler ran before `moment` (a cancellation runs it on the cancelling
    /// thread), or its body had not started yet and the handler ran as it started. An effect
    /// the test let finish before `moment` may have ended without seeing it.
    func sawCancellation(atOnceBy moment: Int) -> Bool {
      if let released, released < moment { return true }
      guard let sawCancellation, let entered else { return false }
      return sawCancellation < moment || (entered > moment && sawCancellation < entered)
    }
  }

  private struct Contents {
    var gates: [Int: Gate] = [:]
    var isReleasingAll = false
    var ticket = 0
    var timelines: [Int: Timeline] = [:]
  }

  private let contents = Lock(Contents())
  let exited = Tally()

  /// Whether the effect for `request` ignores cancellation.
  ///
  /// Only its gate ends such an effect, as with work that cannot be interrupted; their late
  /// results are the storm's guaranteed stale results.
  static func ignoresCancellation(_ request: Int) -> Bool {
    request.isMultiple(of: 5)
  }

  /// The body of every storm effect.
  func body(_ request: Int) async {
    let gate = gate(for: request)
    await withTaskCancellationHandler {
      // Stamped inside the handler's scope: from here on, cancelling the task runs the
      // handler at once, on the cancelling thread.
      stamp(request, \.entered)
      await gate.wait()
    } onCancel: {
      stamp(request, \.sawCancellation)
      if !Self.ignoresCancellation(request) { gate.open() }
    }
    stamp(request, \.exited)
    exited.increment()
  }

  /// Called by the system's observer right after the system cancelled the effect's task.
  func noteCancelled(_ request: Int) {
    stamp(request, \.cancelled)
  }

  /// Called by the test once the system has processed a change away from `request`.
  func noteSuperseded(_ request: Int) {
    stamp(request, \.superseded)
  }

  /// Lets the effect for `request` finish, now or as soon as it starts.
  func release(_ request: Int) {
    stamp(request, \.released)
    gate(for: request).open()
  }

  /// Lets every effect finish, so a broken system cannot hang the test.
  func releaseAll() {
    let gates = contents.withLock { contents in
      contents.isReleasingAll = true
      return Array(contents.gates.values)
    }
    for gate in gates { gate.open() }
  }

  var timelines: [Int: Timeline] {
    contents.withLock { $0.timelines }
  }

  private func stamp(_ request: Int, _ moment: WritableKeyPath<Timeline, Int?>) {
    contents.withLock { contents in
      contents.ticket += 1
      if contents.timelines[request, default: Timeline()][keyPath: moment] == nil {
        contents.timelines[request, default: Timeline()][keyPath: moment] = contents.ticket
      }
    }
  }

  private func gate(for request: Int) -> Gate {
    contents.withLock { contents in
      if let gate = contents.gates[request] { return gate }
      let gate = Gate()
      if contents.isReleasingAll { gate.open() }
      contents.gates[request] = gate
      return gate
    }
  }
}

/// What the storm system's observer saw, counted on the system's actor.
final class StormObserver: Sendable {
  private struct Contents {
    var started: [Int] = []
    var cancelled = 0
    var staleIgnored = 0
    var failures = 0
  }

  private let contents = Lock(Contents())
  /// Result events reduced or ignored: each effect sends exactly one.
  let resultsAccountedFor = Tally()

  func record(_ activity: SystemActivity<StormState, StormEvent, Never>, probe: StormProbe) {
    switch activity {
    case .effectStarted(let request):
      contents.withLock { $0.started.append(request.value as? Int ?? -1) }
    case .effectCancelled(let request):
      probe.noteCancelled(request.value as? Int ?? -1)
      contents.withLock { $0.cancelled += 1 }
    case .step(.result, _, _):
      resultsAccountedFor.increment()
    case .eventIgnored(.result, let reason):
      if reason == .cancelledEffect { contents.withLock { $0.staleIgnored += 1 } }
      resultsAccountedFor.increment()
    case .effectFailed:
      contents.withLock { $0.failures += 1 }
    case .step, .effectFinished, .eventIgnored:
      break
    }
  }

  var started: [Int] { contents.withLock { $0.started } }
  var cancelled: Int { contents.withLock { $0.cancelled } }
  var staleIgnored: Int { contents.withLock { $0.staleIgnored } }
  var failures: Int { contents.withLock { $0.failures } }
}

public import ArchitectureKit
import FunctionalCore

/// A deterministic, exhaustive harness for a feature: the same reducer, feedback and context as
/// its ``ArchitectureKit/System``, on the same runtime, driven step by step by the test.
///
/// It runs the runtime that ``ArchitectureKit/System`` runs — the same mailbox, effect launch,
/// delivery, staleness rules and hooks — with two differences only: an effect runs only when the
/// test says so, and what an effect sends waits until the test receives it. The test either
/// ``simulate(_:in:event:fileID:filePath:line:column:)`` an effect's outcome, or
/// ``run(_:in:fileID:filePath:line:column:)`` the real effect against the test context.
///
/// The product detail sample's page, as its tests drive it (`.test()` is their context, with a
/// manual clock and a cart in memory; `.yeezy` their product):
///
/// ```swift
/// @Test func showsTheLoadedProduct() async {
///   let page = TestSystem(
///     initialState: ProductDetailState(), context: .test(),
///     reduce: ProductDetail.reduce, feedback: ProductDetail.feedback
///   )
///   page.send(.loadProduct) {
///     $0.screen = .loading
///     $0.request = .loadProduct(id: 1)
///     $0.requestCount = 1
///   }
///   page.expectStarted(ProductDetailRequest.loadProduct(id: 1))
///   page.simulate(ProductDetailRequest.loadProduct(id: 1), event: .productLoaded(.yeezy))
///   await page.receive(.productLoaded(.yeezy)) {
///     $0.screen = .productLoaded(.yeezy)
///     $0.request = nil
///   }
///   await page.finish()
/// }
/// ```
///
/// With ``Exhaustivity/on`` (the default) the test must account for everything: each state
/// change (a failure shows a line diff of expected and actual state), each event an effect sent
/// (``receive(_:timeout:fileID:filePath:line:column:assert:)``), each request that started or
/// was cancelled (``expectStarted(_:in:fileID:filePath:line:column:)``,
/// ``expectCancelled(_:in:fileID:filePath:line:column:)``), each unhandled effect failure
/// (``expectFailure(fileID:filePath:line:column:where:)``), and
/// ``finish(timeout:fileID:filePath:line:column:)`` fails while effects are still running.
/// Failures are reported to Swift Testing or XCTest, whichever runs the test, at the caller's
/// line.
///
/// ## Waiting never hangs
///
/// ``receive(_:timeout:fileID:filePath:line:column:assert:)``,
/// ``settle(timeout:fileID:filePath:line:column:)`` and
/// ``finish(timeout:fileID:filePath:line:column:)`` wait only for this system's effects that the
/// test ran. The effects run on an executor of the test system's own, which their child tasks,
/// task groups and the default actors they call inherit: when none of their jobs is queued or
/// running, nothing can happen without the test. So an effect suspended on anything the test
/// controls — asleep on the ``ManualClock``, holding an event the test has not received,
/// iterating a stream the test yields into, awaiting a fake backend's continuation — waits for
/// the test, and a wait returns as soon as its answer is certain. Work that never stops is ended
/// by a failsafe: after ``timeout`` of real time the wait fails the test, naming each effect
/// still working and its request. Cancelling the test's task ends every wait too.
///
/// ``finish(timeout:fileID:filePath:line:column:)`` also waits for the tasks of cancelled
/// effects to end, so their cleanup (an `AsyncStream`'s `onTermination`, a closed file) has run
/// when it returns.
///
/// With `effects: .automatic` (``EffectMode/automatic``) each effect runs as soon as it starts,
/// as TCA's `TestStore` runs effects, and receiving its event accounts for its start.
@MainActor
public final class TestSystem<
  State: Equatable, Event: Sendable, ErrorType: Error, Context: Sendable
> {
  /// How strictly the test must account for what happened.
  public var exhaustivity: Exhaustivity

  /// How long, in real time, a wait gives effects that work without the test before it fails.
  ///
  /// It is the failsafe that keeps a stuck effect from hanging the test; each wait can override
  /// it. Time the main actor spends busy elsewhere, with results waiting to hop back, does not
  /// count against it.
  public var timeout: Duration

  /// The runtime the harness parks.
  ///
  /// Package-visible so the property tests can observe every activity and stop it from a hook,
  /// as an app's observer would; the public API stops it only through `finish()`.
  package let shell: RuntimeShell<State, Event, ErrorType, Context>
  /// The shell's tasks, reachable from the nonisolated `deinit`.
  private let tasks: TaskBag
  let clock: ManualClock?
  /// When the effects run.
  public let effectMode: EffectMode
  var ledger = Ledger()
  /// Requests whose effects ran at once and whose start the test may still account for by
  /// receiving their events (``EffectMode/automatic`` only).
  var awaitingReceipt: [EffectRequest] = []
  var isFinished = false

  /// Creates a harness from a pure reducer, as
  /// ``ArchitectureKit/System/pure(initialState:context:reducer:uiBindings:userActions:feedback:)``
  /// takes it.
  ///
  /// Requests present in the initial state start at once and must be asserted like any other.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The test dependencies that effects run with.
  ///   - reducer: The feature's reducer.
  ///   - feedback: The feature's feedback loops.
  ///   - clock: The manual clock in `context`, if any: its
  ///     ``ManualClock/advance(by:fileID:filePath:line:column:)`` then also waits for this
  ///     system's effects between deadlines.
  ///   - exhaustivity: How strictly the test must account for what happened.
  ///   - effects: When the effects run: when the test says so (``EffectMode/manual``), or as
  ///     soon as they start (``EffectMode/automatic``).
  ///   - timeout: The failsafe of every wait, in real time (see ``timeout``).
  public convenience init(
    initialState: State,
    context: Context,
    reducer: @escaping (consuming State, Event) -> State,
    feedback: [Feedback<State, Event, ErrorType, Context>] = [],
    clock: ManualClock? = nil,
    exhaustivity: Exhaustivity = .on,
    effects: EffectMode = .manual,
    timeout: Duration = .seconds(5)
  ) {
    self.init(
      initialState: initialState,
      context: context,
      reduce: { state, event in state = reducer(consume state, event) },
      feedback: feedback,
      clock: clock,
      exhaustivity: exhaustivity,
      effects: effects,
      timeout: timeout
    )
  }

  /// Creates a harness from a reducer in mutating form, as
  /// ``ArchitectureKit/System/init(initialState:context:reduce:feedback:)`` takes it.
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The test dependencies that effects run with.
  ///   - reduce: The feature's reducer, in mutating form.
  ///   - feedback: The feature's feedback loops.
  ///   - clock: The manual clock in `context`, if any.
  ///   - exhaustivity: How strictly the test must account for what happened.
  ///   - effects: When the effects run: when the test says so (``EffectMode/manual``), or as
  ///     soon as they start (``EffectMode/automatic``).
  ///   - timeout: The failsafe of every wait, in real time (see ``timeout``).
  public convenience init(
    initialState: State,
    context: Context,
    reduce: @escaping (inout State, Event) -> Void,
    feedback: [Feedback<State, Event, ErrorType, Context>] = [],
    clock: ManualClock? = nil,
    exhaustivity: Exhaustivity = .on,
    effects: EffectMode = .manual,
    timeout: Duration = .seconds(5)
  ) {
    self.init(
      initialState: initialState, context: context,
      feature: Feature(reduce: reduce, feedback: feedback), clock: clock,
      exhaustivity: exhaustivity, effects: effects, timeout: timeout)
  }

  /// Creates a harness for a feature, as
  /// ``ArchitectureKit/System/init(initialState:context:feature:observers:)`` runs it: a composed
  /// parent, or a child feature on its own, with the same feature value.
  ///
  /// ```swift
  /// let shop = TestSystem(initialState: Shop.State(), context: .test, feature: Shop.feature)
  /// shop.send(.search(.queryChanged("yee"))) { $0.search.query = "yee" }
  /// shop.expectStarted(Search.Request.debounce("yee"))  // described as "search: debounce(yee)"
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state before any event.
  ///   - context: The test dependencies that effects run with.
  ///   - feature: The feature: its reducer and all its feedback, its children's included.
  ///   - clock: The manual clock in `context`, if any.
  ///   - exhaustivity: How strictly the test must account for what happened.
  ///   - effects: When the effects run: when the test says so (``EffectMode/manual``), or as
  ///     soon as they start (``EffectMode/automatic``).
  ///   - timeout: The failsafe of every wait, in real time (see ``timeout``).
  public init(
    initialState: State,
    context: Context,
    feature: Feature<State, Event, ErrorType, Context>,
    clock: ManualClock? = nil,
    exhaustivity: Exhaustivity = .on,
    effects: EffectMode = .manual,
    timeout: Duration = .seconds(5)
  ) {
    self.clock = clock
    self.exhaustivity = exhaustivity
    self.effectMode = effects
    self.timeout = timeout
    self.shell = RuntimeShell(
      owner: Self.self,
      isolation: MainActor.self,
      parking: RuntimeShell.Parking(
        runsEffectsAtOnce: effects == .automatic, executor: Self.makeEffectExecutor()),
      initialState: initialState,
      context: context,
      feature: feature
    )
    tasks = shell.tasks
    clock?.track(shell.work)
    shell.addObserver { [unowned self] activity in record(activity) }
    shell.start()
  }

  /// The executor the effects run on, where the system supports task executors (see
  /// `TestExecutor`); elsewhere the harness counts the effects' waits for the test by hand.
  private static func makeEffectExecutor() -> (any JobDrainer)? {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      TestExecutor()
    } else {
      nil
    }
  }

  deinit {
    // Cancels what still runs; effects reach the shell only while the bag is attached, so it
    // is detached before the shell goes.
    tasks.detach()
  }

  /// The current state.
  public var state: State {
    shell.core.state
  }

  /// The requests whose effects are running.
  ///
  /// They wait for the test to run or simulate them, or they work. An effect whose last event
  /// waits to be received has ended and is not listed.
  public var runningRequests: [EffectRequest] {
    let ended = Set(
      shell.parked.compactMap { result -> EffectID? in
        if case .outcome = result.content { result.id } else { nil }
      })
    return shell.core.runningRequests.filter { !ended.contains($0.id) }.map(\.request)
  }

  /// Adds a callback that receives the state after every step, as
  /// ``ArchitectureKit/System/addLoopCallback(_:)`` does, so hooks such as analytics can be
  /// tested too.
  ///
  /// ```swift
  /// var screens: [String] = []
  /// system.addLoopCallback { screens.append(Analytics.name(of: $0)) }
  /// ```
  ///
  /// - Parameter callback: Receives each new state.
  /// - Returns: A listener to remove the callback with ``removeListener(_:)``.
  @discardableResult
  public func addLoopCallback(_ callback: @escaping (State) -> Void) -> Listener {
    shell.addLoopCallback(callback)
  }

  /// Prints what the system does from now on, as ``ArchitectureKit/System/printChanges(to:)``
  /// does: each step's event, the changed paths of the state, the effects started and
  /// cancelled, and the failures — to follow a test that fails.
  ///
  /// - Parameter output: Receives each line, without a line break; `nil` writes the lines on
  ///   standard error.
  public func printChanges(to output: ((String) -> Void)? = nil) {
    shell.attachRecorder(
      ChangePrinter(output: output ?? printToStandardError))
  }

  /// Removes a loop callback, as ``ArchitectureKit/System/removeListener(_:)`` does: it
  /// receives nothing more, even when it is removed from inside its own call.
  ///
  /// - Parameter listener: What ``addLoopCallback(_:)`` returned.
  public func removeListener(_ listener: Listener) {
    shell.removeListener(listener)
  }

  /// Sends an event, as a user would, and checks the state change.
  ///
  /// Events that effects sent and the test has not received yet are reduced first, as the app
  /// would have reduced them when they arrived; with ``Exhaustivity/on`` that is a failure.
  ///
  /// ```swift
  /// system.send(.increment) { $0 = 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - event: The event to reduce.
  ///   - fileID: The caller's file ID; failures are reported there.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  ///   - assert: Changes the state before the step into the state you expect after it. Omit it
  ///     when the event must not change the state.
  public func send(
    _ event: Event,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    assert: ((inout State) -> Void)? = nil
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    checkAccountedFor(before: "sending \(event)", at: site)
    let before = state
    shell.send(event)
    reportUnrouted(at: site)
    checkState(before: before, assert, after: "sending \(event)", at: site)
  }
}

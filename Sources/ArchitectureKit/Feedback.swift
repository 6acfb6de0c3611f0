/// A feedback loop: watches the state, derives requests from it and runs an effect for each;
/// the effects' results come back to the system as events.
///
/// Requests are values derived from the state, so the state alone decides which effects run
/// (RxFeedback's semantics):
///
/// | the request in the new state | what happens |
/// |---|---|
/// | `nil` | nothing runs |
/// | a value, none before | its effect starts |
/// | equal (`==`) to the running one | the running effect is kept |
/// | different from the running one | the old effect is cancelled, a new one starts |
/// | `nil` after a value | the running effect is cancelled |
///
/// A cancelled effect never delivers an event, even if its work already finished on another
/// thread. An effect that ends leaves its request in place: it runs again only when the request
/// changes, or vanishes and comes back.
///
/// ```swift
/// let loadProduct = Feedback<State, Event, ProductError, Context>.react(
///   request: \.productRequest,
///   effects: { request in
///     getProduct(cached: request.cached).map(Event.loaded).mapErrorRecover(Event.failed)
///   }
/// )
/// ```
///
/// Where the requests come from picks the form: ``react(request:effect:)`` (one request),
/// ``react(requests:effect:)-((State)->Set<Request>,_)`` (a set, or a ``RequestSet``),
/// ``react(keyedRequests:effect:)`` and ``react(keyed:effect:)`` (by key),
/// ``react(on:policy:until:effect:)`` (events). What runs for a request is one
/// ``FeedbackEffect`` value, the same for every form: `effect: .run { … }` returns one event,
/// `.perform` an event or `nil`, `.job` sends progress and returns its last event, `.stream`
/// sends events until it is cancelled, `.asyncResult` builds an ``FunctionalCore/AsyncResult``
/// and `.timer` ticks without drift. The seed's forms,
/// ``react(_:when:)``, ``react(request:effects:)`` and ``react(requests:effects:)``, take an
/// `AsyncResult` builder directly (`effects:`).
///
/// Policies such as ``debounced(for:clock:)``, ``retrying(_:backoff:clock:random:)`` and
/// ``timeout(_:clock:event:)`` change when and how often the effects run; see
/// <doc:TimeAndRetries>.
///
/// A `Feedback` describes a loop; each system that uses it keeps its own running effects, so one
/// value can serve many systems. It is not `Sendable`: its closures run on the system's
/// isolation. The closures of its effects are `@Sendable` because they run off it.
public struct Feedback<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  /// The work the runtime runs for one request.
  @usableFromInline package typealias Work = ArchitectureKit.Effect<Event, ErrorType, Context>

  /// Makes the per-system reconciler, given the feedback's position in the system.
  @usableFromInline let makeReconciler: (Int) -> Reconciler<State, Event, ErrorType, Context>

  /// Makes the reconciler of a system whose compositions share bookkeeping between reducer and
  /// feedback (see ``CompositionNodes``); `nil` when ``makeReconciler`` is all there is.
  @usableFromInline let makeSystemReconciler:
    ((Int, CompositionNodes) -> Reconciler<State, Event, ErrorType, Context>)?

  /// Whether the loop must be reconciled on every step, even one that left its state alone.
  ///
  /// An event-triggered loop with `until:` is asked on each step while its effects run. A
  /// `forEach` whose children have such a loop reconciles every child on every step.
  @usableFromInline let reconcilesEveryStep: Bool

  @usableFromInline
  init(
    reconcilesEveryStep: Bool = false,
    makeReconciler: @escaping (Int) -> Reconciler<State, Event, ErrorType, Context>,
    makeSystemReconciler: (
      (Int, CompositionNodes) -> Reconciler<State, Event, ErrorType, Context>
    )? = nil
  ) {
    self.reconcilesEveryStep = reconcilesEveryStep
    self.makeReconciler = makeReconciler
    self.makeSystemReconciler = makeSystemReconciler
  }

  /// The seed's form: runs `effects` with the state when `condition` turns true.
  ///
  /// The effect starts on the false-to-true edge of `condition` (and at creation when it holds
  /// for the initial state) and is cancelled if the condition turns false before the effect
  /// ends. Its request, as observers and tests see it, is `true`.
  ///
  /// Like every effect, it runs in a task that starts on the system's thread and stays there
  /// until its first suspension (``startingDetached()`` starts it off that thread); one send
  /// runs at most 1,024 effects inline (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// ```swift
  /// Feedback<State, Event, ProductError, Context>.react({ _ in
  ///   getProduct(cached: false).map(Event.loaded).mapErrorRecover(Event.failed)
  /// }, when: { $0 == .loading })
  /// ```
  ///
  /// - Parameters:
  ///   - effects: Builds the effect from the state in which the condition turned true.
  ///   - condition: Whether the effect should be running in a state.
  /// - Returns: The feedback.
  @inlinable
  public static func react(
    _ effects: @escaping (State) -> AsyncResult<Context, Event, ErrorType>,
    when condition: @escaping (State) -> Bool
  ) -> Feedback {
    Feedback { index in
      Reconciler.condition(
        feedbackIndex: index,
        condition: condition,
        effect: { Work(effects($0)) }
      )
    }
  }

  /// Runs an effect for the request the state holds, with the seed's
  /// ``FunctionalCore/AsyncResult`` effects.
  ///
  /// The same as ``react(request:effect:)`` with an ``FeedbackEffect/asyncResult(_:)`` effect.
  ///
  /// Like every effect, it runs in a task that starts on the system's thread and stays there
  /// until its first suspension (``startingDetached()`` starts it off that thread); one send
  /// runs at most 1,024 effects inline (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - effects: Builds the effect for a request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    effects: @escaping (Request) -> AsyncResult<Context, Event, ErrorType>
  ) -> Feedback {
    single(request) { Work(effects($0)) }
  }

  /// Runs an effect for the request the state holds.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(request: \.userRequest, effect: .run {
  ///   _, context throws(APIError) in
  ///   .userLoaded(try await context.api.user())
  /// })
  /// ```
  ///
  /// The effect is a value that says how the work runs for one request:
  /// ``FeedbackEffect/run(_:)`` returns one event, ``FeedbackEffect/perform(_:)`` an event or
  /// `nil`, ``FeedbackEffect/job(_:)`` sends progress and returns its last event,
  /// ``FeedbackEffect/stream(_:)`` sends events until it is cancelled,
  /// ``FeedbackEffect/asyncResult(_:)`` builds an ``FunctionalCore/AsyncResult`` and
  /// ``FeedbackEffect/timer(every:clock:coalescing:tick:)`` ticks without drift.
  ///
  /// The effect runs in a task of its own, on the system's thread until it first suspends and
  /// off the system's actor after (from its first line with ``startingDetached()``), and sees
  /// `Task.isCancelled` when its request changes or vanishes. A thrown error is reported to the
  /// system's observers. One send runs at most 1,024 effects inline; further ones start in a
  /// later turn of the system's actor (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - effect: What runs for a request.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    effect: Effect<Request>
  ) -> Feedback {
    single(request, effect.work)
  }

  @inlinable
  static func single<Request: Equatable & Sendable>(
    _ request: @escaping (State) -> Request?,
    _ effect: @escaping (Request) -> Work
  ) -> Feedback {
    Feedback { index in
      Reconciler.single(feedbackIndex: index, request: request, effect: effect)
    }
  }
}

@available(*, unavailable, message: "A feedback's closures run on its system's isolation.")
extension Feedback: Sendable {}

/// What a composition needs to know of its child's feedback, whatever the child's types.
@usableFromInline
protocol FeedbackLoop {
  /// See ``Feedback/reconcilesEveryStep``.
  var reconcilesEveryStep: Bool { get }
}

extension Feedback: FeedbackLoop {}

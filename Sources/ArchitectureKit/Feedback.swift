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
/// Effects come in several shapes, each with its own argument label:
/// - `effects:` returns an ``FunctionalCore/AsyncResult`` (the seed's form);
/// - `run:` is an `async` function that returns one event;
/// - `perform:` is an `async` function that returns an event or `nil`, for work that need not
///   report back;
/// - `job:` is an `async` function that sends progress and returns its last event;
/// - `stream:` is an `async` function that may send many events until it is cancelled.
///
/// Policies such as ``debounced(for:clock:)``, ``retrying(_:backoff:clock:random:)`` and
/// ``timeout(_:clock:event:)`` change when and how often the effects run; see
/// <doc:TimeAndRetries>.
///
/// A `Feedback` describes a loop; each system that uses it keeps its own running effects, so one
/// value can serve many systems. It is not `Sendable`: its closures run on the system's
/// isolation. The effect closures of `run:` and `stream:` are `@Sendable` because they run off
/// it.
public struct Feedback<State, Event: Sendable, ErrorType: Error, Context: Sendable> {
  @usableFromInline package typealias Effect = ArchitectureKit.Effect<Event, ErrorType, Context>

  /// Makes the per-system reconciler, given the feedback's position in the system.
  @usableFromInline let makeReconciler: (Int) -> Reconciler<State, Event, ErrorType, Context>

  @usableFromInline
  init(makeReconciler: @escaping (Int) -> Reconciler<State, Event, ErrorType, Context>) {
    self.makeReconciler = makeReconciler
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
        effect: { Effect(effects($0)) }
      )
    }
  }

  /// Runs an effect for the request the state holds, with the seed's
  /// ``FunctionalCore/AsyncResult`` effects.
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
    single(request) { Effect(effects($0)) }
  }

  /// Runs an `async` function for the request the state holds; it returns one event.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(request: \.userRequest, run: {
  ///   _, context in
  ///   .userLoaded(try await context.api.user())
  /// })
  /// ```
  ///
  /// The function runs in a task of its own, on the system's thread until it first suspends and
  /// off the system's actor after (from its first line with ``startingDetached()``), and sees
  /// `Task.isCancelled` when its request changes or vanishes. A thrown error is reported to the
  /// system's observers. One send runs at most 1,024 effects inline; further ones start in a
  /// later turn of the system's actor (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - run: The effect: the request and the context in, one event out.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    run: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event
  ) -> Feedback {
    single(request, makeEffect(run))
  }

  /// Runs a long-running `async` function for the request the state holds; it may send many
  /// events until it returns or is cancelled.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(request: \.timerInterval, stream: {
  ///   interval, context, send in
  ///   // The sleep throws when the request changes or vanishes: the loop ends there.
  ///   while (try? await context.clock.sleep(for: interval)) != nil {
  ///     await send(.tick)
  ///   }
  /// })
  /// ```
  ///
  /// A stream runs until its request changes or vanishes, which cancels it, even when the
  /// change comes from the stream's own last event. Work that ends with a final event (progress,
  /// progress, done) is a job: use ``react(request:job:)``, so its last event *finishes* it.
  ///
  /// Events it sends before its first suspension are held and handed over when it suspends; a
  /// stream that sends in a loop without ever suspending is made to hop once it has used up the
  /// inline budget (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// Like every effect, it runs in a task that starts on the system's thread and stays there
  /// until its first suspension (``startingDetached()`` starts it off that thread); one send
  /// runs at most 1,024 effects inline (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - stream: The effect: the request, the context and a ``Send`` to send events with.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    stream: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Void
  ) -> Feedback {
    single(request, makeStream(stream))
  }

  /// Runs a job for the request the state holds: it may send progress events, and its return
  /// value is its last event.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(request: \.upload, job: {
  ///   upload, context, send in
  ///   for chunk in upload.chunks {
  ///     await context.api.send(chunk)
  ///     await send(.progress(chunk.end))
  ///   }
  ///   return .uploaded(upload.id)
  /// })
  /// ```
  ///
  /// Unlike a ``react(request:stream:)`` effect, a job *finishes* when it returns, before its
  /// last event is reduced: a last event that clears the request does not cancel the job, and
  /// observers see it finish. Progress events are reduced while the job runs, so one that clears
  /// the request cancels it, as for any running effect.
  ///
  /// Like every effect, it runs in a task that starts on the system's thread and stays there
  /// until its first suspension (``startingDetached()`` starts it off that thread); one send
  /// runs at most 1,024 effects inline (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameters:
  ///   - request: The request in a state, or `nil` when nothing should run.
  ///   - job: The effect: the request, the context and a ``Send`` for progress in, the last
  ///     event out.
  /// - Returns: The feedback.
  @inlinable
  public static func react<Request: Equatable & Sendable>(
    request: @escaping (State) -> Request?,
    job: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Event
  ) -> Feedback {
    single(request, makeJob(job))
  }

  @inlinable
  static func single<Request: Equatable & Sendable>(
    _ request: @escaping (State) -> Request?,
    _ effect: @escaping (Request) -> Effect
  ) -> Feedback {
    Feedback { index in
      Reconciler.single(feedbackIndex: index, request: request, effect: effect)
    }
  }

  /// Turns an `async` function returning one event into an effect builder.
  @inlinable
  static func makeEffect<Request: Sendable>(
    _ run: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event
  ) -> (Request) -> Effect {
    { request in
      .single { context in
        do throws(ErrorType) {
          return .success(try await run(request, context))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  /// Turns a long-running `async` function into an effect builder.
  @inlinable
  static func makeStream<Request: Sendable>(
    _ stream: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Void
  ) -> (Request) -> Effect {
    { request in
      .stream { context, send in
        do throws(ErrorType) {
          try await stream(request, context, send)
          return .success(nil)
        } catch {
          return .failure(error)
        }
      }
    }
  }
}

extension Feedback {
  /// Turns a job, which returns its last event, into an effect builder.
  @inlinable
  static func makeJob<Request: Sendable>(
    _ job: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Event
  ) -> (Request) -> Effect {
    { request in
      .stream { context, send in
        do throws(ErrorType) {
          return .success(try await job(request, context, send))
        } catch {
          return .failure(error)
        }
      }
    }
  }
}

@available(*, unavailable, message: "A feedback's closures run on its system's isolation.")
extension Feedback: Sendable {}

import FunctionalCore

extension Feedback {
  /// What a feedback of this kind runs for one request: a ``FeedbackEffect`` with the
  /// feedback's event, error and context types, so a call site writes `.run { … }`.
  ///
  /// ```swift
  /// let search: Feedback<State, Event, APIError, Context>.Effect<String> = .run {
  ///   query, context throws(APIError) in .results(try await context.api.search(query))
  /// }
  /// ```
  public typealias Effect<Request: Sendable> = FeedbackEffect<Request, Event, ErrorType, Context>
}

/// What a feedback runs for one request: an `async` function, a job, a stream, an
/// ``FunctionalCore/AsyncResult`` or a timer.
///
/// Every feedback form takes one effect, so the way requests are derived (one request, a
/// set, keyed requests, events) and the shape of the work are chosen independently, and every
/// policy works on every shape:
///
/// ```swift
/// Feedback<State, Event, APIError, Context>.react(request: \.query, effect: .run {
///   query, context throws(APIError) in
///   .results(try await context.api.search(query))
/// })
/// .debounced(for: .milliseconds(300), clock: \.clock)
/// ```
///
/// An effect's closures are `@Sendable`: they run in the effect's task, off the system's
/// isolation after their first suspension. They see `Task.isCancelled` when the request
/// changes or vanishes; a thrown error is reported to the system's observers.
public struct FeedbackEffect<
  Request: Sendable, Event: Sendable, ErrorType: Error, Context: Sendable
> {
  /// Builds the work for one request.
  @usableFromInline let work: (Request) -> ArchitectureKit.Effect<Event, ErrorType, Context>

  @usableFromInline
  init(work: @escaping (Request) -> ArchitectureKit.Effect<Event, ErrorType, Context>) {
    self.work = work
  }

  /// An `async` function that returns one event.
  ///
  /// - Parameter run: The request and the context in, one event out.
  /// - Returns: The effect.
  @inlinable
  public static func run(
    _ run: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event
  ) -> FeedbackEffect {
    FeedbackEffect { request in
      .single { context in
        do throws(ErrorType) {
          return .success(try await run(request, context))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  /// An `async` function that returns an event, or `nil` to end without one: for work whose
  /// result does not always matter (a save that reports only failures, analytics).
  ///
  /// - Parameter perform: The request and the context in, an event or `nil` out.
  /// - Returns: The effect.
  @inlinable
  public static func perform(
    _ perform: @escaping @Sendable (Request, Context) async throws(ErrorType) -> Event?
  ) -> FeedbackEffect {
    FeedbackEffect { request in
      .stream { context, _ in
        do throws(ErrorType) {
          return .success(try await perform(request, context))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  /// A job: it may send progress events, and its return value is its last event.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(request: \.upload, effect: .job {
  ///   upload, context, send in
  ///   for chunk in upload.chunks {
  ///     await context.api.send(chunk)
  ///     await send(.progress(chunk.end))
  ///   }
  ///   return .uploaded(upload.id)
  /// })
  /// ```
  ///
  /// Unlike a ``stream(_:)``, a job *finishes* when it returns, before its last event is
  /// reduced: a last event that clears the request does not cancel the job, and observers see
  /// it finish. Progress events are reduced while the job runs, so one that clears the request
  /// cancels it, as for any running effect.
  ///
  /// - Parameter job: The request, the context and a ``Send`` for progress in, the last event
  ///   out.
  /// - Returns: The effect.
  @inlinable
  public static func job(
    _ job: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Event
  ) -> FeedbackEffect {
    FeedbackEffect { request in
      .stream { context, send in
        do throws(ErrorType) {
          return .success(try await job(request, context, send))
        } catch {
          return .failure(error)
        }
      }
    }
  }

  /// A long-running `async` function that may send many events until it returns or is
  /// cancelled.
  ///
  /// ```swift
  /// Feedback<State, Event, Never, Context>.react(request: \.timerInterval, effect: .stream {
  ///   interval, context, send in
  ///   // The sleep throws when the request changes or vanishes: the loop ends there.
  ///   while (try? await context.clock.sleep(for: interval)) != nil {
  ///     await send(.tick)
  ///   }
  /// })
  /// ```
  ///
  /// A stream runs until its request changes or vanishes, which cancels it, even when the
  /// change comes from the stream's own last event. Work that ends with a final event
  /// (progress, progress, done) is a ``job(_:)``, so its last event *finishes* it.
  ///
  /// Events it sends before its first suspension are held and handed over when it suspends;
  /// a stream that sends in a loop without ever suspending is made to hop once it has used up
  /// the inline budget (<doc:Concurrency#Inline-work-is-bounded>).
  ///
  /// - Parameter stream: The request, the context and a ``Send`` to send events with.
  /// - Returns: The effect.
  @inlinable
  public static func stream(
    _ stream: @escaping @Sendable (Request, Context, Send<Event>) async throws(ErrorType) -> Void
  ) -> FeedbackEffect {
    FeedbackEffect { request in
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

  /// The ``FunctionalCore/AsyncResult`` a request asks for: the seed's effects, as a value.
  ///
  /// ```swift
  /// Feedback<State, Event, APIError, Context>.react(
  ///   keyed: \.downloads,
  ///   effect: .asyncResult { url in download(url).map { Event.downloaded(url, $0) } }
  /// )
  /// ```
  ///
  /// - Parameter effects: Builds the work for one request.
  /// - Returns: The effect.
  @inlinable
  public static func asyncResult(
    _ effects: @escaping (Request) -> AsyncResult<Context, Event, ErrorType>
  ) -> FeedbackEffect {
    FeedbackEffect { ArchitectureKit.Effect(effects($0)) }
  }
}

@available(*, unavailable, message: "An effect's builder runs on its system's isolation.")
extension FeedbackEffect: Sendable {}

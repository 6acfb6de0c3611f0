/// Identifies one run of an effect: a request that started, until it is cancelled.
@usableFromInline
package struct EffectID: Hashable, Sendable, CustomStringConvertible {
  /// The effect's serial number in its system: effects started later have larger ones.
  @usableFromInline package let rawValue: UInt64
  /// Where the system keeps the effect while it is live.
  @usableFromInline let slot: UInt32

  @usableFromInline
  init(rawValue: UInt64, slot: UInt32) {
    self.rawValue = rawValue
    self.slot = slot
  }

  @usableFromInline package var description: String { "#\(rawValue)" }

  /// An identifier no effect ever has: serial numbers start at 1.
  @usableFromInline static let neverLive = EffectID(rawValue: 0, slot: .max)
}

/// The work a feedback asks the runtime to do for one request.
@usableFromInline
package enum Effect<Event: Sendable, Failure: Error, Context: Sendable>: Sendable {
  /// An outcome known without running anything (``AsyncResult/pure(_:)`` and friends).
  case done(Result<Event, Failure>)
  /// Work that ends with one event or a failure.
  case single(@Sendable (Context) async throws(CancellationError) -> Result<Event, Failure>)
  /// Long-running work that may send many events until it ends or is cancelled; a job's last
  /// event is its return value, a stream returns `nil`.
  case stream(
    @Sendable (Context, Send<Event>) async throws(CancellationError) -> Result<Event?, Failure>
  )
  /// Work that starts as a task of its own, off the launching thread, rather than on it until
  /// its first suspension (``Feedback/startingDetached()``).
  indirect case detached(Effect)

  /// Whether the effect starts as a task of its own.
  @inlinable
  package var isDetached: Bool {
    if case .detached = self { true } else { false }
  }

  /// The same change made to the work of the effect, which stays detached if it was: how a
  /// policy wraps an effect.
  @inlinable
  package func mapWork(_ transform: (Effect) -> Effect) -> Effect {
    if case .detached(let work) = self { .detached(transform(work)) } else { transform(self) }
  }

  /// Builds the effect of an ``AsyncResult``, keeping its known outcome when it has one.
  @inlinable
  package init(_ result: AsyncResult<Context, Event, Failure>) {
    switch result.work {
    case .done(let outcome): self = .done(outcome)
    case .deferred(let operation): self = .single(operation)
    }
  }
}

/// How a running effect ended.
@usableFromInline
package enum EffectOutcome<Event: Sendable, Failure: Error>: Sendable {
  /// The outcome of a known result.
  @inlinable
  package init(_ result: Result<Event, Failure>) {
    switch result {
    case .success(let event): self = .event(event)
    case .failure(let error): self = .failed(error)
    }
  }

  /// The effect ended with its event: a single-event effect's result, a job's last event.
  case event(Event)
  /// A stream ended without error and without a last event.
  case finished
  /// The effect failed.
  case failed(Failure)
  /// The effect stopped because it was cancelled.
  case cancelled
}

extension Effect {
  /// Runs the effect and reports how it ended.
  ///
  /// Not isolated to the caller's actor: called from an effect's task, which on the main actor
  /// starts on the launching thread and leaves it at the effect's first suspension (see
  /// `RuntimeShell.launch`).
  ///
  /// - Parameters:
  ///   - context: The dependencies handed to the effect.
  ///   - send: Makes what delivers the events of a long-running effect; called only for one.
  /// - Returns: How the effect ended.
  @inlinable @concurrent
  package func run(
    with context: Context,
    send: @autoclosure () -> Send<Event>
  ) async -> EffectOutcome<Event, Failure> {
    do {
      switch self {
      case .done(.success(let event)): return .event(event)
      case .done(.failure(let error)): return .failed(error)
      case .single(let operation):
        switch try await operation(context) {
        case .success(let event): return .event(event)
        case .failure(let error): return .failed(error)
        }
      case .stream(let operation):
        switch try await operation(context, send()) {
        case .success(let event?): return .event(event)
        case .success(nil): return .finished
        case .failure(let error): return .failed(error)
        }
      case .detached(let work):
        return await work.run(with: context, send: send())
      }
    } catch {
      return .cancelled
    }
  }
}

extension Effect {
  /// The same work as a parent feature's effect: its context projected from the parent's, its
  /// events embedded into the parent's, its failure mapped to the parent's.
  @usableFromInline
  func lifted<ParentEvent: Sendable, ParentFailure: Error, ParentContext: Sendable>(
    embed: @escaping @Sendable (Event) -> ParentEvent,
    project: @escaping @Sendable (ParentContext) -> Context,
    mapError: @escaping @Sendable (Failure) -> ParentFailure
  ) -> ArchitectureKit.Effect<ParentEvent, ParentFailure, ParentContext> {
    switch self {
    case .done(let result):
      return .done(result.map(embed).mapError(mapError))
    case .single(let operation):
      return .single { context throws(CancellationError) in
        try await operation(project(context)).map(embed).mapError(mapError)
      }
    case .stream(let operation):
      return .stream { context, send throws(CancellationError) in
        let childSend = Send<Event> { event in await send(embed(event)) }
        return try await operation(project(context), childSend)
          .map { $0.map(embed) }.mapError(mapError)
      }
    case .detached(let work):
      return .detached(work.lifted(embed: embed, project: project, mapError: mapError))
    }
  }
}

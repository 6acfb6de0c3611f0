internal import FunctionalCore

/// What an effect reports while its launch is still under way.
///
/// On the main actor, an effect's task starts on the thread that launches it and runs there until
/// its first suspension (an actor's effects start as tasks of their own, which report through the
/// port from the start and need no handoff). Until the launch ends, the task cannot reach its
/// runtime through the port without a hop (or, on the main thread, without re-entering the launch),
/// so what it reports meanwhile — the events it sends, how it ended — is held here, and the launch
/// hands it to the core itself, in order. Once the launch closed the handoff, the task reports
/// through the port. A stream that sends without suspending runs on, its events held, until it
/// suspends, ends, or fills the handoff's capacity (what is left of its drain's inline budget): its
/// next event then goes through the port, which suspends it, so even a stream that would never
/// suspend gives the launching thread back.
///
/// The task may resume on another thread before the launch closes the handoff; the lock makes
/// the two agree: whatever the task holds before the close, the launch delivers, and nothing
/// after it. Nothing is lost and nothing is delivered twice.
@usableFromInline
struct EffectHandoff<Event: Sendable, Failure: Error>: Sendable {
  /// What the effect reported before the launch ended.
  @usableFromInline
  struct Early {
    /// The events it sent, oldest first.
    @usableFromInline var events: [Event] = []
    /// How it ended, if it did.
    @usableFromInline var outcome: EffectOutcome<Event, Failure>?
    /// Whether the launch still takes reports.
    @usableFromInline var isOpen = true
    /// How many more events the launch takes.
    @usableFromInline var capacity: Int

    @usableFromInline
    init(capacity: Int) {
      self.capacity = capacity
    }
  }

  @usableFromInline let early: Lock<Early>

  /// Creates an open handoff that holds at most `capacity` events.
  @inlinable
  init(capacity: Int) {
    early = Lock(Early(capacity: capacity))
  }

  /// Holds an event for the launch; returns `false` once the launch ended, the effect did (an
  /// event sent after its end goes through the port, which ignores it), or the handoff is full.
  @inlinable
  func hold(_ event: Event) -> Bool {
    early.withLock { early in
      guard early.isOpen, early.outcome == nil, early.events.count < early.capacity else {
        // Full: the launch takes no more, or a later event would overtake this one.
        early.isOpen = false
        return false
      }
      early.events.append(event)
      return true
    }
  }

  /// Holds how the effect ended for the launch; returns `false` once the launch ended.
  @inlinable
  func hold(_ outcome: EffectOutcome<Event, Failure>) -> Bool {
    early.withLock { early in
      guard early.isOpen else { return false }
      early.outcome = outcome
      return true
    }
  }

  /// Ends the launch: returns what the effect reported so far; it reports the rest itself.
  @inlinable
  func close() -> Early {
    early.withLock { early in
      early.isOpen = false
      return early
    }
  }
}

internal import FunctionalCore

/// What an effect reports while its launch is still under way.
///
/// On the main actor, an effect's task starts on the thread that launches it and runs there
/// until its first suspension (an actor's effects start as tasks of their own, which report
/// through the port from the start and need no handoff). Until the launch ends, the task cannot reach its runtime through
/// the port without a hop (or, on the main thread, without re-entering the launch), so what it
/// reports meanwhile — the events it sends, how it ended — is held here, and the launch hands it
/// to the core itself, in order. Once the launch closed the handoff, the task reports through the port.
/// A stream that sends without suspending runs on, its events held, until it suspends or ends:
/// one that never suspends would hold the launching thread.
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

    @usableFromInline
    init() {}
  }

  @usableFromInline let early: Lock<Early>

  @inlinable
  init() {
    early = Lock(Early())
  }

  /// Holds an event for the launch; returns `false` once the launch ended, or the effect did
  /// (an event sent after its end goes through the port, which ignores it).
  @inlinable
  func hold(_ event: Event) -> Bool {
    early.withLock { early in
      guard early.isOpen, early.outcome == nil else { return false }
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

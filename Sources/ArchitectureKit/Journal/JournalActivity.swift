/// Something a system did, as the recorders attached to it see it: a change printer
/// (``System/printChanges(to:)``) or a ``Journal``.
///
/// The shell makes one per thing the core reports (see `RuntimeShell+Journal.swift`), only while
/// a recorder is attached.
package enum JournalActivity<State, Event> {
  /// An event was reduced; `state` is the state after it.
  case step(Event, origin: JournalOrigin, state: State)
  /// An effect started for a request.
  case started(effect: UInt64, request: EffectRequest)
  /// A running effect was cancelled: its request changed or vanished, or the system stopped.
  case cancelled(effect: UInt64, request: EffectRequest)
  /// An effect ended without error (with its event, if any, reduced in the next step).
  case finished(effect: UInt64, request: EffectRequest)
  /// An effect failed and no event was made of the error.
  case failed(effect: UInt64, request: EffectRequest, error: any Error)
  /// An event was not reduced.
  case ignored(Event, reason: IgnoredEventReason, origin: JournalOrigin)
  /// The system was stopped; the cancellations it makes follow.
  case stopped
}

/// Where an event came from: the app, or an effect.
package enum JournalOrigin: Sendable {
  /// Sent from outside the effects: a `send`, a user action, a listener, a hook.
  case app
  /// Sent by a running effect, or the event it ended with: its serial number in the system,
  /// and its request when the recording knows it (an event of an effect cancelled before it
  /// arrived may come after the recording forgot the request).
  case effect(UInt64, request: EffectRequest?)
}

/// What the shell tells about a system's activity, while attached: a change printer or a
/// ``Journal``.
package protocol ActivityRecorder<State, Event>: AnyObject {
  associatedtype State
  associatedtype Event

  /// Starts recording a system.
  ///
  /// - Parameters:
  ///   - system: The system's type, for people.
  ///   - state: The state at this moment, which the first step's changes are taken from.
  ///   - time: This moment, on the monotonic clock every later activity is timed on.
  /// - Returns: `false` if the recorder already records a system.
  func begin(system: String, state: State, at time: ContinuousClock.Instant) -> Bool

  /// Records one activity, on the system's isolation.
  ///
  /// - Parameters:
  ///   - activity: What the system did.
  ///   - time: When, on the monotonic clock.
  func record(_ activity: JournalActivity<State, Event>, at time: ContinuousClock.Instant)
}

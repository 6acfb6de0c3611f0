/// Something a system did, as the recorders attached to it see it: a change printer
/// (``System/printChanges(to:)``) or a ``Journal``.
///
/// The shell makes one per thing the core reports (see `RuntimeShell+Journal.swift`), only while
/// a recorder is attached. Events and states are `Any`: recorders describe, compare and encode
/// them by reflection anyway, and a generic activity, made and matched by unspecialized code,
/// looked up its metadata each time.
@usableFromInline
package enum JournalActivity {
  /// An event was reduced; `state` is the state after it.
  case step(event: Any, origin: JournalOrigin, state: Any)
  /// An effect started for a request.
  case started(effect: UInt64, request: EffectRequest)
  /// A running effect was cancelled: its request changed or vanished, or the system stopped.
  case cancelled(effect: UInt64, request: EffectRequest)
  /// An effect ended without error (with its event, if any, reduced in the next step).
  case finished(effect: UInt64, request: EffectRequest)
  /// An effect failed and no event was made of the error.
  case failed(effect: UInt64, request: EffectRequest, error: any Error)
  /// An event was not reduced.
  case ignored(event: Any, reason: IgnoredEventReason, origin: JournalOrigin)
  /// The system was stopped; the cancellations it makes follow.
  case stopped
}

/// Where an event came from: the app, or an effect.
@usableFromInline
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
package protocol ActivityRecorder: AnyObject {
  /// Starts recording a system.
  ///
  /// - Parameters:
  ///   - system: The system's type, for people.
  ///   - state: The state at this moment, which the first step's changes are taken from.
  ///   - time: This moment, in nanoseconds on `MonotonicClock`, which every later activity
  ///     is timed on.
  /// - Returns: `false` if the recorder already records a system.
  func begin(system: String, state: Any, at time: Int64) -> Bool

  /// Records one activity, on the system's isolation.
  ///
  /// - Parameters:
  ///   - activity: What the system did.
  ///   - time: When, in nanoseconds on `MonotonicClock`.
  func record(_ activity: JournalActivity, at time: Int64)
}

/// Which states a ``Journal`` keeps beside its steps.
///
/// A step always has its event and the changed paths of the state. Keeping whole states makes a
/// journal larger, and lets a replay compare every state exactly (without them it compares the
/// changes) and start from the middle of a session: a journal dumped from its ring starts with
/// the state before its oldest step only when every step keeps its state.
public enum JournalStates: Sendable, Equatable {
  /// No whole state: steps keep their changes only.
  case none
  /// The state after every `interval`-th step (and the state when recording began).
  case every(_ interval: Int)

  /// The state after every step (and the state when recording began).
  public static var everyStep: JournalStates { .every(1) }

  /// The interval between steps that keep their state; `nil` for ``none``.
  @usableFromInline var interval: Int? {
    switch self {
    case .none: nil
    case .every(let interval): max(1, interval)
    }
  }

  /// Whether the step numbered `step` (from 1) keeps its state.
  @usableFromInline func includes(step: Int) -> Bool {
    guard let interval else { return false }
    return step % interval == 0
  }
}

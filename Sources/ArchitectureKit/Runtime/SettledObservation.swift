/// The Observation hook of a main-actor system, and the steps it has not been told about.
///
/// The shell marks a step here (``RuntimeShell/coreStepped(_:previous:)``) and calls ``notify``
/// once the mailbox settles (``RuntimeShell/coreSettled()``): a view re-renders once per burst.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the box is used on the main actor only, by its
/// shell, and each access is a plain read or write; ``notify`` is called with a value taken out
/// first.
@usableFromInline
final class SettledObservation<State> {
  /// Tells Observation about the steps since the last call, given the state before them when
  /// it was kept.
  @usableFromInline let notify: (State?) -> Void
  /// Whether a step ran since ``notify`` was last called.
  @exclusivity(unchecked) @usableFromInline var hasUnsettledStep = false
  /// The state before the first step since ``notify`` was last called, when kept.
  @exclusivity(unchecked) @usableFromInline var stateBefore: State?

  /// Creates the hook, with no step to report.
  @inlinable
  init(notify: @escaping (State?) -> Void) {
    self.notify = notify
  }
}

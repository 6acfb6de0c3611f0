/// The Observation hook of a main-actor system, and the steps it has not been told about.
///
/// The shell marks a step here (``RuntimeShell/coreStepped(_:previous:)``) and calls ``notify``
/// once the mailbox settles (``RuntimeShell/coreSettled()``): a view re-renders once per burst.
///
/// Exclusivity: the stored `var`s skip the run-time check (see PerformanceLedger: exclusivity
/// opt-outs). No two accesses can overlap: the box is used on the main actor only, by its
/// shell, and each access is a plain read or write.
@usableFromInline
final class SettledObservation {
  /// Tells Observation about the steps since the last call.
  @usableFromInline let notify: () -> Void
  /// Whether a step ran since ``notify`` was last called.
  @exclusivity(unchecked) @usableFromInline var hasUnsettledStep = false

  /// Creates the hook, with no step to report.
  @inlinable
  init(notify: @escaping () -> Void) {
    self.notify = notify
  }
}

/// When a ``TestSystem`` runs the effects its feedback starts.
public enum EffectMode: Sendable, Equatable {
  /// Each effect waits until the test runs it
  /// (``TestSystem/run(_:in:fileID:filePath:line:column:)``) or simulates its outcome: the test
  /// decides what runs, and the real effect need not run at all.
  case manual

  /// Each effect runs as soon as it starts, against the test's context, exactly as a
  /// ``ArchitectureKit/System`` runs it (as TCA's `TestStore` does); what it sends still waits
  /// for the test to receive it.
  ///
  /// Exhaustivity still accounts for every effect: receiving an effect's event accounts for its
  /// start, and so does expecting its cancellation; an effect that ends without an event, or
  /// whose event the test never receives, must be expected with
  /// ``TestSystem/expectStarted(_:in:fileID:filePath:line:column:)``.
  ///
  /// ```swift
  /// let system = TestSystem(
  ///   initialState: Search.State(), context: .test, feature: Search.feature,
  ///   effects: .automatic)
  /// system.send(.searchTapped) { $0.isSearching = true }
  /// await system.receive(.found(["Yeezy"])) { $0.results = ["Yeezy"] }
  /// ```
  case automatic
}

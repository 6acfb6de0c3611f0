/// How strictly a ``TestSystem`` checks that a test accounts for everything that happened.
public enum Exhaustivity: Sendable, Equatable {
  /// Every state change, received event, started or cancelled request and effect failure must
  /// be asserted, and ``TestSystem/finish(timeout:fileID:filePath:line:column:)`` fails while
  /// effects are still running.
  case on
  /// Only what the test asserts is checked: state assertions compare just the fields the
  /// closure sets, ``TestSystem/receive(_:timeout:fileID:filePath:line:column:assert:)`` passes
  /// over events until a matching one, and nothing left over fails the test. For integration
  /// tests.
  ///
  /// It skips assertions, never events: the events `receive` passes over are reduced, in order,
  /// and ``TestSystem/finish(timeout:fileID:filePath:line:column:)`` reduces the events still
  /// waiting, so the state is the one the app would have.
  case off
}

/// The counter's error type.
///
/// The counter cannot fail; the seed declares one case anyway, because every system names the
/// error type of its effects.
public enum CounterError: Error, Hashable, Sendable {
  /// A failure with no more detail.
  case generic
}

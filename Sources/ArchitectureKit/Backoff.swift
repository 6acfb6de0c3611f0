/// How long a retried effect waits before each retry.
///
/// ```swift
/// .retrying(3, backoff: .exponential(initial: .seconds(1), maximum: .seconds(8)), clock: \.clock)
/// // waits 1 s, 2 s, then 4 s before the three retries
/// ```
///
/// A backoff with ``jittered(_:)`` spreads its delays with a random number the context gives,
/// so a test decides it too.
public struct Backoff: Sendable, Equatable {
  private enum Growth: Sendable, Equatable {
    case fixed(Duration)
    case exponential(initial: Duration, multiplier: Double, maximum: Duration)
  }

  private let growth: Growth
  private let jitter: Double

  /// The same delay before every retry.
  ///
  /// - Parameter delay: The wait before each retry.
  /// - Returns: The backoff.
  public static func fixed(_ delay: Duration) -> Backoff {
    Backoff(growth: .fixed(delay), jitter: 0)
  }

  /// A delay that grows by `multiplier` before each retry, up to `maximum`.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry.
  ///   - multiplier: How much longer each wait is than the one before.
  ///   - maximum: The longest wait.
  /// - Returns: The backoff.
  public static func exponential(
    initial: Duration,
    multiplier: Double = 2,
    maximum: Duration
  ) -> Backoff {
    Backoff(
      growth: .exponential(initial: initial, multiplier: multiplier, maximum: maximum), jitter: 0)
  }

  /// The same backoff with each delay shortened by a random part of up to `fraction` of it.
  ///
  /// With `fraction` 0.5, a 4-second delay becomes one between 2 and 4 seconds. The random
  /// number comes from the `random:` function of
  /// ``Feedback/retrying(_:backoff:clock:random:)``, so tests choose it.
  ///
  /// - Parameter fraction: The largest part of a delay to take off, from 0 to 1.
  /// - Returns: The backoff with jitter.
  public func jittered(_ fraction: Double = 0.5) -> Backoff {
    Backoff(growth: growth, jitter: min(max(fraction, 0), 1))
  }

  /// The wait before a retry.
  ///
  /// - Parameters:
  ///   - retry: The retry's number, from 1.
  ///   - random: A number from 0 up to 1 that picks the jitter.
  /// - Returns: The wait.
  public func delay(beforeRetry retry: Int, random: Double = 0) -> Duration {
    let base: Duration
    switch growth {
    case .fixed(let delay):
      base = delay
    case .exponential(let initial, let multiplier, let maximum):
      var delay = initial
      for _ in 1..<max(retry, 1) {
        delay = delay * multiplier
        if delay >= maximum { break }
      }
      base = min(delay, maximum)
    }
    return base - base * (jitter * min(max(random, 0), 1))
  }
}

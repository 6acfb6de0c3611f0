/// The error a clock's `sleep` threw when it was not cancellation.
///
/// The time-based operators (``Future/delayed(by:on:)``, ``Future/timeout(after:on:)`` and their
/// ``AsyncResult`` counterparts) sleep on a clock you inject. A sleep that throws while its task
/// is cancelled is cancellation. Any other throw is a clock failure: the clock could not measure
/// the time. The operators never crash on it and never wait forever because of it; the
/// ``AsyncResult`` operators that take `ifClockFails:` turn it into their failure:
///
/// ```swift
/// enum SearchError: Error {
///   case clock(ClockError)
///   case network
/// }
///
/// let debounced = search(query)
///   .delayed(by: .milliseconds(300), on: context.clock, ifClockFails: { .clock($0) })
/// ```
public struct ClockError: Error, Sendable {
  /// What the clock threw; a `CancellationError` when the clock reported cancellation while the
  /// task was not cancelled.
  public let underlying: any Error

  /// Creates a clock failure from what the clock threw.
  ///
  /// - Parameter underlying: The error the clock's `sleep` threw.
  public init(underlying: any Error) {
    self.underlying = underlying
  }
}

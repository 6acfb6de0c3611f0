import FunctionalCore
import Testing

/// A clock whose every sleep fails at once, while the sleeping task is not cancelled.
///
/// It stands for a broken or misbehaving clock dependency: the library must report its errors,
/// never crash on them and never wait forever because of them.
struct FailingClock: Clock {
  /// The error a sleep throws.
  enum Fault: Sendable, CaseIterable, CustomTestStringConvertible {
    /// A clock-specific error.
    case clockError
    /// A `CancellationError` thrown although the task was not cancelled.
    case spuriousCancellation

    var testDescription: String {
      switch self {
      case .clockError: "a clock error"
      case .spuriousCancellation: "a cancellation error in a task that was not cancelled"
      }
    }

    var error: any Error {
      switch self {
      case .clockError: ClockBroke()
      case .spuriousCancellation: CancellationError()
      }
    }
  }

  /// The clock-specific error of ``Fault/clockError``.
  struct ClockBroke: Error, Equatable {}

  let fault: Fault

  var now: TestClock.Instant {
    TestClock.Instant(offset: .zero)
  }

  var minimumResolution: Duration {
    .zero
  }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration? = nil) async throws {
    throw fault.error
  }
}

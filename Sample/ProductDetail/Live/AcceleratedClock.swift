/// A clock whose time runs `speed` times faster than real time: `pdp --speed 1000` waits the
/// seed's 3 s product load in 3 ms.
///
/// Effects sleep on it as on any `Clock<Duration>`, unaware of the speed, which is the point of
/// injecting the clock through the context.
///
/// ```swift
/// let clock = AcceleratedClock(speed: 1000)
/// try await clock.sleep(for: .seconds(3))  // returns after about 3 ms
/// ```
public struct AcceleratedClock: Clock {
  /// A point in the clock's accelerated time, measured from the clock's creation.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The accelerated time since the clock was created.
    public var offset: Duration

    /// Creates an instant.
    ///
    /// - Parameter offset: The accelerated time since the clock was created.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: The time to add; negative goes back.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: Another instant of the same clock.
    /// - Returns: `other` minus this instant.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  /// How many times faster than real time the clock runs.
  public let speed: Double

  private let base = ContinuousClock()
  private let origin: ContinuousClock.Instant

  /// Creates a clock that runs `speed` times faster than real time.
  ///
  /// - Parameter speed: The factor; 1 is real time, values above 1 are faster. Must be above 0.
  public init(speed: Double) {
    precondition(speed > 0, "An accelerated clock's speed must be above 0.")
    self.speed = speed
    origin = base.now
  }

  /// The current instant.
  public var now: Instant {
    Instant(offset: origin.duration(to: base.now) * speed)
  }

  /// The smallest wait the clock can measure.
  public var minimumResolution: Duration {
    base.minimumResolution * speed
  }

  /// Waits until `deadline`, which takes `1 / speed` of the time in real time.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at.
  ///   - tolerance: How late the wake-up may be, in the clock's time.
  /// - Throws: `CancellationError` when the task is cancelled during the wait.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let remaining = now.duration(to: deadline)
    guard remaining > .zero else { return try Task.checkCancellation() }
    try await base.sleep(for: remaining / speed, tolerance: tolerance.map { $0 / speed })
  }
}

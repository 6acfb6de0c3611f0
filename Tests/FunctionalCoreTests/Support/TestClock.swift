import FunctionalCore

/// A clock whose time moves only when the test calls ``advance(by:)``.
///
/// Sleepers are resumed by ``advance(by:)`` itself, in deadline order, so time-based code runs
/// deterministically and without real time. ``waitForSleepers(count:)`` lets a test wait until
/// the code under test is actually asleep before it moves the time. A cancelled sleeper throws
/// `CancellationError` at once and leaves the clock.
///
/// This is a test-only stand-in; the library's `ManualClock` ships in another module.
final class TestClock: Clock, Sendable {
  /// A point on the test clock's time line: the time elapsed since the clock was made.
  struct Instant: InstantProtocol {
    /// The time elapsed since the clock's start.
    var offset: Duration

    func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Int: Sleeper] = [:]
    var sleeperWaiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let satisfied = sleeperWaiters.filter { $0.value.count <= sleepers.count }
      for id in satisfied.keys { sleeperWaiters[id] = nil }
      return satisfied.values.map(\.continuation)
    }

    mutating func makeID() -> Int {
      defer { nextID += 1 }
      return nextID
    }
  }

  private let state = Lock(State())

  var now: Instant {
    state.withLock { $0.now }
  }

  var minimumResolution: Duration {
    .zero
  }

  /// The number of tasks asleep on this clock.
  var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The time elapsed since the clock was made.
  var elapsed: Duration {
    now.offset
  }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { $0.makeID() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        enum Decision {
          case sleep([CheckedContinuation<Void, Never>])
          case wake
          case cancel
        }
        let decision = state.withLock { state -> Decision in
          // The cancellation handler runs before this body when the task is already cancelled,
          // and it finds no sleeper to remove; checking under the lock closes that window.
          if Task.isCancelled { return .cancel }
          if deadline <= state.now { return .wake }
          state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return .sleep(state.satisfiedWaiters())
        }
        switch decision {
        case .sleep(let waiters): for waiter in waiters { waiter.resume() }
        case .wake: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the time forward and wakes, in deadline order, every sleeper whose deadline passed.
  func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.value.deadline <= now }
      for id in due.keys { state.sleepers[id] = nil }
      return due.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.value)
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Returns once at least `count` tasks are asleep on this clock, or once the waiting task is
  /// cancelled (so a test whose code never sleeps is stopped by its time limit, not hung).
  func waitForSleepers(count: Int = 1) async {
    let id = state.withLock { $0.makeID() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumesNow = state.withLock { state in
          if state.sleepers.count >= count || Task.isCancelled { return true }
          state.sleeperWaiters[id] = (count, continuation)
          return false
        }
        if resumesNow { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.sleeperWaiters.removeValue(forKey: id) }?.continuation.resume()
    }
  }
}

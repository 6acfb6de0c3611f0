import FunctionalCore
import TestDoubles

/// A clock whose time moves only when the test calls ``advance(by:)``.
///
/// Sleepers are resumed by ``advance(by:)`` itself, in deadline order, so time-based code runs
/// deterministically and without real time. ``waitForSleepers(count:)`` lets a test wait until
/// the code under test is actually asleep before it moves the time. A cancelled sleeper throws
/// `CancellationError` at once and leaves the clock.
///
/// Why not `ManualClock`: it ships in ArchitectureKitTestSupport, which is built on
/// ArchitectureKit, itself built on FunctionalCore; FunctionalCore's tests depending on it would
/// test the layer below through the layers above. It also does more than these tests want: its
/// `advance` is `async` and waits for the effects of the systems that use the clock to go idle,
/// with a real-time failsafe. This clock's ``advance(by:)`` is synchronous and only wakes the
/// sleepers that are due, which is all that `Future` and `AsyncResult` need.
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
    /// Tests waiting for a number of sleepers.
    var sleeperWaiters = Waiters<Int>()

    /// Removes and returns the waiters satisfied by the current number of sleepers.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let count = sleepers.count
      return sleeperWaiters.takeReady { target in target <= count }
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
    await waitUntil(
      state,
      makeID: { $0.sleeperWaiters.makeID() },
      park: { state, id, continuation in
        state.sleepers.count < count && state.sleeperWaiters.park(id, until: count, continuation)
      },
      cancel: { [state] id in state.withLock { $0.sleeperWaiters.cancel(id) }?.resume() }
    )
  }
}

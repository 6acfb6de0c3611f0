import FunctionalCore
import TestDoubles

/// A countdown: it opens once ``countDown()`` has been called `count` times.
///
/// As a barrier (every party calls ``arrive()``), it proves that work runs concurrently: no
/// party gets through until all of them have arrived, so running them one after another
/// never finishes (and the test's time limit reports it).
final class Latch: Sendable {
  private let remaining: Lock<Int>
  private let gate = Gate()

  /// Creates a latch that opens after `count` calls to ``countDown()``.
  init(count: Int) {
    remaining = Lock(count)
    if count <= 0 { gate.open() }
  }

  /// Whether the latch has opened.
  var isOpen: Bool {
    gate.isOpen
  }

  /// Counts one arrival, and opens the latch on the last one.
  func countDown() {
    let isLast = remaining.withLock { remaining in
      remaining -= 1
      return remaining == 0
    }
    if isLast { gate.open() }
  }

  /// Returns once the latch is open, or once the waiting task is cancelled.
  ///
  /// - Returns: Whether the latch is open; `false` means the wait was cancelled first.
  @discardableResult
  func wait() async -> Bool {
    await gate.opens()
  }

  /// Counts one arrival, then waits for all the others.
  ///
  /// - Returns: Whether the latch is open; `false` means the wait was cancelled first.
  @discardableResult
  func arrive() async -> Bool {
    countDown()
    return await wait()
  }
}

import FunctionalCore

/// Values recorded from any thread, readable by the test, which can also await them; the
/// recorder every test target shares.
///
/// A test records what a system, an effect or a callback did, then reads ``values`` or waits
/// with ``wait(count:of:)`` for what it expects, without sleeping:
///
/// ```swift
/// let searched = Recorder<String>()
/// // … an effect calls searched.record(query) …
/// await searched.wait(count: 2)
/// #expect(searched.values == ["y", "ye"])
/// ```
package final class Recorder<Value: Sendable>: Sendable {
  /// A predicate and how many more values must match it.
  private struct Expectation {
    let predicate: @Sendable (Value) -> Bool
    var remaining: Int
  }

  private struct Contents {
    var values: [Value] = []
    var waiters = Waiters<Expectation>()
  }

  private let contents = Lock(Contents())

  package init() {}

  /// Appends a value, and lets go of the waits it completes.
  package func record(_ value: Value) {
    let ready = contents.withLock { contents in
      contents.values.append(value)
      return contents.waiters.takeReady { expectation in
        if expectation.predicate(value) { expectation.remaining -= 1 }
        return expectation.remaining <= 0
      }
    }
    for continuation in ready { continuation.resume() }
  }

  /// The values recorded so far, in order.
  package var values: [Value] {
    contents.withLock { $0.values }
  }

  /// Returns once `count` values matching `predicate` have been recorded, counting those
  /// recorded before the call, or once the waiting task is cancelled (so a test whose values
  /// never come stops at its time limit instead of hanging the run).
  ///
  /// - Parameters:
  ///   - count: How many matching values to wait for.
  ///   - predicate: Which values count; every value, by default.
  package func wait(
    count: Int = 1,
    of predicate: @escaping @Sendable (Value) -> Bool = { _ in true }
  ) async {
    await waitUntil(
      contents,
      makeID: { $0.waiters.makeID() },
      park: { contents, id, continuation in
        let remaining = count - contents.values.count(where: predicate)
        return remaining > 0
          && contents.waiters.park(
            id, until: Expectation(predicate: predicate, remaining: remaining), continuation)
      },
      cancel: { [contents] id in contents.withLock { $0.waiters.cancel(id) }?.resume() }
    )
  }
}

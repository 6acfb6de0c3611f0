import FunctionalCore

/// Values recorded from any thread, readable by the test.
package final class Recorder<Value: Sendable>: Sendable {
  private let storage = Lock<[Value]>([])

  package init() {}

  /// Appends a value.
  package func record(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// The values recorded so far, in order.
  package var values: [Value] {
    storage.withLock { $0 }
  }
}

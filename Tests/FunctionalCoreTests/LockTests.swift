import FunctionalCore
import Testing

// These tests are the thread-sanitizer evidence for `Lock`'s `@unchecked Sendable`: run them
// with `swift test --sanitize=thread`, which reports any access to the guarded value that the
// mutex does not order.
struct LockTests {
  private struct Failure: Error, Equatable {}

  @Test(arguments: [
    (tasks: 2, increments: 500_000),
    (tasks: 8, increments: 100_000),
    (tasks: 64, increments: 10_000),
  ])
  func manyTasksIncrementingConcurrentlyGiveTheExactTotal(tasks: Int, increments: Int) async {
    let counter = Lock(0)
    // Every task waits until all have started, so their increments overlap instead of running
    // one task after another.
    let start = Latch(count: tasks)

    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          await start.arrive()
          for _ in 0..<increments {
            counter.withLock { $0 += 1 }
          }
        }
      }
    }

    #expect(counter.withLock { $0 } == tasks * increments)
  }

  @Test func concurrentUpdatesOfACompoundValueAreNeverTorn() async {
    // Two fields updated together: a torn update would break `sum == 2 * count`.
    let state = Lock((count: 0, sum: 0))
    let tornSnapshots = Lock(0)
    let start = Latch(count: 8)

    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          await start.arrive()
          for _ in 0..<20_000 {
            state.withLock { state in
              state.count += 1
              state.sum += 2
            }
            let snapshot = state.withLock { $0 }
            if snapshot.sum != 2 * snapshot.count { tornSnapshots.withLock { $0 += 1 } }
          }
        }
      }
    }

    let final = state.withLock { $0 }
    #expect(final.count == 160_000)
    #expect(final.sum == 320_000)
    #expect(tornSnapshots.withLock { $0 } == 0)
  }

  @Test func withLockReturnsWhatItsBodyReturns() {
    let lock = Lock([1, 2, 3])

    let count = lock.withLock { values in
      values.append(4)
      return values.count
    }

    #expect(count == 4)
    #expect(lock.withLock { $0 } == [1, 2, 3, 4])
  }

  @Test func withLockRethrowsAndReleasesTheLock() {
    let lock = Lock(0)

    #expect(throws: Failure()) {
      try lock.withLock { value in
        value = 1
        throw Failure()
      }
    }

    // A lock still held after the throw would deadlock here.
    #expect(lock.withLock { $0 } == 1)
  }
}

import FunctionalCore
import TestDoubles
import Testing

// `awaitCallback` is the bridge behind `Future(callback:)`, `Future(cancellableCallback:)` and
// `AsyncResult.unfold`. A missed cancellation shows up as a task that never ends; the time limit
// turns that hang into a failure. No assertion depends on time.
@Suite(.timeLimit(.minutes(10)))
struct CallbackBridgeTests {
  @Test func returnsTheValueOfTheCompletion() async throws {
    let value = try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
      complete(1)
      return nil
    }

    #expect(value == 1)
  }

  @Test func returnsTheValueOfACompletionFromAnotherTask() async throws {
    let value = try await awaitCallback { (complete: @escaping @Sendable (String) -> Void) in
      Task.detached { complete("later") }
      return nil
    }

    #expect(value == "later")
  }

  @Test func theFirstCompletionWinsAndLaterOnesAreIgnored() async throws {
    let value = try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
      complete(1)
      complete(2)
      complete(3)
      return nil
    }

    #expect(value == 1)
  }

  @Test func anOptionalValueOfNilIsAValueNotACancellation() async throws {
    let value = try await awaitCallback { (complete: @escaping @Sendable (Int?) -> Void) in
      complete(nil)
      return nil
    }

    #expect(value == nil)
  }

  @Test func aCompletionDoesNotRunTheCancelAction() async throws {
    let cancels = Lock(0)
    let task = Task {
      try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
        Task.detached { complete(1) }
        return { cancels.withLock { $0 += 1 } }
      }
    }

    #expect(try await task.value == 1)
    task.cancel()
    #expect(cancels.withLock { $0 } == 0)
  }

  @Test func cancellingTheTaskResumesItAtOnceAndRunsTheCancelAction() async {
    let started = Gate()
    let cancelled = Gate()
    let task = Task {
      try await awaitCallback { (_: @escaping @Sendable (Int) -> Void) in
        started.open()
        return { cancelled.open() }
      }
    }

    await started.wait()
    task.cancel()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(await cancelled.opens(), "The work was not cancelled.")
  }

  @Test func anAlreadyCancelledTaskNeverStartsTheOperation() async {
    let starts = Lock(0)
    let go = Gate()
    let task = Task {
      await go.wait()
      return try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
        starts.withLock { $0 += 1 }
        complete(1)
        return nil
      }
    }

    task.cancel()
    go.open()

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(starts.withLock { $0 } == 0)
  }

  @Test func aCancellationWhileStartingRunsTheCancelActionOnceItIsReturned() async {
    // The task is cancelled inside `start`, before its cancel action is known: the action must
    // run as soon as `start` hands it over.
    let cancels = Lock(0)
    let task = Task {
      try await awaitCallback { (_: @escaping @Sendable (Int) -> Void) in
        withUnsafeCurrentTask { $0?.cancel() }
        return { cancels.withLock { $0 += 1 } }
      }
    }

    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(cancels.withLock { $0 } == 1)
  }

  @Test func aCompletionWhileStartingWinsOverALaterCancellation() async throws {
    let cancels = Lock(0)
    let task = Task {
      try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
        complete(1)
        withUnsafeCurrentTask { $0?.cancel() }
        return { cancels.withLock { $0 += 1 } }
      }
    }

    #expect(try await task.value == 1)
    #expect(cancels.withLock { $0 } == 0)
  }

  @Test func aCompletionAfterCancellationIsIgnored() async throws {
    let completion = Lock<(@Sendable (Int) -> Void)?>(nil)
    let started = Gate()
    let task = Task {
      try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
        completion.withLock { $0 = complete }
        started.open()
        return nil
      }
    }
    await started.wait()
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }

    // A second resumption of the continuation would trap here.
    let complete = try #require(completion.withLock { $0 })
    complete(1)
  }

  @Test(arguments: 0..<200)
  func aCompletionRacingACancellationEndsExactlyOnce(attempt: Int) async throws {
    let started = Gate()
    let cancelled = Gate()
    let completion = Lock<(@Sendable (Int) -> Void)?>(nil)
    let task = Task {
      try await awaitCallback { (complete: @escaping @Sendable (Int) -> Void) in
        completion.withLock { $0 = complete }
        started.open()
        return { cancelled.open() }
      }
    }
    await started.wait()
    let complete = try #require(completion.withLock { $0 })

    async let completing: Void = Task.detached { complete(attempt) }.value
    task.cancel()
    await completing

    // Either side may win, but never both: a value means the cancel action never runs.
    switch await task.result {
    case .success(let value):
      #expect(value == attempt)
      #expect(!cancelled.isOpen)
    case .failure(let error):
      #expect(error is CancellationError)
      #expect(await cancelled.opens(), "The work was not cancelled.")
    }
  }
}

/// Waits with `wait` until `isMet` holds, or until a failsafe passes; returns whether `isMet`
/// holds.
///
/// Every wait it guards is for something a correct runtime does at once; the failsafe only
/// turns a broken runtime's hang into a failure. Its seconds are the main actor's: each counts
/// once the main actor has had a turn after it, because results hop back there, and other
/// suites can hold it far longer than a correct runtime takes. (Under the thread sanitizer,
/// with the whole suite on two cores, a 60-second failsafe of real time passed, in about half
/// the runs, before a `TestSystem`'s report of a failed effect came; the report was there when
/// the test next ran on the main actor.)
/// `isMet` is checked once more when the failsafe passes: what the wait is for can come in the
/// main actor's last turn.
package func failsafe(
  seconds: Int = 60,
  until isMet: @escaping @Sendable () -> Bool,
  wait: @escaping @Sendable () async -> Void
) async -> Bool {
  if isMet() { return true }
  let waited = await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      await wait()
      return !Task.isCancelled
    }
    group.addTask {
      for _ in 0..<seconds {
        guard (try? await Task.sleep(for: .seconds(1))) != nil else { return false }
        await MainActor.run {}
      }
      return false
    }
    let isDone = await group.next() ?? false
    group.cancelAll()
    return isDone
  }
  return waited || isMet()
}

/// Waits until `task` ends, passing the caller's cancellation on to it; past the failsafe's
/// `seconds` (see ``failsafe(seconds:until:wait:)``), cancels it and waits for it to end.
///
/// For a task whose cancellation always ends it, such as one awaiting `attach(_:)`.
///
/// - Returns: Whether it ended before the failsafe passed.
package func awaitEnd(of task: Task<Void, Never>, seconds: Int = 60) async -> Bool {
  await failsafe(
    seconds: seconds, until: { false },
    wait: {
      await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    })
}

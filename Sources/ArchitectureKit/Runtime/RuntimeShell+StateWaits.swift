import FunctionalCore

/// Waiting for the state: tasks in `send(_:while:)`, resumed once the state stops satisfying
/// their predicate, and the streams of every state (``System/states``).
extension RuntimeShell {
  /// Sends an event, then waits until the state stops satisfying `predicate`, the system
  /// stops, or the task is cancelled.
  ///
  /// Inlinable, so that the event, and every effect that answers it without suspending, is
  /// processed by specialized code (see PerformanceLedger: specialization).
  @inlinable
  package func send(_ event: Event, while predicate: @escaping (State) -> Bool) async {
    send(event)
    await wait(while: predicate)
  }

  /// Waits until the state stops satisfying `predicate`, the system stops, or the task is
  /// cancelled.
  @usableFromInline
  package func wait(while predicate: @escaping (State) -> Bool) async {
    guard !core.isStopped, predicate(core.state) else { return }
    lastID += 1
    let id = lastID
    let port = self.port
    // The check and the registration happen here, on the runtime's isolation: the closures of
    // `withCheckedContinuation` may run elsewhere, so they only wait on a lock-based signal.
    let signal = Resumption()
    madeExtras.stateWaiters[id] = StateWaiter(predicate: predicate, resume: signal.open)
    await withTaskCancellationHandler {
      await signal.wait()
    } onCancel: {
      Task {
        await port.withShell { shell -> Bool? in
          shell.cancelStateWait(id)
          return nil
        }
      }
    }
  }

  /// A task waiting in ``send(_:while:)``.
  ///
  /// A struct rather than a tuple: a tuple's closures taken out of the dictionary cost an
  /// allocation each, on each step (see PerformanceLedger: cold paths out of line).
  @usableFromInline
  struct StateWaiter {
    /// Whether the task still waits in this state.
    @usableFromInline let predicate: (State) -> Bool
    /// Lets the task go on.
    @usableFromInline let resume: () -> Void
  }

  /// Ends a wait early (its task was cancelled).
  package func cancelStateWait(_ id: Int) {
    extras?.stateWaiters.removeValue(forKey: id)?.resume()
  }

  /// Resumes the waits whose predicate the state no longer satisfies (every wait, with `all`).
  ///
  /// Specialized, and out of line (see PerformanceLedger: cold paths out of line).
  @inlinable @inline(never)
  func resumeStateWaiters(all: Bool = false) {
    guard let extras, !extras.stateWaiters.isEmpty else { return }
    let state = core.state
    // Most steps of a wait resume nobody: an empty array costs no allocation, a filtered
    // dictionary does.
    var done: [Int] = []
    for (id, waiter) in extras.stateWaiters where all || !waiter.predicate(state) {
      done.append(id)
    }
    for id in done.sorted() {
      extras.stateWaiters.removeValue(forKey: id)?.resume()
    }
  }

  /// Yields a step's state to every stream of states made before the step: one made during
  /// it (by a listener) started with this state already.
  ///
  /// Specialized, and out of line (see PerformanceLedger: cold paths out of line).
  @inlinable @inline(never)
  func yieldToStateStreams(_ state: State, leavingOutIDsAfter lastIDBefore: Int) {
    guard let streams = extras?.stateStreams else { return }
    for (id, yield) in streams where id <= lastIDBefore { yield(state) }
  }

  /// Registers a stream continuation; returns its identifier, or `nil` when already stopped.
  func addStateStream(
    yield: @escaping (State) -> Void,
    finish: @escaping @Sendable () -> Void
  ) -> Int? {
    yield(core.state)
    guard !core.isStopped else {
      finish()
      return nil
    }
    lastID += 1
    madeExtras.stateStreams[lastID] = yield
    tasks.insertFinisher(finish, for: lastID)
    return lastID
  }

  /// Forgets a stream its consumer ended.
  func removeStateStream(_ id: Int) {
    extras?.stateStreams[id] = nil
    madeTasks?.removeFinisher(id)
  }
}

extension RuntimeShell where State: Sendable {
  /// A new stream of every state, starting with the current one; it finishes when the system
  /// stops or is released.
  package func makeStates() -> AsyncStream<State> {
    let (stream, continuation) = AsyncStream.makeStream(of: State.self)
    let id = addStateStream(
      yield: { continuation.yield($0) },
      finish: { continuation.finish() }
    )
    if let id {
      let port = self.port
      continuation.onTermination = { _ in
        Task { await port.withShell { $0.removeStateStream(id) } }
      }
    }
    return stream
  }
}

/// Awaits a callback-based operation that may complete from any thread, at most once.
///
/// - The first completion wins; later ones are ignored.
/// - Cancelling the awaiting task resumes it at once with `CancellationError` and calls the
///   operation's cancel action (if `start` returned one); a completion after that is ignored.
///
/// - Parameter start: Starts the operation with a completion; returns its cancel action, if any.
/// - Returns: The value passed to the first completion.
/// - Throws: `CancellationError` when the task was cancelled before the completion.
package func awaitCallback<Value: Sendable>(
  _ start: (_ complete: @escaping @Sendable (Value) -> Void) -> (@Sendable () -> Void)?
) async throws(CancellationError) -> Value {
  let bridge = CallbackBridge<Value>()
  let value = await withTaskCancellationHandler {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
      guard bridge.install(continuation) else { return }
      let cancel = start { value in bridge.resume(with: value) }
      if let cancel { bridge.setCancelAction(cancel) }
    }
  } onCancel: {
    bridge.resume(with: nil)
  }
  guard let value else { throw CancellationError() }
  return value
}

/// Like ``awaitCallback(_:)``, for a callback from the outside world (an API, another thread):
/// a test harness then knows the task waits for it, and is on its way to no sleep.
package func awaitExternalCallback<Value: Sendable>(
  _ start: (_ complete: @escaping @Sendable (Value) -> Void) -> (@Sendable () -> Void)?
) async throws(CancellationError) -> Value {
  guard let unit = WorkUnit.currentOwned else { return try await awaitCallback(start) }
  let isWaiting = Lock(true)
  let endWait: @Sendable () -> Void = {
    let wasWaiting = isWaiting.withLock { isWaiting in
      defer { isWaiting = false }
      return isWaiting
    }
    if wasWaiting { unit.endExternalWait() }
  }
  unit.beginExternalWait()
  defer { endWait() }
  return try await awaitCallback { complete in
    start { value in
      endWait()
      complete(value)
    }
  }
}

/// The state shared by a callback, the awaiting task and its cancellation handler.
private final class CallbackBridge<Value: Sendable>: Sendable {
  private enum Phase {
    case idle
    case waiting(CheckedContinuation<Value?, Never>)
    case completed
    case cancelled
  }

  private struct State {
    var phase = Phase.idle
    var cancelAction: (@Sendable () -> Void)?
  }

  private let state = Lock(State())

  /// Installs the continuation; returns `false` (and resumes it) when already cancelled.
  func install(_ continuation: CheckedContinuation<Value?, Never>) -> Bool {
    let installed = state.withLock { state in
      guard case .idle = state.phase else { return false }
      state.phase = .waiting(continuation)
      return true
    }
    if !installed { continuation.resume(returning: nil) }
    return installed
  }

  /// Completes with a value, or cancels with `nil`; only the first call has an effect.
  func resume(with value: Value?) {
    let (continuation, cancelAction) = state.withLock {
      state -> (CheckedContinuation<Value?, Never>?, (@Sendable () -> Void)?) in
      switch state.phase {
      case .idle:
        state.phase = value == nil ? .cancelled : .completed
        return (nil, nil)
      case .waiting(let continuation):
        state.phase = value == nil ? .cancelled : .completed
        let cancelAction = value == nil ? state.cancelAction : nil
        state.cancelAction = nil
        return (continuation, cancelAction)
      case .completed, .cancelled:
        return (nil, nil)
      }
    }
    continuation?.resume(returning: value)
    cancelAction?()
  }

  /// Remembers the cancel action, or runs it at once when cancellation already happened.
  func setCancelAction(_ action: @escaping @Sendable () -> Void) {
    let runNow = state.withLock { state -> Bool in
      switch state.phase {
      case .cancelled: return true
      case .completed: return false
      case .idle, .waiting:
        state.cancelAction = action
        return false
      }
    }
    if runNow { action() }
  }
}

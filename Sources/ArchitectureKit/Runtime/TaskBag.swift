/// The running effect tasks of a system, and the finishers of its state streams.
///
/// It is `Sendable` so that a system's nonisolated `deinit` can cancel everything it started.
/// A value with reference semantics: every copy shares the one lock, which holds the contents
/// and the mutex in one allocation, so a system's bag costs a single allocation.
@usableFromInline
package struct TaskBag: Sendable {
  private struct Contents {
    var tasks: [EffectID: Task<Void, Never>]
    var finishers: [Int: @Sendable () -> Void]
    var isClosed = false
    /// Whether the runtime's owner is gone (its `deinit` ran).
    var isDetached = false

    init() {
      // Not literals: an empty dictionary literal is built by a call, an empty dictionary is
      // the shared empty storage.
      tasks = Dictionary()
      finishers = Dictionary()
    }
  }

  private let contents: Lock<Contents>

  /// Creates an empty, open bag.
  @usableFromInline
  init() {
    contents = Lock(Contents())
  }

  /// Remembers a task; cancels it at once when the bag is already closed.
  @usableFromInline
  func insert(_ task: Task<Void, Never>, for id: EffectID) {
    let isClosed = contents.withLock { contents in
      if !contents.isClosed { contents.tasks[id] = task }
      return contents.isClosed
    }
    if isClosed { task.cancel() }
  }

  /// Forgets a task that ended.
  @usableFromInline
  func remove(_ id: EffectID) {
    _ = contents.withLock { $0.tasks.removeValue(forKey: id) }
  }

  /// Cancels a task and forgets it.
  @usableFromInline
  func cancel(_ id: EffectID) {
    contents.withLock { $0.tasks.removeValue(forKey: id) }?.cancel()
  }

  /// Remembers how to finish a stream.
  func insertFinisher(_ finish: @escaping @Sendable () -> Void, for id: Int) {
    contents.withLock { $0.finishers[id] = finish }
  }

  /// Forgets a stream that ended.
  func removeFinisher(_ id: Int) {
    _ = contents.withLock { $0.finishers.removeValue(forKey: id) }
  }

  /// Runs `body` under the bag's lock while the runtime's owner is there; returns `nil` after
  /// ``detach()``.
  ///
  /// The runtime's port takes its reference to the shell here: an owner detaches the bag in its
  /// `deinit`, before it releases its shell, so a reference taken while the bag is attached is
  /// to a live shell.
  @usableFromInline
  func whileAttached<Value>(_ body: () -> Value) -> Value? {
    contents.withLock { contents in contents.isDetached ? nil : body() }
  }

  /// Closes the bag for good as the runtime's owner goes away; call it first in the `deinit`.
  package func detach() {
    contents.withLock { $0.isDetached = true }
    close()
  }

  /// The number of tasks the bag holds: tasks still running, and none that ended.
  package var count: Int {
    contents.withLock { $0.tasks.count }
  }

  /// Cancels every task, finishes every stream, and cancels tasks inserted later.
  package func close() {
    let (tasks, finishers) = contents.withLock { contents in
      contents.isClosed = true
      defer {
        contents.tasks = [:]
        contents.finishers = [:]
      }
      return (contents.tasks.values, contents.finishers.values)
    }
    for task in tasks { task.cancel() }
    for finish in finishers { finish() }
  }
}

/// Where a feedback's effects start.
extension Feedback {
  /// Starts each effect as a task of its own, off the caller's thread, for effects whose first
  /// instructions are heavy: decoding a large file, hashing, parsing.
  ///
  /// By default a ``System``'s effect starts on the main thread, inside the ``System/send(_:)``
  /// (or the hook, or the creation) that started it, and runs there until its first suspension:
  /// a cache hit is reduced before `send` returns, so no loading state flashes. The code before
  /// that first `await` that suspends runs on the main thread. A detached effect runs none of
  /// its code there: it starts on the global concurrent executor, and its events come back to
  /// the main actor as later events, like those of any effect that suspended.
  ///
  /// ```swift
  /// Feedback<Library, Library.Event, any Error, Context>
  ///   .react(request: \.fileToImport, effect: .run { url, _ in
  ///     .imported(try Catalog(decoding: Data(contentsOf: url)))  // CPU work from the first line
  ///   })
  ///   .startingDetached()
  /// ```
  ///
  /// A ``BackgroundSystem``'s effects always start as tasks of their own, so there this changes
  /// nothing. The request semantics and every other policy stay as they are: a detached effect
  /// is cancelled, debounced, retried or timed out like any other.
  ///
  /// - Returns: The feedback, whose effects start off the caller's thread.
  public func startingDetached() -> Feedback {
    transformingEffects { effect in effect.isDetached ? effect : .detached(effect) }
  }
}

/// The listeners of a shell: UI bindings, loop callbacks and observers, added and removed at any
/// moment, each receiving every later step once (``RuntimeShell/coreStepped(_:previous:)`` walks
/// them).
extension RuntimeShell {
  /// Adds a UI binding and renders the current state to it at once.
  package func addUIBinding(_ binding: @escaping (State) -> Void) -> Listener {
    let listener = makeListener()
    keepWalkedListeners()
    uiBindings.append(binding, id: listener.id)
    let state = core.state
    core.perform(self) { binding(state) }
    return listener
  }

  /// Adds a callback that receives the state after every later step.
  @discardableResult
  package func addLoopCallback(_ callback: @escaping (State) -> Void) -> Listener {
    let listener = makeListener()
    keepWalkedListeners()
    madeExtras.loopCallbacks.append(callback, id: listener.id)
    return listener
  }

  /// Adds an observer of every later activity; the core then keeps the state before each step.
  @discardableResult
  @usableFromInline
  package func addObserver(_ observer: @escaping (Activity) -> Void) -> Listener {
    let listener = makeListener()
    keepWalkedListeners()
    madeExtras.observers.append(observer, id: listener.id)
    updateRetention()
    return listener
  }

  /// Removes a binding, callback or observer; it receives nothing more, even in the middle of
  /// the notification that is running.
  package func removeListener(_ listener: Listener) {
    keepWalkedListeners()
    guard
      uiBindings.remove(listener.id) || extras?.loopCallbacks.remove(listener.id) == true
        || extras?.observers.remove(listener.id) == true
    else { return }
    removals += 1
    updateRetention()
  }

  /// Before listeners are added or removed: while a walk runs, keeps them as they are until
  /// the walks end, so that the change copies their storage instead of changing or freeing the
  /// storage a walk reads in place (see ``Listeners/inPlace``).
  @usableFromInline
  func keepWalkedListeners() {
    guard walkDepth > 0 else { return }
    let extras = madeExtras
    extras.walkedListeners.append((uiBindings, extras.loopCallbacks, extras.observers))
  }

  /// Keeps the state before each step while someone compares with it.
  func updateRetention() {
    core.retainsPreviousState = hasObservers
  }

  /// A new listener, with the next identifier.
  @usableFromInline
  func makeListener() -> Listener {
    lastID += 1
    return Listener(id: lastID)
  }

  /// The identifiers of `count` new listeners, in order.
  @inlinable
  func makeListenerIDs(_ count: Int) -> Range<Int> {
    defer { lastID += count }
    return lastID + 1..<lastID + 1 + count
  }

  /// Renders the step's state to the bindings of `snapshot` that were there before the step,
  /// when listeners were added during it.
  ///
  /// Out of line (see PerformanceLedger: cold paths out of line).
  @usableFromInline @inline(never)
  func renderStep(to snapshot: Listeners<State>, leavingOutIDsAfter lastIDBefore: Int) {
    let state = core.state
    snapshot.notify(state) { $0 <= lastIDBefore && self.uiBindings.contains($0) }
  }

  /// Tells the observers; callers check for observers first, so that no activity is built for
  /// nobody.
  @inlinable
  func notify(_ activity: Activity) {
    guard let observers = extras?.observers.inPlace, observers.count > 0 else { return }
    walkDepth &+= 1
    observers.walk(
      activity, removals: { removals },
      isListening: { self.extras?.observers.contains($0) == true })
    endWalk()
  }
}

/// A user interaction that triggers an event, such as a button tap.
///
/// Create one per interaction, pass it to
/// ``System/pure(initialState:context:reducer:uiBindings:userActions:feedback:)``, and call
/// ``execute()`` from the UI. One action can drive several systems. As in the seed, an action keeps
/// the systems it drives alive, so the system returned by `pure` can be discarded; a stopped system
/// is dropped at the next ``execute()``.
///
/// ```swift
/// let tapPlus = UserAction<Int, Event, CounterError, Context>(trigger: .increment)
/// button.onTap = { tapPlus.execute() }
/// ```
public final class UserAction<State, Event: Sendable, ErrorType: Error, Context: Sendable>: Sendable
{
  /// The event each execution sends.
  public let event: Event

  @MainActor private var systems: [System<State, Event, ErrorType, Context>] = []

  /// Creates an action that sends `event` when executed.
  ///
  /// - Parameter event: The event to send.
  public init(trigger event: Event) {
    self.event = event
  }

  /// Sends the action's event to every system it drives.
  @MainActor
  public func execute() {
    systems.removeAll { $0.isStopped }
    for system in systems { system.send(event) }
  }

  /// Makes the action send its event to `system` too.
  @MainActor
  @usableFromInline
  func drive(_ system: System<State, Event, ErrorType, Context>) {
    systems.append(system)
  }
}

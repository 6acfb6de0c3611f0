/// A registered UI binding, loop callback or observer, to remove it when its view goes away.
///
/// ```swift
/// let listener = system.addUIBinding { state in badge.text = "\(state.cart.count)" }
/// // The view disappears:
/// system.removeListener(listener)
/// ```
///
/// A removed listener receives nothing more, also when it is removed from inside its own call.
/// Dropping a listener value removes nothing: a system keeps its hooks until it is asked to.
public struct Listener: Hashable, Sendable {
  @usableFromInline let id: Int

  @usableFromInline
  init(id: Int) {
    self.id = id
  }
}

/// Who sent an event: the app, or an effect running for a request.
package enum EventOrigin: Equatable, Sendable {
  /// A send, a user action, a binding or a hook.
  case app
  /// The effect numbered `effect`, running for `request`, sent the event or ended with it.
  case effect(Int, request: String)
}

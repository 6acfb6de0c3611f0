/// One effect, from its `started` record to its end, as far as the journal saw it.
package struct EffectLifetime: Equatable, Sendable {
  /// How an effect ended, if it did.
  package enum Outcome: Equatable, Sendable {
    /// It finished, with an event or without.
    case finished
    /// It was cancelled: its request changed or its child went away.
    case cancelled
    /// It failed with `error`, the error's description.
    case failed(error: String)
    /// It had not ended when the journal did.
    case running

    /// The outcome's name: `finished`, `cancelled`, `failed` or `running`.
    package var name: String {
      switch self {
      case .finished: "finished"
      case .cancelled: "cancelled"
      case .failed: "failed"
      case .running: "running"
      }
    }
  }

  /// The effect's serial number in its system.
  package var number: Int
  /// The request's description, its scope first.
  package var request: String
  /// When it started; `nil` when it started before a dumped ring's oldest record.
  package var start: Double?
  /// When it ended; `nil` while ``outcome`` is ``Outcome/running``.
  package var end: Double?
  /// How it ended.
  package var outcome: Outcome

  /// An effect, every field given.
  package init(number: Int, request: String, start: Double?, end: Double?, outcome: Outcome) {
    self.number = number
    self.request = request
    self.start = start
    self.end = end
    self.outcome = outcome
  }

  /// The request's scope, such as `path[#3].detail`; empty for the root feature's requests.
  package var scope: RequestScope { RequestScope(request: request) }
}

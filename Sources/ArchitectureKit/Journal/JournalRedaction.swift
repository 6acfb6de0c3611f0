/// What a ``Journal`` keeps out: each event, state, request and error changed (or described)
/// before anything is recorded of it.
///
/// A journal writes what the events and states hold — their encodings, their descriptions, the
/// changes of each step — and names each effect by its request, which the feedback derived from
/// the state. A password typed in a form, a card number, a token in a request: redact them
/// here, and they are in no line of the journal, in memory or on disk.
///
/// ```swift
/// let redaction = JournalRedaction<Checkout.State, Checkout.Event>(
///   events: { event in
///     guard case .cardNumberChanged = event else { return event }
///     return .cardNumberChanged("••••")
///   },
///   states: { state in
///     var state = state
///     state.cardNumber = state.cardNumber.isEmpty ? "" : "••••"
///     return state
///   },
///   requests: { request in request.scope.isEmpty ? "checkout request" : request.scope }
/// )
/// ```
///
/// A replay feeds the reducer the redacted events: it reproduces the session when the
/// placeholders lead the reducer and the feedback where the secrets did (a card number replaced
/// by one of the same shape), and otherwise diverges where the secret mattered.
public struct JournalRedaction<State, Event> {
  /// Changes an event before anything is recorded of it; `nil` keeps events as they are.
  public var events: ((Event) -> Event)?
  /// Changes a state before anything is recorded of it (its changes included); `nil` keeps
  /// states as they are.
  public var states: ((State) -> State)?
  /// The text a request is recorded as; `nil` records its description
  /// (``EffectRequest/description``).
  public var requests: ((EffectRequest) -> String)?
  /// The text an effect's failure is recorded as; `nil` records its description.
  public var errors: ((any Error) -> String)?

  /// A redaction of the values each closure is given.
  ///
  /// - Parameters:
  ///   - events: Changes an event before anything is recorded of it.
  ///   - states: Changes a state before anything is recorded of it.
  ///   - requests: The text a request is recorded as.
  ///   - errors: The text an effect's failure is recorded as.
  public init(
    events: ((Event) -> Event)? = nil,
    states: ((State) -> State)? = nil,
    requests: ((EffectRequest) -> String)? = nil,
    errors: ((any Error) -> String)? = nil
  ) {
    self.events = events
    self.states = states
    self.requests = requests
    self.errors = errors
  }

  /// Nothing redacted.
  public static var none: JournalRedaction { JournalRedaction() }
}

@available(*, unavailable, message: "A redaction holds closures; make it where it is used.")
extension JournalRedaction: Sendable {}

import FunctionalCore
import Synchronization

/// A presented child's state — a sheet, a destination, an alert — with the identity of its
/// presentation.
///
/// Wrap the optional state of a presented child in `@Presented` and compose its feature with
/// ``Feature/presents(_:state:event:extract:context:error:)`` through the projected value's key
/// path (`\.$destination`). Each *assignment* is a new presentation:
///
/// ```swift
/// struct State: Equatable {
///   @Presented var destination: Destination?
/// }
///
/// state.destination = .settings(Settings())  // presents: a new child, new effects
/// state.destination = .settings(Settings())  // presents anew: the old child's effects end
/// state.destination?.rename("Ada")           // the same child changes: its effects go on
/// state.destination = nil                     // dismisses
/// ```
///
/// A change made in place — through optional chaining, a mutating method, an `inout` argument,
/// or the child's own reducer — keeps the presentation, so its effects go on under the request
/// semantics. An assignment of the whole value, even an equal one, presents anew: every effect
/// of the old child is cancelled, equal requests included, and its late events are dropped.
/// That is how a re-presented sheet never inherits the previous one's stream. A key path writes
/// the property through its setter, so `state[keyPath: \.destination] = …` presents anew, and so
/// does a change through a key path (`state[keyPath: \.destination]?.name = "Ada"`); so does a
/// copy changed and assigned back, such as an enum payload taken out with `if case var` and
/// put back. A decoded state, and a state made with `init(wrappedValue:)`, are new presentations.
/// <doc:Navigation> has the rule case by case.
///
/// The identity is not part of the value: two `Presented` values are equal when their states
/// are, so a test's expected state (`$0.destination = .settings(…)`) compares equal to the
/// system's, and a state diff shows only the state.
@propertyWrapper
public struct Presented<Value> {
  /// The presented state, or `nil`.
  @usableFromInline var value: Value?
  /// The presentation this state belongs to; a new one on every assignment.
  @usableFromInline package var identity: PresentationIdentity

  /// A presentation of `wrappedValue`, or nothing presented when it is `nil`.
  ///
  /// - Parameter wrappedValue: The state presented, or `nil`.
  @inlinable
  public init(wrappedValue: Value?) {
    self.value = wrappedValue
    self.identity = .next()
  }

  /// The presented state: assigning it presents anew, changing it in place keeps the
  /// presentation.
  @inlinable
  public var wrappedValue: Value? {
    get { value }
    set {
      value = newValue
      // Nothing presented has no presentation to tell apart: only a new one needs an identity.
      if newValue != nil { identity = .next() }
    }
    _modify { yield &value }
  }

  /// The wrapper itself, for the key path a feature is composed with: `\.$destination`.
  @inlinable
  public var projectedValue: Presented {
    get { self }
    set { self = newValue }
  }
}

extension Presented {
  /// Changes, in place, the presented state when it is in the case `destination` makes: the
  /// presentation goes on, with its effects.
  ///
  /// ```swift
  /// state.$destination.modify(Destination.State.cart) { cart in cart.isEmptying = true }
  /// ```
  ///
  /// Matching the case and assigning the result (`if case .cart(var cart) = state.destination
  /// { …; state.destination = .cart(cart) }`) would present anew, cancelling the sheet's
  /// effects; this keeps the presentation.
  ///
  /// - Parameters:
  ///   - destination: The case, as a function from its payload: `Destination.State.cart`.
  ///   - body: Changes the payload.
  /// - Returns: Whether a state was presented, in that case.
  @discardableResult
  public mutating func modify<Payload>(
    _ destination: @escaping @Sendable (Payload) -> Value, _ body: (inout Payload) -> Void
  ) -> Bool {
    guard let current = value, var payload = CaseMatcher(embed: destination).extract(current)
    else { return false }
    body(&payload)
    value = destination(payload)
    return true
  }
}

extension Presented: Equatable where Value: Equatable {
  /// Whether the two present equal states; the identity of the presentations is not compared.
  public static func == (lhs: Presented, rhs: Presented) -> Bool {
    lhs.value == rhs.value
  }
}

extension Presented: Hashable where Value: Hashable {
  /// Hashes the presented state.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}

extension Presented: Sendable where Value: Sendable {}

extension Presented: CustomReflectable {
  /// The presented state, as an optional: state dumps and diffs show no identity.
  public var customMirror: Mirror {
    Mirror(reflecting: value as Any)
  }
}

extension Presented: Encodable where Value: Encodable {
  /// Encodes the presented state only.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension Presented: Decodable where Value: Decodable {
  /// Decodes a state as a new presentation.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: try container.decode(Value?.self))
  }
}

/// Which presentation a presented state or a stack element belongs to.
///
/// Minted by the library, never reused in a process: a new presentation of an equal state gets
/// a new identity, so the runtime tells "presented anew" from "changed in place".
@usableFromInline
package struct PresentationIdentity: Hashable, Sendable {
  @usableFromInline let rawValue: UInt64

  /// A new identity.
  @usableFromInline
  static func next() -> PresentationIdentity {
    PresentationIdentity(rawValue: presentationSerials.next())
  }
}

/// Where presentation identities come from: a counter any thread may advance.
private protocol SerialSource: Sendable {
  /// The next serial number, never returned before in this process.
  func next() -> UInt64
}

/// An atomic counter, where the platform has one: a presentation mints its identity for about
/// 20 instructions rather than the lock's 130 (see PerformanceLedger: a child in one object).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class AtomicSerials: SerialSource {
  private let last = Atomic<UInt64>(0)

  func next() -> UInt64 {
    last.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

/// A counter under a lock, for the platforms that have no `Atomic`.
private final class LockedSerials: SerialSource {
  private let last = Lock<UInt64>(0)

  func next() -> UInt64 {
    last.withLock {
      $0 &+= 1
      return $0
    }
  }
}

private let presentationSerials: any SerialSource = {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
    AtomicSerials()
  } else {
    LockedSerials()
  }
}()

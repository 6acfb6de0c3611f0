/// A navigation stack: screens of any kind, in order, each with an identity the library mints.
///
/// Keep the screens of a stack in the state as a `Stack` of an enum with one case per kind of
/// screen, and compose the screens' feature with
/// ``Feature/forEach(_:stack:event:extract:context:error:)``. Pushing and popping are plain
/// state changes:
///
/// ```swift
/// state.path.append(.detail(Detail(product: product)))  // push
/// state.path.removeLast()                               // pop
/// state.path.pop(to: id)                                // pop to a screen
/// state.path.removeAll()                                // pop to the root
/// ```
///
/// Each pushed element gets a ``StackID`` (`#1`, `#2`, …, counted per stack, never reused by
/// it) that events address it by and that names it in requests and reports (`path[#3]`), and a
/// presentation identity of its own: a screen's effects live exactly as long as the screen is
/// on the stack, and a stack built afresh with the same IDs is a new set of screens.
///
/// Changing an element in place (`state.path[id: id]?.title = "…"`, the element's own reducer)
/// keeps it; replacing it through ``subscript(id:)`` with a new value does too — a new screen is
/// pushed, not assigned. That differs from a ``Presented`` property, where any assignment is a
/// new presentation. <doc:Navigation> says what happens to effects on each change.
///
/// A stack of `Codable` screens is `Codable` too, so a journal can hold it and a session can be
/// restored from it: it encodes each screen with its ID, and the ID the next push gets. A
/// decoded stack keeps those IDs — the events that address its screens still find them, and the
/// next push gets the ID it would have got — but its screens are new ones, as those of a stack
/// built afresh are.
public struct Stack<Element> {
  /// One element and what the library knows of it.
  @usableFromInline
  struct Entry: Identifiable {
    @usableFromInline let id: StackID
    @usableFromInline let identity: PresentationIdentity
    @usableFromInline var element: Element

    @inlinable
    init(id: StackID, identity: PresentationIdentity, element: Element) {
      self.id = id
      self.identity = identity
      self.element = element
    }
  }

  @usableFromInline var entries: [Entry]
  /// The ID the next pushed element gets.
  @usableFromInline var nextID: Int

  /// An empty stack.
  @inlinable
  public init() {
    entries = []
    nextID = 1
  }

  /// A stack of `elements`, pushed in order.
  ///
  /// - Parameter elements: The screens, from the bottom to the top.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The IDs of the elements, from the bottom to the top.
  public var ids: [StackID] { entries.map(\.id) }

  /// The ID of the top screen, or `nil` when the stack is empty.
  @inlinable
  public var lastID: StackID? { entries.last?.id }

  /// Changes, in place, the screen with `id` when it is in the case `screen` makes: the
  /// screen keeps its identity and its effects go on.
  ///
  /// ```swift
  /// state.path.modify(id, Path.State.detail) { detail in detail.quantity += 1 }
  /// ```
  ///
  /// Assigning a new value through ``subscript(id:)`` keeps the screen too; this spares
  /// matching the case by hand.
  ///
  /// - Parameters:
  ///   - id: The screen's ID.
  ///   - screen: The case, as a function from its payload: `Path.State.detail`.
  ///   - body: Changes the payload.
  /// - Returns: Whether the screen was there, in that case.
  @discardableResult
  public mutating func modify<Payload>(
    _ id: StackID, _ screen: @escaping @Sendable (Payload) -> Element,
    _ body: (inout Payload) -> Void
  ) -> Bool {
    guard let index = index(of: id),
      var payload = CaseMatcher(embed: screen).extract(entries[index].element)
    else { return false }
    body(&payload)
    entries[index].element = screen(payload)
    return true
  }

  /// Pushes a screen on top of the stack.
  ///
  /// - Parameter element: The screen's state.
  /// - Returns: The ID the screen got.
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> StackID {
    let id = StackID(rawValue: nextID)
    nextID += 1
    entries.append(Entry(id: id, identity: .next(), element: element))
    return id
  }

  /// Pops the top `count` screens, or every screen when there are fewer: popping an empty
  /// stack does nothing.
  ///
  /// - Parameter count: How many screens to pop.
  @inlinable
  public mutating func removeLast(_ count: Int = 1) {
    entries.removeLast(Swift.min(Swift.max(count, 0), entries.count))
  }

  /// Pops every screen.
  @inlinable
  public mutating func removeAll() {
    entries.removeAll()
  }

  /// Pops every screen above the one with `id`; nothing when no screen has it.
  ///
  /// - Parameter id: The screen to show.
  @inlinable
  public mutating func pop(to id: StackID) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    entries.removeSubrange((index + 1)...)
  }

  /// Pops the screen with `id` and every screen above it; nothing when no screen has it.
  ///
  /// - Parameter id: The lowest screen to pop.
  @inlinable
  public mutating func pop(from id: StackID) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    entries.removeSubrange(index...)
  }

  /// The screen with `id`, or `nil` when it is not on the stack; setting `nil` pops it and
  /// the screens above it.
  ///
  /// - Parameter id: A screen's ID.
  @inlinable
  public subscript(id id: StackID) -> Element? {
    get { index(of: id).map { entries[$0].element } }
    set {
      guard let index = index(of: id) else { return }
      if let newValue {
        entries[index].element = newValue
      } else {
        entries.removeSubrange(index...)
      }
    }
    _modify {
      guard let index = index(of: id) else {
        var none: Element? = nil
        yield &none
        return
      }
      var element: Element? = entries[index].element
      yield &element
      if let element {
        entries[index].element = element
      } else {
        entries.removeSubrange(index...)
      }
    }
  }

  /// The position of the screen with `id`.
  @inlinable
  func index(of id: StackID) -> Int? {
    // From the top: events go to the screens users see.
    entries.lastIndex { $0.id == id }
  }
}

/// A collection of screens, bottom to top. Not a `MutableCollection`: swapping or sorting
/// positions would move screen states between identities, leaving each screen's effects and
/// context behind; change a screen in place through ``subscript(_:)`` or
/// ``subscript(id:)``, reorder by building a new stack.
extension Stack: RandomAccessCollection {
  /// The position of the bottom screen.
  @inlinable public var startIndex: Int { entries.startIndex }
  /// The position past the top screen.
  @inlinable public var endIndex: Int { entries.endIndex }

  /// The screen at `position`, from the bottom; setting it changes the screen in place.
  @inlinable
  public subscript(position: Int) -> Element {
    get { entries[position].element }
    _modify { yield &entries[position].element }
  }
}

extension Stack: ExpressibleByArrayLiteral {
  /// A stack of the listed screens, pushed in order.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension Stack: Equatable where Element: Equatable {
  /// Whether the stacks hold equal screens under the same IDs; neither the presentation
  /// identities nor the IDs the next pushes will get are compared.
  public static func == (lhs: Stack, rhs: Stack) -> Bool {
    lhs.entries.elementsEqual(rhs.entries) { $0.id == $1.id && $0.element == $1.element }
  }
}

extension Stack: Hashable where Element: Hashable {
  /// Hashes the IDs and the screens.
  public func hash(into hasher: inout Hasher) {
    for entry in entries {
      hasher.combine(entry.id)
      hasher.combine(entry.element)
    }
  }
}

extension Stack: Sendable where Element: Sendable {}

extension Stack: Encodable where Element: Encodable {
  /// Encodes the screens, from the bottom, each with its ID, and the ID the next push gets:
  /// `{"elements":[{"id":1,"element":…},{"id":3,"element":…}],"nextID":4}`.
  ///
  /// The screens' presentation identities are not encoded.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What encoding an element throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StackCodingKeys.self)
    try container.encode(
      entries.map { StackScreenCoding(id: $0.id, element: $0.element) }, forKey: .elements)
    try container.encode(nextID, forKey: .nextID)
  }
}

extension Stack: Decodable where Element: Decodable {
  /// Decodes a stack under the encoded IDs; each screen is a new one, with an identity of its
  /// own, as in a stack built afresh.
  ///
  /// The next push gets the encoded `nextID`, or the ID after the top screen's when it is
  /// missing.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the IDs do not increase from `1` up, bottom to top, below
  ///   `nextID`, as pushes make them; what decoding an element throws.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StackCodingKeys.self)
    let screens = try container.decode([StackScreenCoding<Element>].self, forKey: .elements)
    var lastID = 0
    for screen in screens {
      // An ID made by pushes is unique and never reused: a repeated or reordered one would
      // give two screens one name, and send one screen's events to the other.
      guard screen.id.rawValue > lastID else {
        throw DecodingError.dataCorruptedError(
          forKey: .elements, in: container,
          debugDescription: "The IDs of a stack's screens must increase from #1 up, bottom to "
            + "top: \(screen.id) follows #\(lastID).")
      }
      lastID = screen.id.rawValue
    }
    let nextID = try container.decodeIfPresent(Int.self, forKey: .nextID) ?? lastID + 1
    guard nextID > lastID else {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID, in: container,
        debugDescription: "The next push of a stack must get an ID above its top screen's "
          + "(#\(lastID)), not #\(nextID).")
    }
    self.entries = screens.map { Entry(id: $0.id, identity: .next(), element: $0.element) }
    self.nextID = nextID
  }
}

/// The keys of an encoded ``Stack``.
private enum StackCodingKeys: String, CodingKey {
  case elements
  case nextID
}

/// A screen as a ``Stack`` encodes it: its ID and its state.
private struct StackScreenCoding<Element> {
  let id: StackID
  let element: Element
}

extension StackScreenCoding: Encodable where Element: Encodable {}
extension StackScreenCoding: Decodable where Element: Decodable {}
extension Stack.Entry: Sendable where Element: Sendable {}

extension Stack: CustomReflectable {
  /// The screens, keyed by ID, so state dumps and diffs show `#3: …`.
  public var customMirror: Mirror {
    Mirror(
      self, children: entries.map { (label: "\($0.id)", value: $0.element as Any) },
      displayStyle: .struct)
  }
}

/// Identifies a screen on a ``Stack``: `#1` for the first pushed, counted per stack.
///
/// It is `Codable` as its count, a number (`3` for `#3`), so an event that addresses a screen
/// can be written to a journal and read back.
public struct StackID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The count of the push that made the screen.
  public let rawValue: Int

  /// The ID with this count; for tests and previews that address a screen they pushed.
  ///
  /// - Parameter rawValue: The count of the push, from 1.
  @inlinable
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// `#` and the count: `#3`.
  public var description: String { "#\(rawValue)" }

  /// Whether `lhs` was pushed before `rhs`.
  public static func < (lhs: StackID, rhs: StackID) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

extension StackID: ExpressibleByIntegerLiteral {
  /// The ID of the `value`-th push: `#3` is `3`.
  public init(integerLiteral value: Int) {
    self.init(rawValue: value)
  }
}

extension StackID: Codable {
  /// Decodes an ID from its count, a number.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the value is not a whole number.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(rawValue: try container.decode(Int.self))
  }

  /// Encodes the ID as its count, a number: `3` for `#3`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

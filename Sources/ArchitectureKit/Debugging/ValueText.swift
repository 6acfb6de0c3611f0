/// A value as one short line of text, for journals and printed changes: long collections
/// summarized by their size, and the whole cut at a length.
///
/// A value with a description of its own (`CustomStringConvertible`) shows it; other structs
/// show their type and fields (`Product(id: "yeezy", price: 220)`), enums their case and payload
/// (`.loaded(Product(…))`), strings are quoted, a collection of more than
/// ``collectionLimit`` elements is `[1,000 elements]`. The result never exceeds
/// ``lengthLimit`` characters and an ellipsis.
package enum ValueText {
  /// The most elements a collection shows; a longer one shows its count.
  package static var collectionLimit: Int { 10 }
  /// The most characters a text holds before it is cut.
  package static var lengthLimit: Int { 160 }
  /// How deep the rendering goes into nested values; deeper ones are elided (and cycles of
  /// classes end).
  static var depthLimit: Int { 12 }

  /// The value as one line of at most `maxLength` characters and an ellipsis.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - maxLength: Where the text is cut.
  /// - Returns: The text.
  package static func describe(_ value: Any, maxLength: Int = lengthLimit) -> String {
    describe(value, traits: TypeTraits.of(value), maxLength: maxLength)
  }

  /// The value as one line, its type's traits known.
  static func describe(_ value: Any, traits: TypeTraits, maxLength: Int = lengthLimit) -> String {
    var writer = Writer(budget: maxLength)
    writer.write(value, traits: traits, depth: 0)
    return writer.text
  }

  /// The count of a collection, as people read it: `[1,000 elements]`.
  ///
  /// - Parameters:
  ///   - count: How many elements.
  ///   - noun: What they are, plural.
  /// - Returns: The summary.
  package static func summary(count: Int, of noun: String = "elements") -> String {
    var digits = String(count.magnitude)
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    return "[\(count < 0 ? "-" : "")\(digits)\(grouped) \(noun)]"
  }

  /// Accumulates text until its budget is used up.
  private struct Writer {
    var text = ""
    var left: Int
    var isFull: Bool { left < 0 }

    init(budget: Int) {
      left = budget
    }

    mutating func append(_ piece: String) {
      guard !isFull else { return }
      let count = piece.count
      if count <= left {
        text += piece
        left -= count
      } else {
        text += piece.prefix(left) + "…"
        left = -1
      }
    }

    mutating func write(_ value: Any, traits: TypeTraits? = nil, depth: Int) {
      guard !isFull else { return }
      guard depth < ValueText.depthLimit else { return append("…") }
      let traits = traits ?? TypeTraits.of(value)
      if traits.isString, let string = value as? String { return append(quoted(string)) }
      // A value with no parts (an integer, a Boolean) needs no mirror.
      if traits.isLeaf {
        return append(traits.describe?(value) ?? String(describing: value))
      }
      let mirror = Mirror(reflecting: value)
      switch mirror.displayStyle {
      case .optional:
        guard let wrapped = mirror.children.first else { return append("nil") }
        write(wrapped.value, depth: depth)
      case .collection, .set:
        writeElements(mirror)
      case .dictionary:
        writeDictionary(mirror)
      case .tuple:
        writeFields(mirror, open: "(", close: ")", depth: depth)
      case .enum:
        if let describe = traits.describe { return append(describe(value)) }
        guard let payload = mirror.children.first else { return append(".\(value)") }
        append(".\(payload.label ?? "\(value)")")
        let inner = Mirror(reflecting: payload.value)
        if inner.displayStyle == .tuple {
          writeFields(inner, open: "(", close: ")", depth: depth + 1)
        } else {
          append("(")
          write(payload.value, depth: depth + 1)
          append(")")
        }
      case .struct, .class:
        if let describe = traits.describe { return append(describe(value)) }
        append(String(describing: type(of: value)))
        writeFields(mirror, open: "(", close: ")", depth: depth)
      default:
        append(String(describing: value))
      }
    }

    mutating func writeFields(_ mirror: Mirror, open: String, close: String, depth: Int) {
      append(open)
      var isFirst = true
      for child in mirror.children {
        if !isFirst { append(", ") }
        isFirst = false
        if let label = child.label, !label.hasPrefix(".") {
          append(StateDiff.name(of: label) + ": ")
        }
        write(child.value, depth: depth + 1)
        if isFull { return }
      }
      append(close)
    }

    mutating func writeElements(_ mirror: Mirror) {
      let count = mirror.children.count
      guard count <= ValueText.collectionLimit else {
        return append(ValueText.summary(count: count))
      }
      var elements = mirror.children.map { ValueText.describe($0.value) }
      if mirror.displayStyle == .set { elements.sort() }
      append("[" + elements.joined(separator: ", ") + "]")
    }

    mutating func writeDictionary(_ mirror: Mirror) {
      let count = mirror.children.count
      guard count > 0 else { return append("[:]") }
      guard count <= ValueText.collectionLimit else {
        return append(ValueText.summary(count: count, of: "entries"))
      }
      let entries = mirror.children.map { entry -> String in
        let pair = Array(Mirror(reflecting: entry.value).children)
        guard pair.count == 2 else { return ValueText.describe(entry.value) }
        return ValueText.describe(pair[0].value) + ": " + ValueText.describe(pair[1].value)
      }
      append("[" + entries.sorted().joined(separator: ", ") + "]")
    }

    /// A string quoted and escaped as in JSON, so it reads the same in a journal's text.
    func quoted(_ string: String) -> String {
      var text = ""
      JSONValue.writeString(string, to: &text)
      return text
    }
  }
}

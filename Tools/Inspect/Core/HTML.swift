/// Text made safe for an HTML page.
package enum HTML {
  /// `text` with the characters that mean something in HTML escaped, so that it shows as it
  /// is in an element's content and in a double- or single-quoted attribute.
  ///
  /// ```swift
  /// HTML.escaped(#"search("<b>" & 'co')"#)
  /// // search(&quot;&lt;b&gt;&quot; &amp; &#39;co&#39;)
  /// ```
  package static func escaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.unicodeScalars.append(character)
      }
    }
    return escaped
  }

  /// `strings` as a JSON array, escaped for a double-quoted attribute, for the page's script
  /// to read with `JSON.parse`.
  package static func jsonAttribute(_ strings: [String]) -> String {
    escaped("[" + strings.map(jsonString).joined(separator: ",") + "]")
  }

  private static func jsonString(_ string: String) -> String {
    var json = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": json += "\\\""
      case "\\": json += "\\\\"
      case "\n": json += "\\n"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: json.unicodeScalars.append(scalar)
      }
    }
    return json + "\""
  }
}

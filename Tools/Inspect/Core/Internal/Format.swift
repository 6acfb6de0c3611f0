internal import Foundation

/// How numbers and counts read in the reports, the same on every machine.
enum Format {
  /// A time in seconds, to a tenth of a millisecond: `0.0312 s`.
  static func time(_ seconds: Double) -> String {
    String(format: "%.4f s", seconds)
  }

  /// A duration, in milliseconds below a second: `173.8 ms`, `1.250 s`.
  static func duration(_ seconds: Double) -> String {
    seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.3f s", seconds)
  }

  /// A rate, to a tenth: `4.1`.
  static func rate(_ value: Double) -> String {
    String(format: "%.1f", value)
  }

  /// A number with `decimals` digits after the point.
  static func fixed(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  /// `count` and the noun, plural unless there is one: `1 step`, `2 steps`.
  static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
  }

  /// The outcome counts as a phrase: `4 finished, 3 cancelled, 1 failed, 1 running`; only the
  /// outcomes that happened, `none` when none did.
  static func outcomes(_ counts: JournalSummary.OutcomeCounts) -> String {
    let phrases = counts.byOutcome.filter { $0.count > 0 }.map { "\($0.count) \($0.outcome)" }
    return phrases.isEmpty ? "none" : phrases.joined(separator: ", ")
  }
}

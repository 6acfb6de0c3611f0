/// A journal as read from its file: the header, the events in order and the effects' lifetimes.
package struct Journal: Equatable, Sendable {
  /// What the first line says.
  package var header: JournalHeader
  /// The steps and ignored events, in the order they were written.
  package var entries: [JournalEntry]
  /// Every effect the journal mentions, by serial number.
  package var effects: [EffectLifetime]
  /// What was read past with a warning (a truncated last line, a record of an unknown kind),
  /// each a sentence naming the journal and the line.
  package var warnings: [String]

  /// A journal, every field given.
  package init(
    header: JournalHeader,
    entries: [JournalEntry],
    effects: [EffectLifetime],
    warnings: [String] = []
  ) {
    self.header = header
    self.entries = entries
    self.effects = effects
    self.warnings = warnings
  }

  /// The reduced events, in order.
  package var steps: [JournalEntry.Step] {
    entries.compactMap { entry in
      if case .step(let step) = entry { step } else { nil }
    }
  }

  /// The time the journal covers: from 0, or from a dumped ring's oldest record, to its last
  /// record; `nil` for a journal with no records.
  package var span: ClosedRange<Double>? {
    let times = entries.map(\.time) + effects.flatMap { [$0.start, $0.end].compactMap { $0 } }
    guard let first = times.min(), let last = times.max() else { return nil }
    let start = header.capacity == nil ? min(0, first) : first
    return start...last
  }
}

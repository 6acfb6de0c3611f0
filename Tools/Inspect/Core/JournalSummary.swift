/// The figures a journal adds up to: steps, time, events per second, effects by outcome.
package struct JournalSummary: Equatable, Sendable {
  /// How many events were reduced.
  package var stepCount: Int
  /// How many events were ignored.
  package var ignoredCount: Int
  /// The first and last step numbers; `nil` without steps.
  package var stepNumbers: ClosedRange<Int>?
  /// The time the journal covers; `nil` for a journal with no records.
  package var span: ClosedRange<Double>?
  /// How many effects ended each way, and how many were still running.
  package var effectCounts: OutcomeCounts
  /// The effects by request scope, root first (an empty scope), then by name.
  package var effectsByScope: [ScopeEffects]

  /// How many effects had each outcome.
  package struct OutcomeCounts: Equatable, Sendable {
    /// Effects that finished.
    package var finished = 0
    /// Effects that were cancelled.
    package var cancelled = 0
    /// Effects that failed.
    package var failed = 0
    /// Effects still running at the journal's end.
    package var running = 0

    /// Every effect counted.
    package var total: Int { finished + cancelled + failed + running }

    /// The counts as `(outcome, count)` pairs in a fixed order, zeros included.
    package var byOutcome: [(outcome: String, count: Int)] {
      [("finished", finished), ("cancelled", cancelled), ("failed", failed), ("running", running)]
    }

    /// Counts one more effect with `outcome`.
    mutating func count(_ outcome: EffectLifetime.Outcome) {
      switch outcome {
      case .finished: finished += 1
      case .cancelled: cancelled += 1
      case .failed: failed += 1
      case .running: running += 1
      }
    }
  }

  /// How many effects had each outcome in one request scope.
  package struct ScopeEffects: Equatable, Sendable {
    /// The scope's path; empty for the root feature.
    package var scope: String
    /// The scope's effects by outcome.
    package var counts: OutcomeCounts
  }

  /// The summary of `journal`.
  package init(_ journal: Journal) {
    let steps = journal.steps
    stepCount = steps.count
    ignoredCount = journal.entries.count - steps.count
    if let first = steps.first?.number, let last = steps.last?.number, first <= last {
      stepNumbers = first...last
    }
    span = journal.span
    effectCounts = OutcomeCounts()
    var byScope: [String: OutcomeCounts] = [:]
    for effect in journal.effects {
      effectCounts.count(effect.outcome)
      byScope[effect.scope.path, default: OutcomeCounts()].count(effect.outcome)
    }
    effectsByScope = byScope.sorted { $0.key < $1.key }.map {
      ScopeEffects(scope: $0.key, counts: $0.value)
    }
  }

  /// Reduced events per second over the journal's span; `nil` when no time passed.
  package var eventsPerSecond: Double? {
    guard let span, span.upperBound > span.lowerBound else { return nil }
    return Double(stepCount) / (span.upperBound - span.lowerBound)
  }
}

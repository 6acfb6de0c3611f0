/// A journal's summary as plain text, for `inspect JOURNAL` without `--html`.
///
/// ```
/// shop.jsonl: an ArchitectureKit journal, format version 1
/// System: System<Shop.State, Shop.Event, ShopError, ShopContext>
/// Steps: 12 (1 to 12), 1 ignored event
/// Effects: 9: 4 finished, 3 cancelled, 1 failed, 1 running
/// ```
package enum TextReport {
  /// The summary of `journal`, one fact a line, ending with a line break.
  ///
  /// - Parameters:
  ///   - journal: The journal.
  ///   - name: What to call the journal, such as its file's name.
  /// - Returns: The text; the same for the same journal on every run.
  package static func render(_ journal: Journal, name: String) -> String {
    let summary = JournalSummary(journal)
    let header = journal.header
    var lines = ["\(name): an ArchitectureKit journal, format version \(header.version)"]
    if !header.system.isEmpty { lines.append("System: \(header.system)") }
    if let started = header.started { lines.append("Started: \(started)") }
    if let capacity = header.capacity {
      lines.append("Dumped from a ring of \(Format.count(capacity, "step")): its oldest steps only")
    }

    var steps = "Steps: \(summary.stepCount)"
    if let numbers = summary.stepNumbers {
      steps += " (\(numbers.lowerBound) to \(numbers.upperBound))"
    }
    lines.append(steps + ", " + Format.count(summary.ignoredCount, "ignored event"))
    if let span = summary.span {
      lines.append(
        "Time: \(Format.time(span.lowerBound)) to \(Format.time(span.upperBound))"
          + " (\(Format.duration(span.upperBound - span.lowerBound)))")
    }
    lines.append(
      "Events per second: "
        + (summary.eventsPerSecond.map(Format.rate) ?? "not measurable, no time passed"))

    let counts = summary.effectCounts
    lines.append("Effects: \(counts.total): \(Format.outcomes(counts))")
    if !summary.effectsByScope.isEmpty {
      lines.append("Effects by scope:")
      let width = summary.effectsByScope.map { label($0.scope).count }.max() ?? 0
      for scope in summary.effectsByScope {
        let name = label(scope.scope)
        let padding = String(repeating: " ", count: width - name.count)
        lines.append("  \(name)\(padding)  \(scope.counts.total): \(Format.outcomes(scope.counts))")
      }
    }
    let failures = journal.effects.compactMap { effect in
      if case .failed(let error) = effect.outcome {
        "  #\(effect.number) \(effect.request): \(error.isEmpty ? "no error given" : error)"
      } else {
        nil
      }
    }
    if !failures.isEmpty { lines += ["Failures:"] + failures }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func label(_ scope: String) -> String {
    scope.isEmpty ? "(root)" : scope
  }
}

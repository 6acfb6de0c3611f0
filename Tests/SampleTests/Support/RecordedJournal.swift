import InspectCore

/// A journal a sample recorded, read as `inspect` reads it, and told line by line as the tests
/// spell their expectations.
struct RecordedJournal {
  /// The journal, as `inspect` reads it.
  let journal: Journal

  /// Reads the journal in a file.
  init(contentsOf path: String) throws {
    journal = try JournalReader.read(contentsOf: path)
  }

  /// Reads a journal's lines, such as a `Journal`'s in memory.
  init(lines: [String]) throws {
    journal = try JournalReader.read(Array(lines.joined(separator: "\n").utf8), name: "memory")
  }

  /// Each step as `N from ORIGIN: EVENT`, where the origin is as ``origins`` tells it.
  var steps: [String] {
    zip(journal.steps, origins).map { step, origin in
      "\(step.number) from \(origin): \(step.eventText)"
    }
  }

  /// Where each step's event came from: `the app`, or `#E REQUEST`, the effect.
  var origins: [String] {
    journal.steps.map { step in
      switch step.origin {
      case .app: "the app"
      case .effect(let effect, let request): "#\(effect) \(request)"
      }
    }
  }

  /// `lines`, each cut to the length of the line `expected` has in its place, so a test spells
  /// the start of a step whose event holds a whole product; lines past `expected` stay whole.
  static func cut(_ lines: some Sequence<String>, like expected: [String]) -> [String] {
    lines.enumerated().map { index, line in
      index < expected.count ? String(line.prefix(expected[index].count)) : line
    }
  }

  /// The paths each step changed, step by step.
  var changedPaths: [[String]] {
    journal.steps.map { $0.changes.map(\.path) }
  }

  /// What the header says the events are: `codable` when a test can replay them.
  var events: String? {
    journal.header.events
  }

  /// Each effect as `#E REQUEST: OUTCOME`, in the order they started: `finished`, `cancelled`,
  /// `failed`, or `running` when the journal ends first.
  var effects: [String] {
    journal.effects.map { "#\($0.number) \($0.request): \($0.outcome.name)" }
  }
}

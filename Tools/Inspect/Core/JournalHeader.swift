/// What a journal's first line says about the journal.
///
/// Only `format` and `version` are checked; the other fields are shown to people as they are.
package struct JournalHeader: Equatable, Sendable {
  /// The format's version: always ``JournalReader/supportedVersion`` once read.
  package var version: Int
  /// The system's type, for people; empty when the writer did not say.
  package var system: String
  /// `codable` or `description`: what step records hold of their events.
  package var events: String?
  /// `codable`, `description` or `none`: what step records hold of the state.
  package var states: String?
  /// The wall-clock time of the first record, ISO 8601, as written.
  package var started: String?
  /// The ring's size when the journal was dumped from memory; `nil` for a file written as it
  /// went.
  package var capacity: Int?

  /// A header, every field given.
  package init(
    version: Int,
    system: String,
    events: String? = nil,
    states: String? = nil,
    started: String? = nil,
    capacity: Int? = nil
  ) {
    self.version = version
    self.system = system
    self.events = events
    self.states = states
    self.started = started
    self.capacity = capacity
  }
}

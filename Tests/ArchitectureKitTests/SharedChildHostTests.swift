import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// The children of a composition share one host, which passes each call to the child being
/// reconciled: siblings that start effects in one step, through a policy's wrapped host and an
/// event-triggered feedback, each keep exactly their own, named with their own scope.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct SharedChildHostTests {
  struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var wants = true
  }

  enum RowEvent: Equatable, Sendable {
    case tapped, stopTapping, loaded, timedOut
  }

  struct State: Equatable, Sendable {
    var rows: [Row] = []
  }

  enum Event: Equatable, Sendable {
    case set([Row])
    case row(Int, RowEvent)
  }

  /// A row loads while it wants to, under a timeout (a policy, which wraps the host it is
  /// given), and works on each tap until told to stop (an event-triggered feedback, which asks
  /// the host for the step's event and for which of its effects are live).
  static func row(gate: Gate) -> Feature<Row, RowEvent, Never, ManualClock> {
    Feature(
      reduce: { _, _ in },
      feedback: [
        Feedback.react(
          request: { $0.wants ? "load" : nil },
          effect: .run { _, _ in
            await gate.wait()
            return .loaded
          }
        )
        .timeout(.seconds(5), clock: { $0 }, event: .timedOut),
        .react(
          on: { event, _ in event == .tapped ? "tap" : nil },
          until: { event, _ in event == .stopTapping },
          effect: .run { _, _ in
            await gate.wait()
            return .loaded
          }),
      ])
  }

  static func list(gate: Gate) -> Feature<State, Event, Never, ManualClock> {
    Feature<State, Event, Never, ManualClock>(
      reduce: { state, event in
        if case .set(let rows) = event { state.rows = rows }
      }
    )
    .forEach(
      row(gate: gate), elements: \.rows, event: Event.row,
      extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
      context: { $0 })
  }

  @Test func siblingsStartingEffectsInOneStepKeepExactlyTheirOwn() {
    let gate = Gate()
    let log = Recorder<SystemActivity<State, Event, Never>>()
    let system = System(
      initialState: State(), context: ManualClock(), feature: Self.list(gate: gate),
      observers: [{ log.record($0) }])
    system.send(.set([Row(id: 1), Row(id: 2), Row(id: 3)]))
    #expect(log.started.map(\.description) == ["rows[1]: load", "rows[2]: load", "rows[3]: load"])

    // Only the tapped row's trigger sees its event.
    system.send(.row(2, .tapped))
    system.send(.row(3, .tapped))
    #expect(log.started.map(\.description).suffix(2) == ["rows[2]: tap", "rows[3]: tap"])

    // The third row stops tapping: its own tap is cancelled, not the second row's.
    system.send(.row(3, .stopTapping))
    #expect(log.cancelled.map(\.description) == ["rows[3]: tap"])

    // The second row leaves: exactly its effects are cancelled, in the order they started.
    system.send(.set([Row(id: 1), Row(id: 3)]))
    #expect(
      log.cancelled.map(\.description) == ["rows[3]: tap", "rows[2]: load", "rows[2]: tap"])
    #expect(
      system.runningRequests.map(\.description).sorted() == ["rows[1]: load", "rows[3]: load"])
    system.stop()
  }
}

import ArchitectureKit

/// One row of the composed scenario: a counter with an image it may ask for.
struct RowState: Identifiable {
  /// The row's identity.
  let id: Int
  /// What the row's events change.
  var count = 0
  /// Whether the row asks for its image; never, here, so each step only checks.
  var wantsImage = false
}

/// The events of one row.
enum RowEvent: Sendable {
  /// Adds one to the row's count.
  case increment
  /// The row's image arrived.
  case imageLoaded
}

/// The parent of the composed scenario: a list of rows.
struct ListState {
  /// The rows, each running the row feature.
  var rows: [RowState]

  /// A list of `count` rows, identified from 0.
  init(count: Int) {
    rows = (0..<count).map { RowState(id: $0) }
  }
}

/// The parent's events: only the rows' events, addressed by identifier.
enum ListEvent: Sendable {
  /// An event for the row with this identifier.
  case row(Int, RowEvent)
}

/// The row reducer, shared by the library feature and the hand-rolled baseline.
///
/// - Parameters:
///   - state: The row to change.
///   - event: The event to apply.
func reduceRow(_ state: inout RowState, _ event: RowEvent) {
  switch event {
  case .increment: state.count &+= 1
  case .imageLoaded: state.wantsImage = false
  }
}

/// The system of the composed scenario.
typealias ListSystem = System<ListState, ListEvent, CounterError, EmptyContext>

/// A parent feature with *n* `forEach` children, each with one feedback; every event goes to one
/// child.
///
/// Each step reduces the one child (found by identifier) and reconciles every child's feedback:
/// the cost of composition on a list, measured per event.
@MainActor
public final class ComposedFixture {
  private let system: ListSystem
  private let count: Int
  private var next = 0

  /// Creates the system with `count` rows and one UI binding.
  ///
  /// - Parameter count: The number of rows.
  public init(count: Int = 100) {
    self.count = count
    let row = Feature<RowState, RowEvent, Never, EmptyContext>(
      reduce: reduceRow,
      feedback: [
        .react(
          request: { $0.wantsImage ? $0.id : nil },
          effects: { _ in .pure(.imageLoaded) }
        )
      ]
    )
    let list = Feature<ListState, ListEvent, CounterError, EmptyContext>(reduce: { _, _ in })
      .forEach(
        row, elements: \.rows, event: ListEvent.row,
        extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } },
        context: { $0 }
      )
    system = ListSystem(
      initialState: ListState(count: count), context: EmptyContext(), feature: list)
    system.addUIBinding { state in consume(state.rows.count) }
  }

  /// Sends `count` events, each to the next row.
  ///
  /// - Parameter count: The number of events.
  public func send(_ count: Int) {
    for _ in 0..<count {
      system.send(.row(next, .increment))
      next = next == self.count - 1 ? 0 : next + 1
    }
  }
}

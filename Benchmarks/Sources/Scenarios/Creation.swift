import ArchitectureKit

/// Creates idle counter systems and keeps them alive while they are measured.
@MainActor
public final class CreationFixture {
  /// The systems one iteration creates.
  public nonisolated static let count = 10_000

  private var systems: [CounterSystem] = []

  /// Creates the fixture, with no system yet.
  public init() {}

  /// Releases the previous iteration's systems, keeping the array's storage, so neither the
  /// releases nor the array's growth are measured.
  public func prepare() {
    systems.removeAll(keepingCapacity: true)
    systems.reserveCapacity(Self.count)
  }

  /// Creates ``count`` counter systems with one UI binding each, as the seed's counter is.
  public func create() {
    for _ in 0..<Self.count {
      systems.append(
        CounterSystem.pure(
          initialState: 0,
          context: EmptyContext(),
          reducer: { state, event in reduceCounter(state, event) },
          uiBindings: [{ state in consume(state) }],
          userActions: [],
          feedback: []
        )
      )
    }
  }
}

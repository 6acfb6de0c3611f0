import ArchitectureKit

/// A transfer queue, with every set and keyed feedback form: one form per kind of transfer.
///
/// The namespace stays on the main actor; only the types the library compares off it are
/// `nonisolated`.
enum Transfers {
  struct State: Equatable {
    /// The transfers of the set forms.
    var queue: Set<Transfer> = []
    /// The transfers of the keyed forms, by identifier.
    var mirrors: [Int: Transfer] = [:]
    var log: [String] = []
  }

  /// One transfer: the request of both the set and the keyed forms.
  ///
  /// `nonisolated`, so that its `Hashable` conformance is not isolated to the main actor: the
  /// library compares requests, and hands them to effects, off the main actor too.
  nonisolated struct Transfer: Hashable {
    /// The effect form that runs a transfer of this kind.
    enum Kind: CaseIterable {
      case effects, run, stream, job
    }

    var id: Int
    var kind: Kind
  }

  /// `nonisolated`, so that `TestSystem.receive(_:)`, which compares events, can use its
  /// `Equatable` conformance.
  nonisolated enum Event: Equatable {
    case enqueue(Transfer)
    case mirror(Transfer)
    case progress(Int, String)
    case finished(Int)
  }

  struct Context {
    var chunks: @Sendable (Transfer) -> [String]
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .enqueue(let transfer): state.queue.insert(transfer)
    case .mirror(let transfer): state.mirrors[transfer.id] = transfer
    case .progress(let id, let chunk): state.log.append("\(id): \(chunk)")
    case .finished(let id):
      state.log.append("\(id): done")
      state.queue = state.queue.filter { $0.id != id }
      state.mirrors[id] = nil
    }
  }

  static func queued(_ kind: Transfer.Kind) -> (State) -> Set<Transfer> {
    { state in state.queue.filter { $0.kind == kind } }
  }

  static func mirrored(_ kind: Transfer.Kind) -> (State) -> [Int: Transfer] {
    { state in state.mirrors.filter { $0.value.kind == kind } }
  }

  /// The keyed forms over a `KeyedRequests`, built here so that each compiles with the main
  /// actor as the default isolation (the feature runs the dictionary forms).
  static var journaledFeedback: [Feedback<State, Event, Never, Context>] {
    let mirrors: (State) -> KeyedRequests<Int, Transfer> = { KeyedRequests($0.mirrors) }
    return [
      .react(keyed: mirrors, effect: .asyncResult { .pure(.finished($0.id)) }),
      .react(keyed: mirrors, effect: .run { transfer, _ in .finished(transfer.id) }),
      .react(
        keyed: mirrors,
        effect: .stream { transfer, context, send in
          for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
        }
      ),
      .react(
        keyed: mirrors,
        effect: .job { transfer, context, send in
          for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
          return .finished(transfer.id)
        }
      ),
    ]
  }

  static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: reduce,
      feedback: [
        .react(requests: queued(.effects), effects: { .pure(.finished($0.id)) }),
        .react(requests: queued(.run), effect: .run { transfer, _ in .finished(transfer.id) }),
        .react(
          requests: queued(.stream),
          effect: .stream { transfer, context, send in
            for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
          }
        ),
        .react(
          requests: queued(.job),
          effect: .job { transfer, context, send in
            for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
            return .finished(transfer.id)
          }
        ),
        .react(keyedRequests: mirrored(.effects), effect: .asyncResult { .pure(.finished($0.id)) }),
        .react(
          keyedRequests: mirrored(.run), effect: .run { transfer, _ in .finished(transfer.id) }),
        .react(
          keyedRequests: mirrored(.stream),
          effect: .stream { transfer, context, send in
            for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
          }
        ),
        .react(
          keyedRequests: mirrored(.job),
          effect: .job { transfer, context, send in
            for chunk in context.chunks(transfer) { await send(.progress(transfer.id, chunk)) }
            return .finished(transfer.id)
          }
        ),
      ]
    )
  }
}

import ArchitectureKit

/// A feature that contains itself: a folder loads its listing while it is open, and opens
/// subfolders on a stack of its own, as deep as the state goes.
///
/// Each folder's effect stops at the checkpoint of its name (TransitionFixtures.swift), so a
/// test sees which levels run and lets a closed folder answer late.
enum Tree {
  struct State: Equatable, Sendable {
    var name: String
    var listings: [Int] = []
    var children = Stack<State>()
  }

  indirect enum Event: Equatable, Sendable {
    case listed(String, run: Int)
    case open(String)
    case closeLast
    case closeTapped
    case child(StackID, Event)
  }

  static var feature: Feature<State, Event, Never, CheckpointContext> {
    Feature(
      reduce: { state, event in
        switch event {
        case .listed(_, let run): state.listings.append(run)
        case .open(let name): state.children.append(State(name: name))
        case .closeLast: state.children.removeLast()
        case .closeTapped, .child: break
        }
      },
      feedback: [
        .react(
          request: \.name,
          effect: .run { name, context in .listed(name, run: await context.pass(name)) })
      ]
    )
    .forEach(
      .lazy { Tree.feature.dismissing(on: { $0 == .closeTapped }) }, stack: \.children,
      event: Event.child, context: { context, _ in context })
  }
}

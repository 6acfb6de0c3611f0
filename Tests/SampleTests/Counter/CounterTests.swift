import ArchitectureKitTestSupport
import CounterFeature
import Testing

/// The seed's counter.
@MainActor
struct CounterTests {
  @Test func countsEveryTapOfTheSeedButtons() {
    var label = ""
    let tapPlus = CounterUserAction(trigger: .increment)
    let tapMinus = CounterUserAction(trigger: .decrement)
    // As in the seed's README, the system is not kept: its user actions keep it alive.
    Counter.start(userActions: [tapPlus, tapMinus], render: { label = String($0) })
    #expect(label == "0")

    tapPlus.execute()
    tapPlus.execute()
    tapMinus.execute()

    #expect(label == "1")
  }

  @Test func hasNoBounds() {
    let counter = ReducerSpec(reducer: Counter.reduce)

    counter.given(0).when(.decrement, .decrement).then(-2)
    counter.given(Int.max - 1).when(.increment).then(Int.max)
  }

  @Test func changesOnlyWhenTold() async {
    let counter = TestSystem(
      initialState: Counter.initialState,
      context: CounterContext(),
      reducer: Counter.reduce,
      feedback: [Feedback<Int, CounterEvent, CounterError, CounterContext>]()
    )

    counter.send(.increment) { $0 = 1 }
    counter.send(.decrement) { $0 = 0 }
    counter.send(.decrement) { $0 = -1 }
    await counter.finish()
  }
}

import ArchitectureKitTestSupport
import TestDoubles
import Testing

@Suite(.timeLimit(.minutes(10)))
struct FailureCaptureTests {
  static let site = CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column)

  @Test func capturesTheFailuresOfTheBodyAndOfTheTasksItStartsInOrder() async {
    let failures = await capturingFailures {
      reportFailure("from the body", at: Self.site)
      await Task { reportFailure("from a task it started", at: Self.site) }.value
    }
    #expect(failures == ["from the body", "from a task it started"])
  }

  @Test func aClosedCaptureTakesNoMoreFailures() {
    let capture = FailureCapture()
    #expect(capture.capture("while open", at: Self.site))
    #expect(capture.close().map(\.message) == ["while open"])
    #expect(!capture.capture("after it closed", at: Self.site))
    #expect(capture.close().map(\.message) == ["while open"])
  }

  /// A failsafe failure of a clock's advance points at the line of the advance.
  @MainActor @Test func anAdvancesFailsafeReportsAtTheCallersLine() async {
    let clock = ManualClock(timeout: .milliseconds(100))
    let released = Recorder<Bool>()
    let system = TestSystem<[Int], Int, Never, ManualClock>(
      initialState: [], context: clock, reduce: { $0.append($1) },
      feedback: [
        .react(
          request: { $0.isEmpty ? "spin" : nil },
          effect: .run { _, _ in
            // Works without end until the test lets it go.
            while released.values.isEmpty, !Task.isCancelled { await Task.yield() }
            return 1
          })
      ],
      clock: clock, exhaustivity: .off)
    system.run("spin")
    let line = UInt(#line + 1)
    let failures = await capturingFailureSites { await clock.advance(by: .seconds(1)) }
    released.record(true)
    #expect(failures.map(\.line) == [line])
    #expect(failures.map(\.fileID) == ["\(#fileID)"])
    #expect(failures.first?.message.contains("spin") == true)
    await system.finish()
  }

  @Test func noCaptureIsCurrentOutsideTheBody() async {
    _ = await capturingFailures {
      #expect(FailureCapture.current != nil)
    }
    #expect(FailureCapture.current == nil)
  }
}

import ArchitectureKitTestSupport
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
    #expect(capture.capture("while open"))
    #expect(capture.close() == ["while open"])
    #expect(!capture.capture("after it closed"))
    #expect(capture.close() == ["while open"])
  }

  @Test func noCaptureIsCurrentOutsideTheBody() async {
    _ = await capturingFailures {
      #expect(FailureCapture.current != nil)
    }
    #expect(FailureCapture.current == nil)
  }
}

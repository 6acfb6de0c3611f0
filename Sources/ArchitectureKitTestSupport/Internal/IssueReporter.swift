import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where a failed expectation points: the caller's source location.
package struct CallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// Records a test failure with whichever framework runs the current test.
///
/// Under Swift Testing the failure is an `Issue`; under XCTest it is an `XCTFail`. Both point at
/// the caller's file and line. While a ``FailureCapture`` is current and open, the failure goes
/// to it instead, and nothing is recorded: the harness's own tests assert on it.
package func reportFailure(_ message: String, at site: CallSite) {
  if let capture = FailureCapture.current, capture.capture(message, at: site) { return }
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: "\(site.fileID)",
        filePath: "\(site.filePath)",
        line: Int(site.line),
        column: Int(site.column)
      )
    )
    return
  }
  #if canImport(XCTest)
    XCTFail(message, file: site.filePath, line: site.line)
  #else
    print("\(site.fileID):\(site.line): \(message)")
  #endif
}

import ArchitectureKit
import FunctionalCore
import TestDoubles
import Testing

// Issue 11, defects 8 (the job form) and 10, written against API the rebuilt runtime adds:
// `Feedback.react(request:effect: .job)` and the `package` property `mailboxCapacity`.

extension Subject {
  /// The mailbox's reserved capacity, in entries.
  var mailboxCapacity: Int {
    get async {
      switch self {
      case .main(let system): await system.mailboxCapacity
      case .background(let system): await system.mailboxCapacity
      }
    }
  }
}

/// An event of exactly 512 bytes.
struct Blob: Sendable {
  var a = SIMD8<UInt64>()
  var b = SIMD8<UInt64>()
  var c = SIMD8<UInt64>()
  var d = SIMD8<UInt64>()
  var e = SIMD8<UInt64>()
  var f = SIMD8<UInt64>()
  var g = SIMD8<UInt64>()
  var h = SIMD8<UInt64>()
}

@Suite(.timeLimit(.minutes(10)))
struct JobAndMailboxTests {
  // MARK: Defect 8 — a job finishes with its final event

  @Test(arguments: Runtime.allCases)
  func aJobWhoseFinalEventClearsItsOwnRequestFinishesAndIsNeverCancelled(
    _ runtime: Runtime
  ) async {
    for _ in 0..<20 {
      let subject = await Subject<[String], String, Never, EmptyContext>.make(
        runtime, initialState: [], context: EmptyContext(), reduce: { $0.append($1) },
        feedback: {
          [
            .react(
              request: { $0.contains("go") && !$0.contains("done") ? "job" : nil },
              effect: .job { _, _, send in
                await send("progress")
                return "done"
              })
          ]
        }
      )
      let log = Recorder<SystemActivity<[String], String, Never>>()
      await subject.record(into: log)
      await subject.send("go")
      await log.wait { if case .step("done", _, _) = $0 { true } else { false } }
      _ = await subject.state

      #expect(await subject.state == ["go", "progress", "done"])
      let finished = log.activities.compactMap { activity -> String? in
        if case .effectFinished(let request) = activity { "\(request)" } else { nil }
      }
      #expect(finished == ["job"])
      #expect(log.cancelled.isEmpty)
      #expect(log.ignored.isEmpty)
      guard finished == ["job"] else { break }
    }
  }

  // MARK: Defect 10 — the mailbox gives a burst's capacity back

  @Test(arguments: Runtime.allCases)
  func anIdleSystemGivesBackTheMailboxCapacityOfABurst(_ runtime: Runtime) async {
    #expect(MemoryLayout<Blob>.size == 512)
    let burst = 100_000
    let subject = await Subject<Int, Blob, Never, EmptyContext>.make(
      runtime, initialState: 0, context: EmptyContext(), reduce: { count, _ in count += 1 }
    )
    await subject.addLoopCallback { count, control in
      // All of them queue behind the first step.
      if count == 1 { for _ in 0..<burst { control.send(Blob()) } }
    }
    await subject.send(Blob())

    #expect(await subject.state == burst + 1)
    let capacity = await subject.mailboxCapacity
    #expect(capacity <= 1_024, "an idle system keeps room for \(capacity) events")
  }
}

import ArchitectureKit
import Testing

/// A ``Resumption`` lets each waiter through exactly once: opened, or cancelled, or both at
/// once from different threads.
struct ResumptionTests {
  /// A waiter cancelled while it registers is resumed once; a double resumption traps, so the
  /// test passes only if none happens.
  @Test func aWaitCancelledAsItBeginsIsResumedOnce() async {
    for _ in 0..<StressLoad.scaled(20_000) {
      let resumption = Resumption()
      let waiter = Task { await resumption.wait() }
      waiter.cancel()
      await waiter.value
    }
  }

  @Test func aWaitOpenedAndCancelledAtOnceIsResumedOnce() async {
    for _ in 0..<StressLoad.scaled(20_000) {
      let resumption = Resumption()
      let waiter = Task { await resumption.wait() }
      async let opened: Void = resumption.open()
      waiter.cancel()
      await opened
      await waiter.value
    }
  }
}

import InspectCore
import Testing

struct TextReportTests {
  @Test func summarizesStepsTimeRateAndEffects() throws {
    let journal = try JournalReader.read(contentsOf: Fixture.path("shop.jsonl"))

    #expect(
      TextReport.render(journal, name: "shop.jsonl") == """
        shop.jsonl: an ArchitectureKit journal, format version 1
        System: System<Shop.State, Shop.Event, ShopError, ShopContext>
        Started: 2026-11-25T20:40:00Z
        Steps: 12 (1 to 12), 1 ignored event
        Time: 0.0000 s to 2.9002 s (2.900 s)
        Events per second: 4.1
        Effects: 9: 4 finished, 3 cancelled, 1 failed, 1 running
        Effects by scope:
          (root)            1: 1 running
          catalog           1: 1 finished
          catalog.rows[#1]  1: 1 finished
          catalog.rows[#2]  1: 1 cancelled
          path[#3].detail   3: 1 finished, 1 cancelled, 1 failed
          search            2: 1 finished, 1 cancelled
        Failures:
          #7 path[#3].detail: addToCart(yeezy): APIError.offline("can't reach the server")

        """)
  }

  @Test func saysSoWhenAJournalHasNoRecordsAndADumpedRingStartsLate() throws {
    let text = #"{"format":"architecturekit-journal","version":1,"capacity":64}"#

    let journal = try JournalReader.read(Array(text.utf8), name: "ring.jsonl")

    #expect(
      TextReport.render(journal, name: "ring.jsonl") == """
        ring.jsonl: an ArchitectureKit journal, format version 1
        Dumped from a ring of 64 steps: its oldest steps only
        Steps: 0, 0 ignored events
        Events per second: not measurable, no time passed
        Effects: 0: none

        """)
  }
}

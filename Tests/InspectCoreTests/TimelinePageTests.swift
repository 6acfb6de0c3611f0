import Foundation
import InspectCore
import Testing

/// The page is compared with `Fixtures/shop.html`, byte for byte. After a deliberate change to
/// the page, regenerate the golden file, review its diff and commit it:
///
///     INSPECT_REGENERATE_GOLDEN=1 swift test --filter TimelinePageTests
struct TimelinePageTests {
  private let journal: Journal
  private let page: String

  init() throws {
    journal = try JournalReader.read(contentsOf: Fixture.path("shop.jsonl"))
    page = TimelinePage.render(journal, name: "shop.jsonl")
  }

  @Test func matchesTheGoldenPage() throws {
    if ProcessInfo.processInfo.environment["INSPECT_REGENERATE_GOLDEN"] == "1" {
      try Data(page.utf8).write(to: Fixture.directory.appending(path: "shop.html"))
      Issue.record("Regenerated Fixtures/shop.html: review its diff, then run without the flag.")
      return
    }
    let golden = try Fixture.text("shop.html")

    #expect(page == golden, "Regenerate with INSPECT_REGENERATE_GOLDEN=1 if the change is meant.")
  }

  @Test func isTheSameOnEveryRender() {
    #expect(TimelinePage.render(journal, name: "shop.jsonl") == page)
  }

  @Test func showsEveryEventTextEscaped() {
    for entry in journal.entries {
      #expect(page.contains("<td class=\"event\"><code>\(HTML.escaped(entry.eventText))</code>"))
    }
    #expect(page.contains("search(.queryChanged(&quot;&lt;b&gt;yee &amp; co&lt;/b&gt;&quot;))"))
    #expect(!page.contains("<b>yee"))
  }

  @Test func drawsABarPerEffectColouredByOutcome() {
    for effect in journal.effects {
      #expect(page.contains("id=\"effect-\(effect.number)\""))
    }
    #expect(page.components(separatedBy: "class=\"bar bar-finished\"").count - 1 == 4)
    #expect(page.components(separatedBy: "class=\"bar bar-cancelled\"").count - 1 == 3)
    #expect(page.components(separatedBy: "class=\"bar bar-failed\"").count - 1 == 1)
    #expect(
      page.components(separatedBy: "class=\"bar bar-running bar-open-end\"").count - 1 == 1)
  }

  @Test func offersEveryRequestScopeAsAFilter() {
    let options = ["catalog", "catalog.rows", "catalog.rows[#1]", "path", "path[#3]", "search"]
    for scope in options {
      #expect(page.contains("<option value=\"\(HTML.escaped(scope))\">"))
    }
  }

  @Test func loadsNothingFromOutside() {
    #expect(!page.contains("src="))
    #expect(!page.contains("<link"))
    #expect(!page.contains("http://") && !page.contains("https://"))
    #expect(page.contains("default-src 'none'"))
  }

  @Test func rendersAJournalWithoutRecords() throws {
    let text = #"{"format":"architecturekit-journal","version":1}"#
    let empty = try JournalReader.read(Array(text.utf8), name: "empty.jsonl")

    let page = TimelinePage.render(empty, name: "empty.jsonl")

    #expect(page.contains("<p class=\"empty\">No records.</p>"))
    #expect(page.contains("<p class=\"empty\">No events.</p>"))
    #expect(page.hasSuffix("</html>\n"))
  }
}

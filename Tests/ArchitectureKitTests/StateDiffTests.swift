import ArchitectureKit
import Testing

/// The changed paths of a step, as printed changes and journals show them.
struct StateDiffTests {
  struct Item: Equatable, Identifiable {
    let id: Int
    var count = 1
  }

  enum Screen: Equatable {
    case list
    case detail(Detail)
  }

  struct Detail: Equatable {
    var title: String
    var isAdding = false
  }

  struct Settings: Equatable {
    var name = ""
  }

  struct Page: Equatable {
    var title = "Shop"
    var items: [Item] = []
    var path = Stack<Screen>()
    @Presented var settings: Settings?
    var tags: Set<String> = []
    var prices: [String: Int] = [:]
    var numbers: [Int] = []
  }

  func changes(_ before: Page, _ change: (inout Page) -> Void) -> [String] {
    var after = before
    change(&after)
    return StateDiff.changes(from: before, to: after).map { change in
      "\(change.path): \(change.before) → \(change.after)"
    }
  }

  @Test func listsOnlyTheChangedPaths() {
    #expect(changes(Page()) { $0.title = "Shoes" } == ["title: \"Shop\" → \"Shoes\""])
    #expect(changes(Page()) { _ in }.isEmpty)
  }

  @Test func namesElementsOfIdentifiableArraysByTheirIdentifier() {
    let page = Page(items: [Item(id: 7), Item(id: 9)])
    #expect(changes(page) { $0.items[1].count = 2 } == ["items[9].count: 1 → 2"])
  }

  @Test func namesStackElementsByTheirIDAndEnumCasesByName() {
    var page = Page()
    page.path.append(.list)
    let id = page.path.append(.detail(Detail(title: "Yeezy")))
    #expect(id == 2)
    #expect(
      changes(page) { $0.path[id: id] = .detail(Detail(title: "Yeezy", isAdding: true)) }
        == ["path[#2].detail.isAdding: false → true"])
  }

  @Test func showsAChangedCaseWhole() {
    var page = Page()
    let id = page.path.append(.list)
    #expect(
      changes(page) { $0.path[id: id] = .detail(Detail(title: "Yeezy")) }
        == ["path[#1]: .list → .detail(Detail(title: \"Yeezy\", isAdding: false))"])
  }

  @Test func namesAPresentedChildByItsProperty() {
    var page = Page()
    page.settings = Settings()
    #expect(changes(page) { $0.settings?.name = "Ada" } == ["settings.name: \"\" → \"Ada\""])
    #expect(changes(page) { $0.settings = nil } == ["settings: Settings(name: \"\") → nil"])
  }

  @Test func aDumpNamesAPresentedChildByItsPropertyToo() {
    var page = Page()
    page.settings = Settings(name: "Ada")
    let dump = StateDump.lines(of: page)
    #expect(dump.contains { $0.hasPrefix("  settings: ") })
    #expect(!dump.contains { $0.contains("_settings") })
  }

  @Test func namesDictionaryEntriesByKey() {
    let page = Page(prices: ["a": 1, "b": 2])
    #expect(
      changes(page) {
        $0.prices["b"] = 3
        $0.prices["c"] = 4
      } == ["prices[\"b\"]: 2 → 3", "prices[\"c\"]: nil → 4"])
  }

  @Test func summarizesLongCollectionsByTheirSize() {
    let page = Page(numbers: Array(0..<1_000))
    #expect(
      changes(page) { $0.numbers.append(1_000) }
        == ["numbers: [1,000 elements] → [1,001 elements]"])
    #expect(changes(page) { $0.tags = ["new"] } == ["tags: [] → [\"new\"]"])
  }

  @Test func cutsLongTexts() {
    let long = String(repeating: "a", count: 1_000)
    let change = StateDiff.changes(from: "", to: long).first
    #expect(change?.path == "")
    #expect(change?.after.count == ValueText.lengthLimit + 1)
    #expect(change?.after.hasSuffix("…") == true)
  }

  @Test func describesValuesOnOneLine() {
    #expect(
      ValueText.describe(Screen.detail(Detail(title: "x")))
        == ".detail(Detail(title: \"x\", isAdding: false))")
    #expect(ValueText.describe(Optional<Int>.none as Any) == "nil")
    #expect(ValueText.describe("a\n\"b\"") == "\"a\\n\\\"b\\\"\"")
    #expect(ValueText.summary(count: 1_234_567) == "[1,234,567 elements]")
  }
}

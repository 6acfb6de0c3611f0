import InspectCore
import Testing

struct HTMLTests {
  @Test func escapesWhatMeansSomethingInContentAndAttributes() {
    #expect(
      HTML.escaped(#"<b class="x">Tom & 'Jerry'</b>"#)
        == "&lt;b class=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;")
  }

  @Test func leavesOtherTextAlone() {
    #expect(HTML.escaped("path[#3] → 220,00 € ✓") == "path[#3] → 220,00 € ✓")
  }

  @Test func encodesAttributeArraysAsEscapedJSON() {
    #expect(
      HTML.jsonAttribute(["a", #"b"c\d"#, "e\u{1}"])
        == #"[&quot;a&quot;,&quot;b\&quot;c\\d&quot;,&quot;e\u0001&quot;]"#)
  }
}

/// A journal as one self-contained HTML page: a summary, filters, effects as bars along a time
/// axis, and a row per event.
///
/// The page loads nothing: its style and its small script are inline, and its content security
/// policy forbids any other source. Every text from the journal is escaped. The same journal
/// renders to the same bytes on every run, so a page can be compared with a golden file.
///
/// The script only filters: by request scope (`path[#3]` shows what ran in that child and its
/// children) and by a part of the event text. It reads and writes the filters in the page's
/// fragment (`timeline.html#scope=search&text=debounce`), so a filtered view can be shared.
package enum TimelinePage {
  /// The page for `journal`.
  ///
  /// - Parameters:
  ///   - journal: The journal.
  ///   - name: What to call the journal in the title, such as its file's name.
  /// - Returns: The page, a complete HTML document ending with a line break.
  package static func render(_ journal: Journal, name: String) -> String {
    let summary = JournalSummary(journal)
    var page = [
      "<!DOCTYPE html>",
      "<html lang=\"en\">",
      "<head>",
      "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        + "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">",
      "<title>Timeline of \(HTML.escaped(name))</title>",
      "<style>",
      style,
      "</style>",
      "</head>",
      "<body>",
    ]
    page += heading(journal.header, name: name)
    page += summarySection(summary)
    page += filters(journal)
    page += timeline(journal, summary: summary)
    page += eventTable(journal)
    page += ["<script>", script, "</script>", "</body>", "</html>"]
    return page.joined(separator: "\n") + "\n"
  }

  private static func heading(_ header: JournalHeader, name: String) -> [String] {
    var facts = ["format version \(header.version)"]
    if let started = header.started { facts.append("started \(started)") }
    if let events = header.events { facts.append("events: \(events)") }
    if let states = header.states { facts.append("states: \(states)") }
    if let capacity = header.capacity {
      facts.append("dumped from a ring of \(Format.count(capacity, "step")): its oldest steps only")
    }
    return [
      "<header>",
      "<h1>Timeline of <code>\(HTML.escaped(name))</code></h1>",
      header.system.isEmpty
        ? nil : "<p class=\"system\"><code>\(HTML.escaped(header.system))</code></p>",
      "<p class=\"facts\">\(HTML.escaped(facts.joined(separator: " · ")))</p>",
      "</header>",
    ].compactMap { $0 }
  }

  private static func summarySection(_ summary: JournalSummary) -> [String] {
    func figure(_ value: String, _ label: String) -> String {
      "<div class=\"figure\"><span class=\"value\">\(value)</span>"
        + "<span class=\"label\">\(label)</span></div>"
    }
    let span = summary.span.map { $0.upperBound - $0.lowerBound }
    let counts = summary.effectCounts
    let outcomes = counts.byOutcome.map { outcome, count in
      "<span class=\"count outcome-\(outcome)\"><span class=\"chip\"></span>"
        + "\(count) \(outcome)</span>"
    }
    return [
      "<section class=\"summary\" aria-label=\"Summary\">",
      figure("\(summary.stepCount)", "steps"),
      figure("\(summary.ignoredCount)", "ignored events"),
      figure(span.map(Format.duration) ?? "–", "duration"),
      figure(summary.eventsPerSecond.map(Format.rate) ?? "–", "events per second"),
      "<div class=\"figure effects\"><span class=\"value\">\(counts.total)</span>"
        + "<span class=\"label\">effects: \(outcomes.joined(separator: " "))</span></div>",
      "</section>",
    ]
  }

  private static func filters(_ journal: Journal) -> [String] {
    let requestScopes =
      journal.effects.map(\.scope)
      + journal.entries.compactMap { entry in
        if case .ignored(let ignored) = entry {
          ignored.scope.map(RequestScope.init(path:))
        } else {
          nil
        }
      }
    let options = Set(requestScopes.flatMap(\.prefixes)).sorted().map { scope in
      "<option value=\"\(HTML.escaped(scope))\">\(HTML.escaped(scope))</option>"
    }
    return [
      "<nav class=\"filters\" aria-label=\"Filters\">",
      "<label>Scope <select id=\"scope-filter\">",
      "<option value=\"\">all scopes</option>",
    ] + options + [
      "</select></label>",
      "<label>Event text <input id=\"text-filter\" type=\"search\" "
        + "placeholder=\"part of an event\" autocomplete=\"off\"></label>",
      "<span id=\"shown\" class=\"shown\"></span>",
      "</nav>",
    ]
  }

  private static func timeline(_ journal: Journal, summary: JournalSummary) -> [String] {
    guard let span = summary.span else {
      return ["<section class=\"timeline\"><p class=\"empty\">No records.</p></section>"]
    }
    let axis = TimeAxis(span: span)
    let ticks = axis.ticks.map { tick in
      "<span class=\"tick\" style=\"left:\(tick.position)\">\(tick.label)</span>"
    }
    let marks = journal.entries.enumerated().map { index, entry in
      let kind = if case .ignored = entry { "mark mark-ignored" } else { "mark" }
      let title = "\(Format.time(entry.time)): \(entry.eventText)"
      return "<a class=\"\(kind)\" href=\"#entry-\(index + 1)\" "
        + "style=\"left:\(axis.position(of: entry.time))\" title=\"\(HTML.escaped(title))\"></a>"
    }
    var lines = [
      "<section class=\"timeline\" aria-label=\"Timeline\">",
      "<h2>Effects along the time axis</h2>",
      "<div class=\"lane axis\"><div class=\"label\">time</div><div class=\"track\">",
    ]
    lines += ticks
    lines += [
      "</div><div class=\"outcome\"></div></div>",
      "<div class=\"lane events\"><div class=\"label\">events</div><div class=\"track\">",
    ]
    lines += marks
    lines.append("</div><div class=\"outcome\"></div></div>")
    lines += journal.effects.map { effectLane($0, axis: axis, span: span) }
    if journal.effects.isEmpty { lines.append("<p class=\"empty\">No effects.</p>") }
    lines.append("</section>")
    return lines
  }

  private static func effectLane(
    _ effect: EffectLifetime,
    axis: TimeAxis,
    span: ClosedRange<Double>
  ) -> String {
    let start = effect.start ?? span.lowerBound
    let end = effect.end ?? span.upperBound
    var classes = ["bar", "bar-\(effect.outcome.name)"]
    if effect.start == nil { classes.append("bar-open-start") }
    if effect.end == nil { classes.append("bar-open-end") }

    let started = effect.start.map { "started \(Format.time($0))" } ?? "started before the journal"
    let ended =
      effect.end.map { "\(effect.outcome.name) \(Format.time($0))" } ?? "still running at the end"
    let label = "#\(effect.number) \(effect.request)"
    var title = "\(label): \(started), \(ended)"
    if case .failed(let error) = effect.outcome, !error.isEmpty { title += ": \(error)" }
    var outcome = effect.outcome == .running ? "still running at the end" : effect.outcome.name
    if effect.start != nil, effect.end != nil {
      outcome += " after \(Format.duration(end - start))"
    }
    if case .failed(let error) = effect.outcome, !error.isEmpty {
      outcome += ": <code>\(HTML.escaped(error))</code>"
    }
    return "<div class=\"lane effect\" id=\"effect-\(effect.number)\" "
      + "data-scopes=\"\(HTML.jsonAttribute(effect.scope.prefixes))\">"
      + "<div class=\"label\" title=\"\(HTML.escaped(label))\">"
      + "<span class=\"number\">#\(effect.number)</span> <code>\(HTML.escaped(effect.request))</code>"
      + "</div><div class=\"track\"><span class=\"\(classes.joined(separator: " "))\" "
      + "style=\"left:\(axis.position(of: start));width:\(axis.width(from: start, to: end))\" "
      + "title=\"\(HTML.escaped(title))\"></span></div>"
      + "<div class=\"outcome outcome-\(effect.outcome.name)\">\(outcome)</div></div>"
  }

  private static func eventTable(_ journal: Journal) -> [String] {
    let knownEffects = Set(journal.effects.map(\.number))
    var lines = [
      "<section class=\"events\" aria-label=\"Events\">",
      "<h2>Events</h2>",
      "<table>",
      "<thead><tr><th>step</th><th>time (s)</th><th>event</th><th>origin</th>"
        + "<th>state changes</th></tr></thead>",
      "<tbody>",
    ]
    for (index, entry) in journal.entries.enumerated() {
      lines.append(eventRow(entry, id: "entry-\(index + 1)", knownEffects: knownEffects))
    }
    lines += ["</tbody>", "</table>"]
    if journal.entries.isEmpty { lines.append("<p class=\"empty\">No events.</p>") }
    lines.append("</section>")
    return lines
  }

  private static func eventRow(_ entry: JournalEntry, id: String, knownEffects: Set<Int>) -> String
  {
    let number: String
    let origin: EventOrigin?
    let changes: String
    var scopes: [String] = []
    switch entry {
    case .step(let step):
      number = "\(step.number)"
      origin = step.origin
      scopes = step.changes.flatMap { RequestScope(path: $0.path).prefixes }
      changes =
        step.changes.isEmpty
        ? "<span class=\"none\">no change</span>"
        : "<ul>"
          + step.changes.map { change in
            "<li><code class=\"path\">\(HTML.escaped(change.path))</code> "
              + "<code class=\"before\">\(HTML.escaped(change.before))</code> → "
              + "<code class=\"after\">\(HTML.escaped(change.after))</code></li>"
          }.joined() + "</ul>"
    case .ignored(let ignored):
      number = ""
      origin = ignored.origin
      scopes = ignored.scope.map { RequestScope(path: $0).prefixes } ?? []
      let scope = ignored.scope.map { " <code>\(HTML.escaped($0))</code>" } ?? ""
      changes = "<span class=\"note\">ignored: \(HTML.escaped(ignored.reason))\(scope)</span>"
    }
    let originCell: String
    switch origin {
    case .effect(let effect, let request):
      scopes = RequestScope(request: request).prefixes + scopes
      let name = "effect #\(effect)"
      let link = knownEffects.contains(effect) ? "<a href=\"#effect-\(effect)\">\(name)</a>" : name
      originCell = "\(link) <code>\(HTML.escaped(request))</code>"
    case .app:
      originCell = "app"
    case nil:
      originCell = "<span class=\"none\">unknown</span>"
    }
    let kind = if case .ignored = entry { "ignored" } else { "step" }
    var unique: [String] = []
    for scope in scopes where !unique.contains(scope) { unique.append(scope) }
    return "<tr class=\"\(kind)\" id=\"\(id)\" data-scopes=\"\(HTML.jsonAttribute(unique))\">"
      + "<td class=\"number\">\(number)</td><td class=\"time\">\(Format.fixed(entry.time, decimals: 4))</td>"
      + "<td class=\"event\"><code>\(HTML.escaped(entry.eventText))</code></td>"
      + "<td class=\"origin\">\(originCell)</td><td class=\"changes\">\(changes)</td></tr>"
  }
}

extension TimelinePage {
  /// The page's script: the scope and text filters, nothing else.
  ///
  /// It reads no journal text from inside itself, only from the page's elements, so nothing in
  /// a journal can end the script early. Once it has run, `#shown` says what is shown.
  static let script = """
    (function () {
      "use strict";
      var scopeFilter = document.getElementById("scope-filter");
      var textFilter = document.getElementById("text-filter");
      var shown = document.getElementById("shown");
      var rows = [].slice.call(document.querySelectorAll("tbody tr"));
      var lanes = [].slice.call(document.querySelectorAll(".lane.effect"));
      var marks = [].slice.call(document.querySelectorAll(".mark"));
      rows.concat(lanes).forEach(function (element) {
        element.scopes = JSON.parse(element.getAttribute("data-scopes"));
      });
      function isInScope(element, scope) {
        return scope === "" || element.scopes.indexOf(scope) >= 0;
      }
      function apply() {
        var scope = scopeFilter.value;
        var text = textFilter.value.trim().toLowerCase();
        var hiddenRows = {};
        var rowCount = 0;
        var laneCount = 0;
        rows.forEach(function (row) {
          var event = row.querySelector(".event").textContent.toLowerCase();
          row.hidden = !(isInScope(row, scope) && event.indexOf(text) >= 0);
          if (row.hidden) { hiddenRows["#" + row.id] = true; } else { rowCount += 1; }
        });
        lanes.forEach(function (lane) {
          lane.hidden = !isInScope(lane, scope);
          if (!lane.hidden) { laneCount += 1; }
        });
        marks.forEach(function (mark) {
          mark.hidden = hiddenRows[mark.getAttribute("href")] === true;
        });
        shown.textContent = "showing " + rowCount + " of " + rows.length + " events, " +
          laneCount + " of " + lanes.length + " effects";
      }
      function applyAndRemember() {
        apply();
        var fragment = new URLSearchParams();
        if (scopeFilter.value !== "") { fragment.set("scope", scopeFilter.value); }
        if (textFilter.value.trim() !== "") { fragment.set("text", textFilter.value.trim()); }
        try {
          history.replaceState(null, "", "#" + fragment.toString());
        } catch (error) {
          // A browser that refuses to change a local file's address still filters.
        }
      }
      var initial = new URLSearchParams(location.hash.slice(1));
      if (initial.has("scope")) { scopeFilter.value = initial.get("scope"); }
      if (initial.has("text")) { textFilter.value = initial.get("text"); }
      scopeFilter.addEventListener("change", applyAndRemember);
      textFilter.addEventListener("input", applyAndRemember);
      apply();
    })();
    """
}

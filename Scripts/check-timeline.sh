#!/usr/bin/env bash
# Renders a fixture journal with `inspect --html` and loads the page in a real headless browser
# (Debian's chromium), then checks the DOM the browser built: every event's text, one bar per
# effect in its outcome's class, the filters' script run to its end, and a filter given in the
# page's address hiding what it should.
#   Scripts/check-timeline.sh                                # uses .build
#   Scripts/check-timeline.sh --scratch-path .build-samples  # any `swift build` options
#   Scripts/check-timeline.sh --install-browser              # only install chromium if missing
# Where chromium is missing, it is installed with apt-get (CI's machines run Debian, as root);
# only where no browser can be installed is the check skipped, with the reason. .ci/run installs
# it while the tests build, so that CI does not wait for it here.
set -euo pipefail
cd "$(dirname "$0")/.."

fixture=Tests/InspectCoreTests/Fixtures/shop.jsonl

find_browser() {
  local name
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

install_browser() {
  if ! command -v apt-get >/dev/null; then
    echo "apt-get is missing (not a Debian system)"
    return 1
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "apt-get needs root"
    return 1
  fi
  echo "check-timeline: installing chromium with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have no package lists yet: read them only if the first try fails.
  if ! apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; then
    if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; } \
      >/dev/null 2>&1; then
      echo "apt-get could not install chromium (no package registry reachable?)"
      return 1
    fi
  fi
}

browser="$(find_browser || true)"
if [ -z "$browser" ]; then
  if ! reason="$(install_browser)" || ! browser="$(find_browser)"; then
    echo "check-timeline: skipped: no headless browser: ${reason:-chromium was not found after its install}"
    exit 0
  fi
fi
if [ "${1:-}" = --install-browser ]; then
  echo "check-timeline: the browser is $browser"
  exit 0
fi

swift build --product inspect "$@"
bin="$(swift build --show-bin-path "$@")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/inspect" "$fixture" --html "$work/timeline.html" >/dev/null

# The DOM the browser built from the page, once its inline script has run.
dump() {  # dump FRAGMENT OUTPUT
  timeout 120 "$browser" --headless --disable-gpu --no-sandbox --disable-dev-shm-usage \
    --user-data-dir="$work/profile" --dump-dom "file://$work/timeline.html$1" \
    >"$2" 2>>"$work/browser.log" || {
    cat "$work/browser.log" >&2
    echo "check-timeline: $browser failed to load the page" >&2
    exit 1
  }
}

failures=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then
    printf 'ok    %s\n' "$1"
  else
    printf 'FAIL  %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
    failures=$((failures + 1))
  fi
}

# The fixture's figures, read from its lines (it is written one record a line, with no `\\`).
count() { grep -c "\"kind\":\"$1\"" "$fixture" || true; }
event_texts() {  # the eventText of every step and ignored event, as the DOM serializes text
  grep -E '"kind":"(step|ignored)"' "$fixture" |
    sed -E 's/.*"eventText":"(([^"\\]|\\.)*)".*/\1/; s/\\"/"/g' |
    sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
}
events=$(($(count step) + $(count ignored)))
effects=$(count started)

dump "" "$work/all.html"
missing=0
while IFS= read -r text; do
  if ! grep -qF "<td class=\"event\"><code>$text</code></td>" "$work/all.html"; then
    printf 'not in the DOM: %s\n' "$text"
    missing=$((missing + 1))
  fi
done < <(event_texts)
check "the browser shows every event's text ($events)" 0 "$missing"
for outcome in finished cancelled failed; do
  check "a $outcome bar per $outcome effect" "$(count "$outcome")" \
    "$(grep -o "class=\"bar bar-$outcome\"" "$work/all.html" | wc -l)"
done
check "a running bar per effect that did not end" \
  "$((effects - $(count finished) - $(count cancelled) - $(count failed)))" \
  "$(grep -o 'class="bar bar-running bar-open-end"' "$work/all.html" | wc -l)"
check "the filters' script ran" \
  "<span id=\"shown\" class=\"shown\">showing $events of $events events, $effects of $effects effects</span>" \
  "$(grep -o '<span id="shown"[^<]*</span>' "$work/all.html")"

# In the fixture every event whose text holds addToCart is in the scope path[#3].
dump "#scope=path%5B%233%5D&text=addtocart" "$work/filtered.html"
matching=$(event_texts | grep -ci addtocart)
scoped=$(grep '"kind":"started"' "$fixture" | grep -c '"request":"path\[#3\]')
check "a scope and text filter from the address shows what they match" \
  "<span id=\"shown\" class=\"shown\">showing $matching of $events events, $scoped of $effects effects</span>" \
  "$(grep -o '<span id="shown"[^<]*</span>' "$work/filtered.html")"
check "the rows it shows are those that match" "$matching" \
  "$(grep -o '<tr class="[a-z]*" id="entry-[0-9]*" data-scopes="[^"]*"><td class="number">[0-9]*</td><td class="time">[0-9.]*</td><td class="event"><code>[^<]*addToCart' \
    "$work/filtered.html" | wc -l)"
check "it hides every other row" "$((events - matching))" \
  "$(grep -o '<tr [^>]*hidden=""' "$work/filtered.html" | wc -l)"

if [ "$failures" -ne 0 ]; then
  echo "$failures timeline check(s) failed"
  exit 1
fi
echo "All timeline checks passed in $("$browser" --version 2>/dev/null | head -n 1)"

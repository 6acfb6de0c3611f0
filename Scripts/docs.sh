#!/usr/bin/env bash
# Builds the DocC catalog into a static site, with warnings as errors:
#   bash Scripts/docs.sh                                # writes .build/docs
#   DOCS_SCRATCH_PATH=.build bash Scripts/docs.sh       # reuses another build directory
#   DOCS_HOSTING_BASE_PATH=ArchitectureKit bash Scripts/docs.sh
#                                     # for a site served under https://host/ArchitectureKit/
#
# It uses only the toolchain: `swift package dump-symbol-graph` and `docc`, no plugin, so the
# package keeps its zero dependencies. Then open .build/docs with any static file server, e.g.
#   python3 -m http.server --directory .build/docs   # and visit /documentation/architecturekit
#
# One catalog, three modules. ArchitectureKit re-exports FunctionalCore, and test targets use
# ArchitectureKitTestSupport, so the docs must cover all three. This toolchain's `docc convert`
# accepts the symbol graphs of several modules in one run: each module gets its own page tree
# (/documentation/architecturekit, /documentation/functionalcore,
# /documentation/architecturekittestsupport), links between them resolve when written with the
# module name (``FunctionalCore/AsyncResult``), and the catalog's articles and tutorials join
# the ArchitectureKit tree, whose landing page curates every symbol of both products. One
# convert, rather than one archive per module joined by `docc merge`, also means one link
# check over everything and no synthesized landing page.
#
# Before building, it checks the rule that code in the docs compiles: every ```swift block of
# an article (and of README.md) must follow a marker that names where it lives,
#   <!-- code: Tests/ArchitectureKitTests/DocumentationExamplesTests.swift -->
# and must appear in that file line for line (indentation and blank lines aside). Code of other
# libraries, shown for comparison in the migration guides, is marked
#   <!-- code: foreign TCA -->
# and a Package.swift fragment, which no target can compile, is marked
#   <!-- code: manifest -->
# The tutorial's code files are symbolic links to files in Sample/ and Tests/.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."

catalog=Documentation/ArchitectureKit.docc
scratch=${DOCS_SCRATCH_PATH:-.build-docs}
output=.build/docs
modules=(FunctionalCore ArchitectureKit ArchitectureKitTestSupport)

step() { printf '\n==> %s\n' "$*"; }

step "Code blocks of the articles and the README"
articles=(README.md)
while IFS= read -r file; do articles+=("$file"); done < <(find "$catalog" -name '*.md' | sort)
awk '
  # Lines compared: no indentation, no trailing spaces, no blank lines, no imports.
  function normalized(line) {
    sub(/^[ \t]+/, "", line)
    sub(/[ \t]+$/, "", line)
    return line
  }
  function contents(path,    line, text, status) {
    if (path in cache) return cache[path]
    text = "\n"
    while ((status = (getline line < path)) > 0) {
      line = normalized(line)
      if (line != "") text = text line "\n"
    }
    close(path)
    cache[path] = status < 0 ? "" : text
    return cache[path]
  }
  function fail(message) {
    printf "%s:%d: error: %s\n", FILENAME, start, message
    failures++
  }
  FNR == 1 { inBlock = 0; marker = ""; previous = "" }
  inBlock && $0 ~ /^[ \t]*```[ \t]*$/ {
    inBlock = 0
    if (marker == "") {
      fail("a swift block needs a marker line before it: <!-- code: PATH -->")
    } else if (marker ~ /^(foreign [^ ].*|manifest)$/) {
      foreign++
    } else if (contents(marker) == "") {
      fail("the marker names " marker ", which is missing or empty")
    } else if (index(contents(marker), block) == 0) {
      fail("this block is not in " marker " (compare them line by line)")
    } else {
      checked++
    }
    next
  }
  inBlock {
    line = normalized($0)
    isImport = line ~ /^((public|package|internal|@testable) )?import /
    if (line != "" && !isImport) block = block line "\n"
    next
  }
  $0 ~ /^[ \t]*```swift[ \t]*$/ {
    inBlock = 1
    start = FNR
    block = "\n"
    marker = previous ~ /^<!-- code: .* -->$/ ? previous : ""
    sub(/^<!-- code: /, "", marker)
    sub(/ -->$/, "", marker)
    next
  }
  normalized($0) != "" { previous = normalized($0) }
  END {
    printf "%d swift blocks found in their files, %d marked as other libraries or manifests\n",
      checked, foreign
    exit (failures > 0 ? 1 : 0)
  }
' "${articles[@]}"
for link in "$catalog"/Resources/*.swift; do
  target=$(readlink -f "$link")
  case "$target" in
    "$PWD"/Sample/* | "$PWD"/Tests/*) ;;
    *)
      echo "$link: error: tutorial code must be a link to a file in Sample/ or Tests/" >&2
      exit 1
      ;;
  esac
done

step "Symbol graphs (swift package dump-symbol-graph, scratch path $scratch)"
mkdir -p "$scratch"
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
graphs="$(dirname "$bin")/symbolgraph"
rm -rf "$graphs"
log="$scratch/dump-symbol-graph.log"
if ! swift package --scratch-path "$scratch" dump-symbol-graph --emit-extension-block-symbols \
  >"$log" 2>&1; then
  # The dump also tries SwiftPM's generated test-runner modules, which exist only after
  # `swift build --build-tests`; failing on them is harmless here. Any other error is not.
  if grep 'error:' "$log" | grep -vqE "symbol graph for '[A-Za-z]+Package(Discovered)?Tests'"; then
    cat "$log"
    exit 1
  fi
fi
selected="$scratch/docs-symbol-graphs"
rm -rf "$selected"
mkdir -p "$selected"
for module in "${modules[@]}"; do
  if [ ! -f "$graphs/$module.symbols.json" ]; then
    cat "$log"
    echo "error: swift package dump-symbol-graph wrote no symbol graph for $module" >&2
    exit 1
  fi
  # The module's own graph, plus its extensions of other modules' types (Module@Swift).
  cp "$graphs/$module.symbols.json" "$selected/"
  find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$selected/" \;
done

step "DocC (warnings as errors) into $output"
docc=${DOCC:-$(command -v docc || xcrun --find docc 2>/dev/null || true)}
if [ -z "$docc" ]; then
  echo "error: docc not found: put the toolchain's usr/bin on PATH, or set DOCC" >&2
  exit 1
fi
rm -rf "$output"
# docc creates the output folder but not its parents; on a fresh clone nothing has made .build.
mkdir -p "$(dirname "$output")"
hosting=()
if [ -n "${DOCS_HOSTING_BASE_PATH:-}" ]; then
  hosting=(--hosting-base-path "$DOCS_HOSTING_BASE_PATH")
fi
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$selected" \
  --fallback-display-name ArchitectureKit \
  --fallback-bundle-identifier ArchitectureKit \
  --transform-for-static-hosting ${hosting[@]+"${hosting[@]}"} \
  --warnings-as-errors \
  --output-path "$output"

echo "Documentation: $output/documentation/architecturekit/index.html"

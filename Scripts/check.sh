#!/usr/bin/env bash
# Everything CI runs, in the order it runs it. Run it locally before you push:
#   bash Scripts/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# Every run of tests and of the samples has a time limit (Scripts/bounded.sh): a test or a sample
# that never ends stops the check with the names of the tests that hung, long before CI's own
# limit. Each limit is several times what its step takes on a 2-core machine, builds included.

step "Format lint (swift format lint --strict)"
swift format lint --strict --recursive --parallel \
  Package.swift Sources Tests Sample Tools Benchmarks/Package.swift Benchmarks/Benchmarks \
  IntegrationTests

step "Source lines of at most 100 characters (swift format leaves comments alone)"
if LC_ALL=C.UTF-8 grep -rnE '^.{101,}' Sources --include='*.swift'; then
  echo "The lines above are over 100 characters: rewrap them." >&2
  exit 1
fi

step "Build with warnings as errors"
if [ -n "${ARCHITECTUREKIT_DEBUG_BUILD_LOG:-}" ]; then
  # .ci/run's debug build compiled every target of a fresh clone; a compiler warning in its log
  # fails the check as -warnings-as-errors would, without compiling everything again.
  if grep -E '^/[^ ]+\.swift:[0-9]+:[0-9]+: warning:' "$ARCHITECTUREKIT_DEBUG_BUILD_LOG"; then
    echo "The debug build above has warnings." >&2
    exit 1
  fi
  echo "No warnings in the debug build of every target (read from .ci/run's log)."
else
  swift build --build-tests -Xswiftc -warnings-as-errors
fi

# .ci/run runs the README's `swift test` first and says so here, so the suite runs once per
# configuration; run on its own, this script runs it.
if [ "${ARCHITECTUREKIT_DEBUG_TESTS_RAN:-}" = 1 ]; then
  step "Tests (swift test): already run by .ci/run on this tree, not run twice"
else
  step "Tests (swift test)"
  bash Scripts/bounded.sh 1200 swift test --skip-build
fi

# The hot path is @inlinable and specialized only with optimization: behaviour that appears
# only in release builds is tested here. The samples' suites add nothing in release.
step "Library tests in release (swift test -c release)"
bash Scripts/bounded.sh 2400 swift test -c release \
  --filter '^(FunctionalCoreTests|ArchitectureKitTests|ArchitectureKitTestSupportTests)\.'

# A package set up like a new Xcode 26 app target: main-actor isolation by default and the
# approachable-concurrency features. It builds the library once more, in its own build folder
# (IntegrationTests/DefaultIsolation/.build, ignored by git), and checks that every feedback form
# and a composition compile and run there with only the annotations the Concurrency article shows.
step "Default main-actor isolation package (IntegrationTests/DefaultIsolation)"
bash Scripts/bounded.sh 1800 \
  swift test --package-path IntegrationTests/DefaultIsolation -Xswiftc -warnings-as-errors

# Instrumented code runs ten to thirty times slower: the stress tests run a tenth of their load
# (see Tests/ArchitectureKitTests/Support/StressLoad.swift).
step "Tests under the thread sanitizer"
ARCHITECTUREKIT_STRESS_DIVISOR=10 \
  bash Scripts/bounded.sh 2400 swift test --sanitize=thread --scratch-path .build-tsan

step "Tests under the address sanitizer"
# Leak detection stays off: it flags effect tasks that tests leave suspended on purpose and
# buffers FoundationEssentials keeps; LeakTests check the runtime for leaks deterministically.
ARCHITECTUREKIT_STRESS_DIVISOR=10 ASAN_OPTIONS=detect_leaks=0 \
  bash Scripts/bounded.sh 2400 swift test --sanitize=address --scratch-path .build-asan

# As a newcomer runs it: on its own, in a fresh copy of the working tree (what a clone holds,
# uncommitted edits included), with no build folder of ours to lean on.
step "Documentation build, standalone on a fresh copy (warnings as errors)"
fresh="$(mktemp -d)"
trap 'rm -rf "$fresh"' EXIT
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do
    # A tracked file deleted in the working tree is not part of the copy.
    if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
  done |
  tar --null -T - -cf - | tar -xf - -C "$fresh"
bash "$fresh/Scripts/docs.sh"

step "Sample smoke runs"
# The same flags as the build above, so the samples are not rebuilt.
bash Scripts/bounded.sh 1200 bash Scripts/smoke.sh

# `inspect --html` renders a fixture journal; a real headless browser loads the page and the
# DOM it builds is checked. Installs chromium with apt-get where it can, else skips with the
# reason; builds `inspect` with the same flags as above.
step "Timeline page in a headless browser (Scripts/check-timeline.sh)"
bash Scripts/check-timeline.sh

step "Performance gate: allocations and instructions against Benchmarks/Thresholds"
# The deterministic metrics only, never wall time (CONTRIBUTING.md, "Performance changes"). It
# builds the Benchmarks package in release mode, which is also the check that it builds.
status=0
bash Scripts/bench.sh --check || status=$?
if [ "$status" -eq 2 ]; then
  # A toolchain with no thresholds yet: the package was built; the figures cannot be judged.
  echo "check.sh: no performance thresholds for this toolchain; the gate was skipped" >&2
elif [ "$status" -ne 0 ]; then
  exit "$status"
fi

step "All checks passed"

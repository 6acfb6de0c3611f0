#!/usr/bin/env bash
# Measures how long the compiler takes to type-check 50 feedback loops of mixed shapes (every
# `react` form and every effect value), the figure that keeps the `react` surface honest.
#
#   Scripts/typecheck-feedback.sh            # best of 7 runs, in milliseconds
#   Scripts/typecheck-feedback.sh 15         # best of 15
#
# It builds the library in debug (if needed), writes the file to a temporary folder and runs
# `swiftc -typecheck -Xfrontend -debug-time-function-bodies` on it. The figure is the time of
# the one function that holds the 50 loops, as an array literal.
set -euo pipefail
runs="${1:-7}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
swift build --target ArchitectureKit >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
  echo 'import ArchitectureKit'
  echo 'struct S: Sendable { var q: String? = nil; var ids: Set<Int> = []; var keyed: [Int: String] = [:]; var running = false }'
  echo 'enum E: Sendable { case got(String); case tick(Int); case none }'
  echo 'struct C: Sendable { var clock = ContinuousClock() }'
  echo 'typealias F = Feedback<S, E, Never, C>'
  echo 'func fiftyFeedback() -> [F] {'
  echo '  ['
  for i in $(seq 0 49); do
    case $((i % 10)) in
      0) echo '    .react(request: \.q, effect: .run { q, _ in .got(q) }),' ;;
      1) echo '    .react(request: \.q, effect: .stream { q, _, send in await send(.got(q)) }),' ;;
      2) echo '    .react(request: \.q, effect: .job { q, _, send in await send(.tick(1)); return .got(q) }),' ;;
      3) echo '    .react(request: \.q, effect: .perform { q, _ in q.isEmpty ? nil : .got(q) }),' ;;
      4) echo '    .react(request: \.q, effects: { q in .pure(.got(q)) }),' ;;
      5) echo '    .react(requests: \.ids, effect: .run { id, _ in .tick(id) }),' ;;
      6) echo '    .react(requests: \.ids, effects: { id in .pure(.tick(id)) }),' ;;
      7) echo '    .react(keyedRequests: \.keyed, effect: .run { q, _ in .got(q) }),' ;;
      8) echo '    .react(on: { event, _ in if case .got(let q) = event { q } else { nil } }, effect: .perform { _, _ in nil }),' ;;
      9) echo '    .react(request: { $0.running ? true : nil }, effect: .timer(every: .seconds(1), clock: \.clock, tick: { _, n in .tick(n) })),' ;;
    esac
  done
  echo '  ]'
  echo '}'
} >"$work/Feedback50.swift"
best=""
for _ in $(seq "$runs"); do
  ms="$(swiftc -typecheck -I .build/debug/Modules "$work/Feedback50.swift" \
    -Xfrontend -debug-time-function-bodies 2>&1 | grep -P 'ms\t.*fiftyFeedback' | cut -f1 | tr -d 'ms')"
  if [[ -z "$best" ]] || awk "BEGIN { exit !($ms < $best) }"; then best="$ms"; fi
done
echo "type-checking 50 feedback loops: ${best} ms (best of $runs)"

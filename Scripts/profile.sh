#!/usr/bin/env bash
# Counts the instructions each benchmark scenario costs per operation, exactly, with callgrind.
#
# Each scenario runs twice under `valgrind --tool=callgrind`, for N and for 2N operations, in
# the `ProfileScenario` tool of the Benchmarks package (release build); the difference of the
# two totals, divided by N, is the cost of one operation with start-up, set-up and tear-down
# cancelled out. Callgrind counts instructions, not time, so the figure is the same on a busy
# machine as on an idle one: the same binary gives the same count. (Hashing is made
# deterministic with SWIFT_DETERMINISTIC_HASHING, or dictionary probes would vary per run.)
#
# Usage:
#   Scripts/profile.sh                         counter, synchronous round trip, creation
#   Scripts/profile.sh counter-1 keyed=40      the named scenarios, optionally with their N
#   Scripts/profile.sh --all                   every scenario the gate checks
#   Scripts/profile.sh journal journal-file    what a journal costs per step (in memory: gated)
#   Scripts/profile.sh --annotate counter-1    ...and each scenario's top costs per operation
#   Scripts/profile.sh --list                  the scenarios and their default N
#
# Options:
#   --annotate     after each scenario, the functions that cost the most per operation: the
#                  difference of the two runs' profiles, function by function, divided by N
#   --inclusive    annotate with inclusive costs (a function and what it calls)
#   --top K        annotation rows (default 25)
#   --no-build     use the ProfileScenario binary already built
#
# Output, on stdout, tab-separated: scenario, instructions per operation, N. The tool's build
# output and callgrind's files go to Benchmarks/.build/profile/.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench="$repo/Benchmarks"
work="$bench/.build/profile"

# The default N of each scenario: large enough that one operation's cost dominates any
# per-run noise, small enough that a run under callgrind takes seconds.
declare -A default_count=(
  [raw]=100000 [counter-1]=20000 [counter-10]=10000 [large-pure]=10000 [large-inout]=10000
  [large-equatable]=2000
  [feedbacks-10]=10000 [feedbacks-100]=2000 [feedbacks-100-detailed]=2000 [round-trip-immediate]=10000
  [round-trip-async]=2000 [round-trip-async-background]=2000 [keyed]=20000 [keyed-dictionary]=20 [create]=10000 [composed-10]=10000
  [composed-100]=5000 [composed-1000]=1000 [stack-20]=5000 [stack-100]=2000 [stack-push-pop]=2000 [destination]=5000
  [fanout-set-1000]=2000 [fanout-requestset-1000]=2000 [journal]=10000 [journal-file]=5000
  [hand-counter-1]=20000 [hand-counter-10]=10000 [hand-large]=10000
  [hand-feedbacks-100]=2000 [hand-round-trip-immediate]=10000 [hand-round-trip-async]=2000
  [hand-keyed]=20 [hand-create]=10000 [hand-composed-10]=10000 [hand-composed-100]=5000
  [hand-composed-1000]=1000 [hand-fanout-set-1000]=2000 [hand-stack-20]=5000 [hand-stack-100]=2000
  [hand-destination]=5000 [hand-journal]=10000
)
# What `--all` (and the gate in `Scripts/bench.sh --check`) measures: the library's scenarios.
# Not the async round trips: valgrind 3.19 dies (SIGSEGV inside valgrind itself, with any tool)
# when the concurrency runtime starts its first worker thread, so they cannot be counted here.
all=(counter-1 counter-10 large-pure large-inout large-equatable feedbacks-10 feedbacks-100
  feedbacks-100-detailed round-trip-immediate keyed keyed-dictionary create composed-10
  composed-100 composed-1000 stack-20 stack-100 stack-push-pop destination fanout-set-1000
  fanout-requestset-1000 journal)

annotate=false
inclusive=no
top=25
build=true
requested=()
while (($#)); do
  case "$1" in
    --annotate) annotate=true ;;
    --inclusive) inclusive=yes ;;
    --top) shift; top=$1 ;;
    --no-build) build=false ;;
    --all) requested+=("${all[@]}") ;;
    --list)
      for name in $(printf '%s\n' "${!default_count[@]}" | sort); do
        printf '%s\t%s\n' "$name" "${default_count[$name]}"
      done
      exit 0
      ;;
    -h | --help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "profile.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    *) requested+=("$1") ;;
  esac
  shift
done
((${#requested[@]})) || requested=(counter-1 round-trip-immediate create)

command -v valgrind >/dev/null || { echo "profile.sh: valgrind is not installed" >&2; exit 69; }
mkdir -p "$work"
if $build; then
  echo "profile.sh: building ProfileScenario (release); log in Benchmarks/.build/profile/build.log" >&2
  if ! swift build --package-path "$bench" -c release --product ProfileScenario \
    >"$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log" >&2
    exit 1
  fi
fi
binary="$bench/.build/release/ProfileScenario"
[ -x "$binary" ] || { echo "profile.sh: $binary is missing; run without --no-build" >&2; exit 1; }

# Runs a scenario under callgrind; prints the output file's path.
run() {
  local name=$1 count=$2
  local out="$work/callgrind.$name.$count.out"
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$binary" "$name" "$count" >"$work/valgrind.$name.$count.log" 2>&1 || {
    tail -n 20 "$work/valgrind.$name.$count.log" >&2
    echo "profile.sh: callgrind failed on $name $count" >&2
    return 1
  }
  echo "$out"
}

total() { sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$1" | head -n 1; }

status=0
for item in "${requested[@]}"; do
  name=${item%%=*}
  if [[ -z ${default_count[$name]+set} ]]; then
    echo "profile.sh: unknown scenario $name (see --list)" >&2
    exit 64
  fi
  count=${default_count[$name]}
  [[ $item == *=* ]] && count=${item#*=}
  echo "profile.sh: $name: $count and $((2 * count)) operations under callgrind" >&2
  if ! single=$(run "$name" "$count") || ! double=$(run "$name" $((2 * count))); then
    status=1
    continue
  fi
  python3 -c 'import sys; a, b, n = map(int, sys.argv[1:4]); print(f"{sys.argv[4]}\t{(b - a) / n:.1f}\t{n}")' \
    "$(total "$single")" "$(total "$double")" "$count" "$name"
  if $annotate; then
    python3 - "$single" "$double" "$count" "$inclusive" "$top" <<'PYTHON' | swift demangle --simplified
"""Prints the functions that cost the most per operation: the two runs' profiles subtracted."""
import re
import subprocess
import sys

single, double, count, inclusive, top = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
LINE = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?)\s*$")


def costs(path):
    text = subprocess.run(
        ["callgrind_annotate", f"--inclusive={inclusive}", "--threshold=100", "--auto=no", path],
        capture_output=True, text=True, check=True).stdout
    result, started = {}, False
    for line in text.splitlines():
        if re.search(r"file:function", line):
            started = True
            continue
        if started and not line.strip() and result:
            break  # the end of the function table
        match = LINE.match(line) if started else None
        if match:
            # Keep the function and its object file; drop the source file, often `???`.
            function = re.sub(r"^[^:]*:", "", match.group(2), count=1)
            result[function] = result.get(function, 0) + int(match.group(1).replace(",", ""))
    return result


first, second = costs(single), costs(double)
per_operation = {name: (second.get(name, 0) - first.get(name, 0)) / count
                 for name in set(first) | set(second)}
whole = sum(per_operation.values()) if inclusive == "no" else None
rows = sorted(per_operation.items(), key=lambda item: -item[1])[:top]
kind = "inclusive" if inclusive == "yes" else "self"
print(f"  {kind} instructions per operation, by function:")
for name, value in rows:
    if abs(value) < 0.5:
        continue
    share = f"{100 * value / whole:5.1f} %" if whole else ""
    print(f"  {value:10.1f}  {share:>7}  {name}")
PYTHON
  fi
done
exit $status

#!/usr/bin/env bash
# Runs the ArchitectureKit benchmarks (package-benchmark, release build) and prints one summary
# table, or checks the deterministic metrics against the thresholds of this toolchain.
#
# A run prints one line per library benchmark, tab-separated:
#
#   name  median  unit  ×raw  hand-rolled  ×hand-rolled  allocations/op  hand-rolled allocations/op
#
# The median is per operation (event, round trip, created system): package-benchmark records
# each iteration, which performs the benchmark's scaling factor of operations (or N operations
# when the benchmark's name ends in `-xN`), and this script divides. "×raw" divides by the
# median of the "raw-reducer-loop" baseline; "hand-rolled" is the median of the benchmark of the
# same name in `HandRolledBenchmarks` (the same scenario on a store written by hand), from the
# same run, and "×hand-rolled" the ratio to it. The bytes allocated per created system get a
# line of their own. Wall-clock figures on a shared machine are noisy: for exact costs, count
# instructions with `Scripts/profile.sh`.
#
# Usage:
#   Scripts/bench.sh                       run everything, print the table
#   Scripts/bench.sh --check               check the deterministic metrics (below); no timing
#   Scripts/bench.sh --update-thresholds   measure them and write them as this toolchain's
#   Scripts/bench.sh -- --filter 'counter.*'   pass options on to `swift package benchmark`
#
# The deterministic metrics, per toolchain in Benchmarks/Thresholds/<swift version>/:
#   - allocations: the p90 of `mallocCountTotal` per iteration of every System and TestSystem
#     benchmark (`<target>.<name>.p90.json`, checked by package-benchmark with the tolerances of
#     `Benchmark.Configuration.architectureKit`: a tenth of an allocation per operation for the
#     benchmarks that must not allocate, half an allocation per operation for the others);
#   - instructions: callgrind's exact instructions per operation of the library's scenarios
#     (`instructions.json`, from `Scripts/profile.sh --all`), within 2 % either way.
# Improvements beyond the tolerance fail too: update the thresholds in the commit that brings
# them, so that the slack cannot hide a later regression.
#
# Benchmark names carry no spaces: package-benchmark 1.38.1 writes static threshold files with
# spaces turned into underscores but looks them up with the spaces kept.
#
# The tool's own output goes to Benchmarks/.build/bench.log; the table alone goes to stdout.
# Exit status: 0; 1 when the run fails, or when --check finds a deviation from the thresholds;
# 2 when this toolchain has no thresholds.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench="$repo/Benchmarks"
baseline=current # its files, in Benchmarks/.benchmarkBaselines/, are git-ignored
action=run
passthrough=()
while (($#)); do
  case "$1" in
    --check) action=check ;;
    --update-thresholds) action=update ;;
    --) shift; passthrough=("$@"); break ;;
    -h | --help) sed -n '2,/^set -e/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
  esac
  shift
done

cd "$bench"
mkdir -p .build
log=.build/bench.log
benchmark() {
  swift package --allow-writing-to-package-directory benchmark "$@" --no-progress \
    ${passthrough[@]+"${passthrough[@]}"}
}

# Reads package-benchmark's baseline files: prints `target<TAB>name<TAB>metric<TAB>median per
# operation` for every benchmark and metric of a baseline.
medians() {
  python3 - "$1" <<'PYTHON'
"""The median per operation of each benchmark and metric of a baseline.

Each `.benchmarkBaselines/<target>/<baseline>/results.json` holds, per benchmark and metric,
the scaling factor and an HdrHistogram of the per-iteration values; the median is
read off the histogram exactly as package-benchmark (hdrhistogram-swift) reads it.
"""
import glob
import json
import math
import re
import sys

BASELINE = sys.argv[1]
OPERATIONS = re.compile(r"-x(\d+)$")  # a name ending in -xN: N operations per iteration


def value_at_percentile(histogram, percentile):
    """hdrhistogram-swift's valueAtPercentile, on the Codable form of a Histogram."""
    counts = histogram["counts"]
    total = sum(counts)
    if total == 0:
        return 0
    half_magnitude = histogram["subBucketHalfCountMagnitude"]
    unit_magnitude = histogram["unitMagnitude"]
    half_count = 1 << half_magnitude
    sub_bucket_count = 1 << (half_magnitude + 1)
    sub_bucket_mask = histogram["subBucketMask"]
    leading_zero_base = histogram["leadingZeroCountBase"]

    def value_from_index(index):
        bucket = (index >> half_magnitude) - 1
        sub_bucket = (index & (half_count - 1)) + half_count
        if bucket < 0:
            sub_bucket -= half_count
            bucket = 0
        return sub_bucket << (bucket + unit_magnitude)

    def highest_equivalent(value):
        bucket = leading_zero_base - (64 - (value | sub_bucket_mask).bit_length())
        sub_bucket = value >> (bucket + unit_magnitude)
        lowest = sub_bucket << (bucket + unit_magnitude)
        size = 1 << (unit_magnitude + (bucket + 1 if sub_bucket >= sub_bucket_count else bucket))
        return lowest + size - 1

    wanted = max(1, math.ceil(math.nextafter(percentile, 0) * total / 100))
    running = 0
    for index, count in enumerate(counts):
        running += count
        if running >= wanted:
            minimum = 0 if counts[0] > 0 else histogram["minNonZeroValue"]
            value = highest_equivalent(value_from_index(index))
            return max(min(value, histogram["maxValue"]), minimum)
    return 0



def metric_name(metric):
    return next(iter(metric)) if isinstance(metric, dict) else str(metric)


found = False
for path in sorted(glob.glob(f".benchmarkBaselines/*/{BASELINE}/results.json")):
    with open(path) as file:
        results = json.load(file)["results"]
    # Encoded as [key, value, key, value, ...]: a dictionary keyed by a non-String type.
    for key, metrics in zip(results[0::2], results[1::2]):
        explicit = OPERATIONS.search(key["name"])
        for result in metrics:
            operations = int(explicit.group(1)) if explicit else result["scalingFactor"]
            median = value_at_percentile(result["statistics"]["histogram"], 50.0) / operations
            print(f"{key['target']}\t{key['name']}\t{metric_name(result['metric'])}\t{median}")
            found = True
if not found:
    sys.exit("bench.sh: no results found in .benchmarkBaselines/*/%s" % BASELINE)
PYTHON
}

# Runs the benchmarks into a fresh baseline: stale results of a benchmark that no longer exists
# must not linger.
run_baseline() {
  local name=$1
  shift
  rm -rf .benchmarkBaselines/*/"$name"
  if ! benchmark baseline update "$name" "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "bench.sh: the benchmark run failed; see Benchmarks/$log" >&2
    exit 1
  fi
}

if [ "$action" = run ]; then
  echo "bench.sh: building and running the benchmarks (release); log in Benchmarks/$log" >&2
  run_baseline "$baseline"
  medians "$baseline" >.build/medians.tsv
  python3 - .build/medians.tsv <<'PYTHON'
"""Prints the table: each library benchmark beside the raw loop and its hand-rolled baseline."""
import math
import re
import sys

RAW = "raw-reducer-loop"  # the baseline of the "x raw" column
HAND = "HandRolledBenchmarks"  # the target of the hand-rolled baselines, named as the library's
# Library benchmarks whose hand-rolled baseline has another name.
BASELINE_OF = {
    "100k-array-send-pure-reducer": "100k-array-send-inout-reducer",
    "10000-keyed-requests-1-changing-dictionary": "10000-keyed-requests-1-changing",
}
MEMORY = re.compile(r"^create-")  # benchmarks whose allocated bytes get a line of their own

rows = {}
with open(sys.argv[1]) as file:
    for line in file:
        target, name, metric, value = line.rstrip("\n").split("\t")
        rows.setdefault((target, name), {})[metric] = float(value)
raw = next((m["wallClock"] for (_, name), m in rows.items() if name == RAW), None)


def time_with_unit(nanoseconds):
    for limit, divisor, unit in ((1e4, 1, "ns"), (1e7, 1e3, "µs"), (math.inf, 1e6, "ms")):
        if nanoseconds < limit:
            value = nanoseconds / divisor
            digits = 2 if value < 10 else 1 if value < 100 else 0
            return f"{value:.{digits}f} {unit}"


def ratio(value, base):
    if not base:
        return "-"
    value = value / base
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:,.0f}"


def count(medians, metric):
    value = medians.get(metric) if medians else None
    return "-" if value is None else f"{value:.2f}"


library = sorted((key for key in rows if key[0] != HAND),
                 key=lambda key: (not key[1].startswith(RAW), key[0], key[1]))
print("name\tmedian\tx raw\thand-rolled\tx hand-rolled\tallocations/op\thand-rolled allocations/op")
for target, name in library:
    medians = rows[(target, name)]
    hand = rows.get((HAND, BASELINE_OF.get(name, name)))
    if "wallClock" in medians:
        time = medians["wallClock"]
        hand_time = hand.get("wallClock") if hand else None
        print("\t".join([
            name, time_with_unit(time), ratio(time, raw),
            time_with_unit(hand_time) if hand_time else "-", ratio(time, hand_time),
            count(medians, "mallocCountTotal"), count(hand, "mallocCountTotal")]))
    if MEMORY.search(name) and "mallocBytesCount" in medians:
        bytes, hand_bytes = medians["mallocBytesCount"], (hand or {}).get("mallocBytesCount")
        print("\t".join([
            f"{name} (memory)", f"{bytes:.0f} bytes", "-",
            f"{hand_bytes:.0f} bytes" if hand_bytes else "-", ratio(bytes, hand_bytes),
            count(medians, "mallocCountTotal"), count(hand, "mallocCountTotal")]))
PYTHON
  exit 0
fi

# --check and --update-thresholds: deterministic metrics only, against this toolchain's files.
version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)
thresholds="$bench/Thresholds/$version"
instructions="$thresholds/instructions.json"
if [ "$action" = check ] && [ ! -f "$instructions" ]; then
  echo "bench.sh: no thresholds for Swift $version in Benchmarks/Thresholds/$version;" \
    "record them with Scripts/bench.sh --update-thresholds on the reference machine" >&2
  exit 2
fi
mkdir -p "$thresholds"
failed=0

# Allocations: a short run of the library's benchmarks that measures nothing else.
export ARCHITECTUREKIT_BENCH_GATE=1
echo "bench.sh: counting allocations (release build); log in Benchmarks/$log" >&2
run_baseline gate --target SystemBenchmarks --target TestSystemBenchmarks
echo "allocations per operation (p50; the check compares the p90 per iteration)"
medians gate | awk -F '\t' '$3 == "mallocCountTotal" { printf "  %s\t%.2f\n", $2, $4 }'
if [ "$action" = check ]; then
  if benchmark thresholds check gate --path "$thresholds" >>"$log" 2>&1; then
    echo "bench.sh: allocations within the thresholds of Swift $version" >&2
  else
    grep -E -A3 'Deviations|regress|improv|Could not|fail' "$log" >&2 || tail -n 20 "$log" >&2
    echo "bench.sh: allocations deviate from Benchmarks/Thresholds/$version" >&2
    failed=1
  fi
else
  rm -f "$thresholds"/*.p90.json
  benchmark thresholds update gate --path "$thresholds" >>"$log" 2>&1
  echo "bench.sh: wrote the allocation thresholds to Benchmarks/Thresholds/$version" >&2
fi

# Instructions: callgrind's exact counts per operation.
measured="$bench/.build/profile/instructions.tsv"
mkdir -p "$(dirname "$measured")" # a fresh clone has no profile folder yet
"$repo/Scripts/profile.sh" --all >"$measured"
python3 - "$action" "$measured" "$instructions" <<'PYTHON' || failed=1
"""Compares the instructions per operation with the thresholds, or writes them."""
import json
import sys

action, measured_path, thresholds_path = sys.argv[1:]
TOLERANCE = 2.0  # percent, either way
measured = {}
with open(measured_path) as file:
    for line in file:
        name, value, _ = line.split("\t")
        measured[name] = float(value)
if action == "update":
    with open(thresholds_path, "w") as file:
        json.dump({name: round(value) for name, value in sorted(measured.items())}, file, indent=2)
        file.write("\n")
    print("instructions per operation (written as the thresholds)")
    for name, value in sorted(measured.items()):
        print(f"  {name}\t{value:,.0f}")
    sys.exit(0)
with open(thresholds_path) as file:
    expected = json.load(file)
failures = 0
print(f"instructions per operation (threshold, tolerance {TOLERANCE:g} %)")
for name in sorted(set(measured) | set(expected)):
    value, limit = measured.get(name), expected.get(name)
    if value is None or limit is None:
        verdict = "not measured" if value is None else "no threshold"
        failures += 1
    else:
        change = 100 * (value - limit) / limit
        verdict = "ok" if abs(change) <= TOLERANCE else "REGRESSION" if change > 0 else "IMPROVED"
        failures += verdict != "ok"
        verdict = f"{verdict} ({change:+.1f} %)"
    shown = "-" if value is None else f"{value:,.0f}"
    print(f"  {name}\t{shown}\t{'-' if limit is None else f'{limit:,}'}\t{verdict}")
if failures:
    print("bench.sh: instruction counts deviate from the thresholds; if intended, run "
          "Scripts/bench.sh --update-thresholds and commit the result", file=sys.stderr)
sys.exit(1 if failures else 0)
PYTHON
exit $failed

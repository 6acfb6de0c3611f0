#!/usr/bin/env bash
# Runs the ArchitectureKit benchmarks (package-benchmark, release build) and prints one summary
# table: one line per benchmark, tab-separated:
#
#   name  median  unit  ratio-to-raw  allocations-per-operation
#
# The median is per operation (event, round trip, created system): package-benchmark records
# each iteration, which performs the benchmark's scaling factor of operations (or N operations
# when the benchmark's name ends in `-xN`), and this script divides. "ratio to raw" divides by
# the median of the "raw-reducer-loop" baseline. The bytes allocated per created system get a
# line of their own.
#
# Usage:
#   Scripts/bench.sh                       run everything, print the table
#   Scripts/bench.sh --check               ...then check the run against Benchmarks/Thresholds
#   Scripts/bench.sh --update-thresholds   ...then write the run as the new Benchmarks/Thresholds
#   Scripts/bench.sh -- --filter 'counter.*'   pass options on to `swift package benchmark`
#
# Benchmark names carry no spaces: package-benchmark 1.38.1 writes static threshold files with
# spaces turned into underscores but looks them up with the spaces kept.
#
# The tool's own output goes to Benchmarks/.build/bench.log; the table alone goes to stdout.
# Exit status: 0; 1 when the run fails, or when --check finds a deviation from the thresholds
# either way (package-benchmark also fails on improvements: update the thresholds then).
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

# A fresh baseline each run: stale results of a benchmark that no longer exists must not linger.
rm -rf .benchmarkBaselines/*/"$baseline"
echo "bench.sh: building and running the benchmarks (release); log in Benchmarks/$log" >&2
if ! benchmark baseline update "$baseline" >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "bench.sh: the benchmark run failed; see Benchmarks/$log" >&2
  exit 1
fi

python3 - "$baseline" <<'PYTHON'
"""Prints the summary table from package-benchmark's baseline files.

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
RAW = "raw-reducer-loop"  # the baseline every ratio is taken against
MEMORY = re.compile(r"^create-")  # benchmarks whose allocated bytes get a line of their own
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


rows = {}
for path in sorted(glob.glob(f".benchmarkBaselines/*/{BASELINE}/results.json")):
    with open(path) as file:
        results = json.load(file)["results"]
    # Encoded as [key, value, key, value, ...]: a dictionary keyed by a non-String type.
    for key, metrics in zip(results[0::2], results[1::2]):
        medians = {}
        explicit = OPERATIONS.search(key["name"])
        for result in metrics:
            operations = int(explicit.group(1)) if explicit else result["scalingFactor"]
            histogram = result["statistics"]["histogram"]
            median = value_at_percentile(histogram, 50.0) / operations
            medians[metric_name(result["metric"])] = median
        rows[(key["target"], key["name"])] = medians

if not rows:
    sys.exit("bench.sh: no results found in .benchmarkBaselines/*/%s" % BASELINE)

raw = next((m["wallClock"] for (_, name), m in rows.items() if name == RAW), None)


def time_with_unit(nanoseconds):
    for limit, divisor, unit in ((1e4, 1, "ns"), (1e7, 1e3, "µs"), (math.inf, 1e6, "ms")):
        if nanoseconds < limit:
            value = nanoseconds / divisor
            digits = 2 if value < 10 else 1 if value < 100 else 0
            return f"{value:.{digits}f}", unit


def ratio(nanoseconds):
    if not raw:
        return "-"
    value = nanoseconds / raw
    return f"{value:.1f}" if value < 100 else f"{value:,.0f}"


# The raw baselines first, then the rest by target and name.
order = sorted(rows, key=lambda key: (not key[1].startswith(RAW), key[0], key[1]))
print("name\tmedian\tunit\tratio to raw\tallocations per operation")
for target, name in order:
    medians = rows[(target, name)]
    allocations = medians.get("mallocCountTotal")
    allocations_text = "-" if allocations is None else f"{allocations:.2f}"
    if "wallClock" in medians:
        median, unit = time_with_unit(medians["wallClock"])
        print(f"{name}\t{median}\t{unit}\t{ratio(medians['wallClock'])}\t{allocations_text}")
    if MEMORY.search(name) and "mallocBytesCount" in medians:
        print(f"{name} (memory)\t{medians['mallocBytesCount']:.0f}\tbytes\t-\t{allocations_text}")
PYTHON

case "$action" in
  check)
    echo "bench.sh: checking the run against Benchmarks/Thresholds" >&2
    benchmark thresholds check "$baseline" >&2
    ;;
  update)
    echo "bench.sh: writing Benchmarks/Thresholds from the run" >&2
    benchmark thresholds update "$baseline" >&2
    ;;
esac

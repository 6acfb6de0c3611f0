#!/usr/bin/env bash
# Runs a command with a time limit, so that a test that never ends fails the run instead of
# hanging it: past the limit, every process the command started is stopped, and the tests that
# started and never ended are named.
#
# Usage:
#   Scripts/bounded.sh SECONDS COMMAND [ARGUMENT...]
#
# The command runs in a session of its own (setsid), so the limit reaches all of its processes:
# `swift test` runs the tests in a child process of its own, which outlives `swift test` when
# only `swift test` is stopped (as `timeout` does). Past the limit: SIGTERM to the session, then
# SIGKILL 10 seconds later; the exit status is then 124, as `timeout`'s. Otherwise it is the
# command's.
#
# What the command prints goes to stdout and stderr as usual, and is also kept aside to name,
# past the limit, the tests that printed "started" and never "passed", "failed" or "skipped"
# (Swift Testing's and XCTest's lines).
set -euo pipefail

if [ "$#" -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SECONDS COMMAND [ARGUMENT...]" >&2
  exit 64
fi
limit=$1
shift

output="$(mktemp)"
trap 'rm -f "$output"' EXIT

# The session's leader is the command itself (`setsid` and `stdbuf` exec it), so its process ID
# is the session's ID. The output goes through `tee` to be kept aside; the exit status is the
# command's. Its processes write each line as they print it (`stdbuf`, inherited by the test
# process): written to a pipe, the output would otherwise wait in a buffer that a stopped
# process never writes, and the tests that hang would print nothing.
line_buffered=()
if command -v stdbuf >/dev/null; then line_buffered=(stdbuf -oL -eL); fi
setsid "${line_buffered[@]}" "$@" > >(tee -a "$output") 2> >(tee -a "$output" >&2) &
leader=$!

# Checks every second, so a command that ends quickly does not wait for the limit.
elapsed=0
while kill -0 "$leader" 2>/dev/null && [ "$elapsed" -lt "$limit" ]; do
  sleep 1
  elapsed=$((elapsed + 1))
done

if ! kill -0 "$leader" 2>/dev/null; then
  status=0
  wait "$leader" || status=$?
  exit "$status"
fi

{
  printf '\nbounded.sh: "%s" ran past its limit of %s seconds: stopping it.\n' "$*" "$limit"
  # Swift Testing: "◇ Test name() started." then "✔ Test name() passed…" (or failed, skipped).
  # XCTest: "Test Case 'Suite.name' started…" then "Test Case 'Suite.name' passed…".
  unfinished=$(
    LC_ALL=C.UTF-8 awk '
      match($0, /Test (Case )?.* started/) {
        name = substr($0, RSTART, RLENGTH - length(" started")); open[name] = 1; next
      }
      match($0, /Test (Case )?.* (passed|failed|skipped)/) {
        line = substr($0, RSTART, RLENGTH)
        for (name in open) if (index(line, name " ") == 1) delete open[name]
      }
      END { for (name in open) if (name != "Test run") print "  " name }
    ' "$output" | sort
  )
  if [ -n "$unfinished" ]; then
    echo "bounded.sh: these tests started and never ended:"
    echo "$unfinished"
  fi
} >&2

pkill -TERM -s "$leader" 2>/dev/null || true
for _ in $(seq 10); do
  pgrep -s "$leader" >/dev/null || break
  sleep 1
done
pkill -KILL -s "$leader" 2>/dev/null || true
wait "$leader" 2>/dev/null || true
exit 124

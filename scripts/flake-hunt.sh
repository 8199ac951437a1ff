#!/usr/bin/env bash
# Runs the whole suite N times (default 5), each run beside two processes that keep both
# cores busy, and prints every test that failed at least once with its count.
#   bash scripts/flake-hunt.sh 5
# Builds once as scripts/test.sh does, and the fuzzers; on a clone whose suite never ran, a
# first unloaded run makes the fixtures. Each run's output is kept in .cache/flake-hunt/.
# Exits non-zero when any run failed. Not part of the default run: it takes N suite runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
runs=${1:-5}
logs=.cache/flake-hunt
mkdir -p "$logs"
rm -f "$logs"/run-*.log

bash scripts/setup.sh
bash scripts/build-tests.sh
# The fuzzers too: built in the first run, beside the real-time chain and two busy loops,
# their cold build starved the chain past its 20-minute limit.
bash scripts/fuzz.sh
# A clone whose suite never ran to its end makes its fixtures (ffmpeg encodes, a few of
# minutes) as tests first ask for them: one unloaded run makes them first, as CI's run did
# on the clones earlier hunts used. It is not counted.
if [ ! -e .cache/suite-ran ]; then
  echo "flake-hunt: a first run without load (not counted) makes the suite's fixtures"
  bash scripts/lib/run-suite.sh >"$logs/warm-up.log" 2>&1 || echo "flake-hunt: that run failed (see $logs/warm-up.log); the hunt goes on"
fi

load=()
# A load process that is already gone must not end the hunt under set -e.
stop_load() { ((${#load[@]} == 0)) || kill "${load[@]}" 2>/dev/null || true; load=(); }
trap stop_load EXIT

failed_runs=0
for ((run = 1; run <= runs; run++)); do
  for _ in 1 2; do sh -c 'while :; do :; done' & load+=($!); done
  start=$(date +%s)
  status=0
  bash scripts/lib/run-suite.sh >"$logs/run-$run.log" 2>&1 || status=$?
  stop_load
  summary=$(grep -aE "Test run with [0-9]+ tests?" "$logs/run-$run.log" | sed -E 's/.*(Test run with)/\1/' | paste -sd';' || true)
  echo "flake-hunt: run $run/$runs: exit $status in $(($(date +%s) - start)) s; ${summary:-no summary line (the test process died?)}"
  if ((status != 0)); then failed_runs=$((failed_runs + 1)); fi
done

# Swift Testing: "✘ Test name() failed after 1.2 seconds with 1 issue."; XCTest: "Test Case '…' failed".
failures=$(cat "$logs"/run-*.log | grep -aoE "Test [^ ]+.* failed after [0-9.]+ seconds|Test Case '[^']+' failed" \
  | sed -E "s/ failed after [0-9.]+ seconds//; s/^Test Case '([^']+)' failed/\1/; s/^Test //" | sort | uniq -c | sort -rn || true)
if [ -n "$failures" ]; then
  echo "flake-hunt: tests that failed (count over $runs runs):"
  echo "$failures"
  echo "flake-hunt: where: grep -n 'recorded an issue' $logs/run-*.log"
fi
echo "flake-hunt: $((runs - failed_runs)) of $runs runs passed"
((failed_runs == 0))

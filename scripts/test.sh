#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. Tests build optimised
# (with testing enabled for @testable imports): pixel work in unoptimised Swift runs some
# hundred times slower, and the tests compare whole videos with ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
# Each phase's seconds since the start, for reading where a CI run's time went.
phase() { echo "test.sh: $1 at $SECONDS s"; }
bash scripts/setup.sh
phase "set up"
bash scripts/build-tests.sh
phase "built"
# The products' boundaries and layers, from the manifest in seconds (scripts/check-products.sh
# builds each product alone, in minutes, outside this run); the self-test breaks each rule.
manifest=$(swift package dump-package)
python3 scripts/check-boundaries.py <<<"$manifest"
python3 scripts/check-boundaries.py --self-test <<<"$manifest"
# The libFuzzer targets are built by scripts/lib/run-suite.sh beside the real-time tests,
# not beside the test build (tried at nice 10 on a fresh clone: the two builds slowed each
# other and ended 38 s later).
# The DocC catalogs, which fail on any warning: beside the tests at a lower priority too,
# since no test needs them.
docs_log=$(mktemp)
REEL_DOCS_SKIP_BUILD=1 nice -n 5 bash scripts/docs.sh >"$docs_log" 2>&1 &
docs=$!
# GStreamer scans every plug-in the first time it starts on a machine: here, not in the
# middle of timed tests.
gst-inspect-1.0 >/dev/null 2>&1 || true
# The suites run in parallel, so a failure can sit thousands of lines above the end: the
# failing tests and their issues are printed again last, where a log's tail shows them.
log=$(mktemp)
trap 'rm -f "$log" "$docs_log"' EXIT
status=0
bash scripts/lib/run-suite.sh "$@" 2>&1 | tee "$log" || status=$?
phase "tested"
docs_status=0
wait "$docs" || docs_status=$?
echo "test.sh: the documentation (scripts/docs.sh), built beside the tests:"
cat "$docs_log"
phase "documented"
if ((docs_status != 0)); then
  echo "test.sh: scripts/docs.sh failed (exit $docs_status)"
  ((status != 0)) || status=$docs_status
fi
if ((status != 0)); then
  echo "test.sh: the suite failed (exit $status); its failures again:"
  grep -aE "✘|recorded an issue|Test Case '[^']+' failed|error: |Fatal error|Crash" "$log" | grep -av "^✘ Test run with" | tail -60 || true
fi
exit "$status"

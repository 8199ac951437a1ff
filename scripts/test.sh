#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. Tests build optimised
# (with testing enabled for @testable imports): pixel work in unoptimised Swift runs some
# hundred times slower, and the tests compare whole videos with ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
# The libFuzzer targets the suite runs (a package of their own) build beside the tests'
# build, at a low priority: that build spends minutes on one module, the integration
# tests, with the other core idle. Both packages resolve first, one after the other, so
# that no two SwiftPM processes fill the shared package cache at once.
swift package resolve >/dev/null
swift package --package-path Fuzz resolve >/dev/null
fuzz_log=$(mktemp)
nice -n 10 bash scripts/fuzz.sh >"$fuzz_log" 2>&1 &
fuzz=$!
trap 'pkill -P "$fuzz" 2>/dev/null; kill "$fuzz" 2>/dev/null; rm -f "$fuzz_log"' EXIT
bash scripts/build-tests.sh
fuzz_status=0
wait "$fuzz" || fuzz_status=$?
cat "$fuzz_log"
if ((fuzz_status != 0)); then echo "test.sh: the fuzz targets did not build (exit $fuzz_status)"; exit "$fuzz_status"; fi
bash scripts/docs.sh   # the DocC catalogs, which fail on any warning
# GStreamer scans every plug-in the first time it starts on a machine: here, not in the
# middle of timed tests.
gst-inspect-1.0 >/dev/null 2>&1 || true
# The suites run in parallel, so a failure can sit thousands of lines above the end: the
# failing tests and their issues are printed again last, where a log's tail shows them.
log=$(mktemp)
trap 'rm -f "$fuzz_log" "$log"' EXIT
status=0
bash scripts/lib/run-suite.sh "$@" 2>&1 | tee "$log" || status=$?
if ((status != 0)); then
  echo "test.sh: the suite failed (exit $status); its failures again:"
  grep -aE "✘|recorded an issue|Test Case '[^']+' failed|error: |Fatal error|Crash" "$log" | grep -av "^✘ Test run with" | tail -60 || true
fi
exit "$status"

#!/usr/bin/env bash
# Runs the tests matching FILTER (built as scripts/build-tests.sh builds them, after the
# setup) and prints their lines that start with PREFIX: the figures a benchmark script
# takes from tests that measure. On a failure, the failures too, and a non-zero exit.
#   bash scripts/lib/test-figures.sh NAME FILTER PREFIX
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin" NO_COLOR=1
name=$1 filter=$2 prefix=$3
bash scripts/setup.sh >/dev/null
bash scripts/build-tests.sh >/dev/null 2>&1
bundle="$(swift build -c release --show-bin-path)/ReelPackageTests.xctest"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$bundle" --testing-library swift-testing --filter "$filter" >"$log" 2>&1 || status=$?
grep -a "^$prefix" "$log" || true
if ((status != 0)); then
  grep -aE "recorded an issue|failed after" "$log" || true
  echo "$name: a measured test failed its checks (exit $status)"
fi
exit "$status"

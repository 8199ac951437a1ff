#!/usr/bin/env bash
# The reconnect table: each server taken away and brought back CYCLES times (default 5)
# while `reel play` plays it (nginx-rtmp killed, gst-rtsp-server killed for each of its
# transports, an SRT listener stopped); from the stream's return to the first picture
# on screen, each cycle and the median, and the player's threads and descriptors after the
# first and the last cycle. The cycles are the reconnect tests' own, run with more of them.
#   CYCLES=5 bash scripts/bench-reconnect.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh >/dev/null
bash scripts/build-tests.sh >/dev/null 2>&1
export REEL_RECONNECT_CYCLES=${CYCLES:-5} NO_COLOR=1
bundle="$(swift build -c release --show-bin-path)/ReelPackageTests.xctest"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$bundle" --testing-library swift-testing \
  --filter 'nginxKilledFiveTimes|aServerKilledAndStartedAgainIsPlayedAgain|aSenderThatRestartsIsCalledAgain' >"$log" 2>&1 || status=$?
grep -a "^reconnect " "$log" || true
if ((status != 0)); then
  grep -aE "recorded an issue|failed after" "$log" || true
  echo "bench-reconnect: a reconnect test failed (exit $status)"
fi
exit "$status"

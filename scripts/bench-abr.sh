#!/usr/bin/env bash
# Adaptive streaming under a sustained limit: the ladder (240p/480p/720p at 0.4/1.2/3
# Mbit/s, 2 s segments) played through a relay at about 5 Mbit/s until the first 720p
# picture, then held at 800 kbit/s for HOLD seconds (default 20) of wall time, then
# released; through GStreamer for HLS and DASH, and FFmpeg's row for HLS (it keeps the
# variant it opened: its stall says what that costs). Per row: how long the limit held,
# the time from the limit to the first lower picture and from the release to the first
# 720p one again, and the longest stall while limited and overall. These are the
# adaptive-streaming test's own runs, with the hold.
#   HOLD=20 bash scripts/bench-abr.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh >/dev/null
bash scripts/build-tests.sh >/dev/null 2>&1
export REEL_ABR_HOLD_SECONDS=${HOLD:-20} NO_COLOR=1
bundle="$(swift build -c release --show-bin-path)/ReelPackageTests.xctest"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$bundle" --testing-library swift-testing --filter 'theLadderFollowsTheBandwidth' >"$log" 2>&1 || status=$?
grep -a "^abr " "$log" || true
if ((status != 0)); then
  grep -aE "recorded an issue|failed after" "$log" || true
  echo "bench-abr: a row failed its checks (exit $status)"
fi
exit "$status"

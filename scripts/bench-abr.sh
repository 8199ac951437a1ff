#!/usr/bin/env bash
# Adaptive streaming under a sustained limit: the ladder (240p/480p/720p at 0.4/1.2/3
# Mbit/s, 2 s segments) played through a relay at about 5 Mbit/s until the first 720p
# picture, then held at 800 kbit/s for HOLD seconds (default 20) of wall time, then
# released; through GStreamer for HLS and DASH, and FFmpeg's row for HLS (it keeps the
# variant it opened: its stalls say what that costs). Per row: how long the limit held,
# the time from the limit to the first lower picture and from the release to the first
# 720p one again, and the stalls while limited. These are the adaptive-streaming test's
# own runs, with the hold.
#   HOLD=20 bash scripts/bench-abr.sh
export REEL_ABR_HOLD_SECONDS=${HOLD:-20}
exec bash "$(dirname "$0")/lib/test-figures.sh" bench-abr 'theLadderFollowsTheBandwidth' "abr "

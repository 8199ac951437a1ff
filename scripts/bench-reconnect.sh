#!/usr/bin/env bash
# The reconnect table: each server taken away and brought back CYCLES times (default 5)
# while `reel play` plays it (nginx-rtmp killed, gst-rtsp-server killed for each of its
# transports, an SRT listener that closes or is killed); from the stream's return to the
# first picture on screen, each cycle and the median, and the player's threads and
# descriptors after the first and the last cycle. The cycles are the reconnect tests'
# own, run with more of them.
#   CYCLES=5 bash scripts/bench-reconnect.sh
export REEL_RECONNECT_CYCLES=${CYCLES:-5}
exec bash "$(dirname "$0")/lib/test-figures.sh" bench-reconnect \
  'nginxKilledFiveTimes|aServerKilledAndStartedAgainIsPlayedAgain|aSenderThatRestartsIsCalledAgain' "reconnect "

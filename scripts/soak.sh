#!/usr/bin/env bash
# Soak: MINUTES (default 10) of Reel's long-running jobs side by side, each watched for leaks.
#   bash scripts/soak.sh [MINUTES] [CHART.png]
# At once: a headless player of a 720p file with a random play/pause/seek/rate/audio-track
# call every second; `reel rtp receive` of a 20 Mbit/s H.264 stream through a relay that
# drops 5 % of it; a VAP animation looping; a live camera encoded and sent as RTP
# (example-camera-rtp) to `reel play stream.sdp`. Every 10 s it samples each process's RSS,
# open descriptors and threads, then draws them (CHART, default .cache/soak/soak.png) and
# passes when, from the first minute to the end, RSS grew by at most 5 % and descriptors
# and threads did not grow (scripts/lib/soak_chart.py). A process that dies early fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
minutes=${1:-10}
seconds=$((minutes * 60))
cache=.cache/soak
chart=${2:-$cache/soak.png}
base_port=${SOAK_PORT:-27000}
fixtures=${REEL_FIXTURES:-../shared/fixtures}
bash scripts/setup.sh python3-matplotlib
for product in reel reel-bench example-camera-rtp; do swift build -c release --product "$product" >&2; done
bin=$(swift build -c release --show-bin-path)
mkdir -p "$cache"

# The inputs, made once: 60 s of 720p with two audio tracks (to switch between), and 60 s
# of noisy 720p at 20 Mbit/s (noise, so that the encoder really spends the bits).
player_clip=$cache/player-720p-two-audio.mp4
if [ ! -s "$player_clip" ]; then
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=60" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" -f lavfi -i "sine=frequency=880:sample_rate=48000:duration=60" \
    -map 0 -map 1 -map 2 -c:v libx264 -preset veryfast -g 60 -pix_fmt yuv420p -c:a aac "$player_clip.part.mp4"
  mv "$player_clip.part.mp4" "$player_clip"
fi
rtp_clip=$cache/noisy-720p-20mbit.mp4
if [ ! -s "$rtp_clip" ]; then
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=60,noise=alls=24:allf=t+u" \
    -c:v libx264 -preset veryfast -g 60 -b:v 20M -maxrate 20M -bufsize 20M -pix_fmt yuv420p "$rtp_clip.part.mp4"
  mv "$rtp_clip.part.mp4" "$rtp_clip"
fi

run=$(mktemp -d /tmp/reel-soak.XXXXXX)
names=() pids=()
observe() { names+=("$1"); pids+=("$2"); }
cleanup() { kill "${pids[@]}" "${helpers[@]}" 2>/dev/null || true; }
helpers=()
trap cleanup EXIT

# 1. The restless user.
"$bin/reel-bench" player-churn "$player_clip" $((seconds + 15)) 1 >"$run/player.out" 2>"$run/player.err" &
observe "player (churn)" $!

# 2. 20 Mbit/s through the lossy relay to the receiver. At 5 % loss hardly a keyframe of
# ~300 packets arrives whole, so the receiver hands over damaged access units too.
python3 scripts/lib/loss_relay.py "$base_port" $((base_port + 10)) 0.05 1 >"$run/relay.out" 2>&1 &
relay=$!; helpers+=("$relay")
ffmpeg -v error -nostdin -re -stream_loop -1 -i "$rtp_clip" -an -c:v copy -f rtp -sdp_file "$run/sent.sdp" \
  "rtp://127.0.0.1:$base_port?pkt_size=1400" 2>"$run/sender.err" &
helpers+=($!)
for _ in $(seq 100); do [ -s "$run/sent.sdp" ] && break; sleep 0.1; done
sed "s/^m=video $base_port /m=video $((base_port + 10)) /" "$run/sent.sdp" >"$run/relayed.sdp"
"$bin/reel" rtp receive --keep-damaged --sdp "$run/relayed.sdp" --duration $((seconds + 15)) >"$run/receive.out" 2>"$run/receive.err" &
observe "rtp receive (20M 5% loss)" $!

# 3. A VAP animation, looping.
"$bin/reel" vap play --headless --loops 0 "$fixtures/vap/vapx.mp4" >"$run/vap.out" 2>"$run/vap.err" &
observe "vap play (loop)" $!

# 4. Camera -> RTP -> reel play.
"$bin/example-camera-rtp" "rtp://127.0.0.1:$((base_port + 20))" "$run/camera.sdp" $((seconds + 60)) >"$run/camera.out" 2>"$run/camera.err" &
observe "camera sender" $!
for _ in $(seq 100); do [ -s "$run/camera.sdp" ] && break; sleep 0.1; done
"$bin/reel" play --headless --stats "$run/camera.sdp" >"$run/camera-play.out" 2>"$run/camera-play.err" &
observe "camera receiver (play)" $!

echo "soak: $minutes minutes, logs in $run" >&2
started=$(date +%s)
died=0
: >"$run/samples.csv"
while (($(date +%s) - started < seconds)); do
  elapsed=$(($(date +%s) - started))
  for index in "${!pids[@]}"; do
    pid=${pids[$index]}
    if ! kill -0 "$pid" 2>/dev/null; then
      if ! grep -q "^${names[$index]} died" "$run/died" 2>/dev/null; then
        echo "${names[$index]} died at ${elapsed} s" | tee -a "$run/died" >&2
        died=1
      fi
      continue
    fi
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo "")
    threads=$(awk '/^Threads/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo "")
    descriptors=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    [ -n "$rss" ] && [ -n "$threads" ] && echo "$elapsed,${names[$index]},$rss,$descriptors,$threads" >>"$run/samples.csv"
  done
  if ((elapsed % 60 < 10)); then echo "soak: $((elapsed / 60)) of $minutes minutes" >&2; fi
  sleep 10
done

# The end: the player and the receiver stop by themselves a little after the last sample
# (so that none is caught ending early); the others are told to.
for index in "${!pids[@]}"; do
  case "${names[$index]}" in "vap play (loop)"|"camera receiver (play)"|"camera sender") kill -INT "${pids[$index]}" 2>/dev/null || true ;; esac
done
for index in "${!pids[@]}"; do
  status=0
  if ! timeout 60 tail --pid="${pids[$index]}" -f /dev/null; then
    echo "soak: ${names[$index]} did not end within 60 s; killed" >&2
    kill -KILL "${pids[$index]}" 2>/dev/null || true
    died=1
  fi
  wait "${pids[$index]}" 2>/dev/null || status=$?
  if ((status != 0)) && [ "${names[$index]}" != "camera sender" ]; then
    echo "soak: ${names[$index]} ended with status $status" >&2
    died=1
  fi
done
kill -INT "$relay" 2>/dev/null || true
wait "$relay" 2>/dev/null || true

echo "--- what went through"
cat "$run/player.out" "$run/relay.out"
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["statistics"]; p = s["packets"]
print("rtp receive: %d packets, %d lost, %d access units (%d damaged)" % (p["received"], p["lost"], s["access_units"], s["corrupted_access_units"]))' "$run/receive.out" || true
grep -E '"frames_shown"|"frames_dropped"' "$run/camera-play.out" | tr -d ' ,' | paste -sd ' ' | sed 's/^/camera receiver: /' || true
echo "--- memory, descriptors, threads"
verdict=0
/usr/bin/python3 scripts/lib/soak_chart.py "$run/samples.csv" "$chart" || verdict=1
((died == 0)) || { echo "soak: FAIL (a process died or failed; logs in $run)"; exit 1; }
((verdict == 0)) || { echo "soak: FAIL (growth; chart $chart, samples $run/samples.csv)"; exit 1; }
echo "soak: pass ($minutes minutes; chart $chart)"

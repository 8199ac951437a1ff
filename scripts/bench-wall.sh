#!/usr/bin/env bash
# The camera wall's scale (issue 45): N cameras (4, 9, 16) from gst-rtsp-server mounts, each a
# looping H.264 file at 640x360@15 sent in RTP by ffmpeg (-re -stream_loop -1 -c copy) and
# relayed (Tests/ReelIntegrationTests/Support/wall-server.py). Reel shows them for SECONDS on a
# 1280x720 wall (`reel wall --headless --no-audio --stats`): pictures shown per tile against
# those sent, the worst tile, pictures dropped as late, the wall's pictures, CPU. Beside it
# ffmpeg decodes the same N streams, scales each bilinearly into its tile and stacks them with
# xstack (-f null) for the same time, in the same run: its CPU. Medians of RUNS runs.
# WALL_ARGS adds options to `reel wall` (--fps 15: the wall at its cameras' rate, as xstack's
# output is).
#   COUNTS="4 9 16" PLAY_SECONDS=60 RUNS=1 bash scripts/bench-wall.sh
source "$(dirname "$0")/lib/bench-common.sh"

counts=${COUNTS:-4 9 16}
seconds=${PLAY_SECONDS:-60}
runs=${RUNS:-1}
largest=$(printf "%s\n" $counts | sort -n | tail -1)
dir=$(mktemp -d)
children=()
cleanup() { ((${#children[@]} == 0)) || kill "${children[@]}" 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT

# One looping camera file: 10 s of 640x360@15, a keyframe a second, no B-frames (as cameras send).
camera_clip=.cache/bench/wall-camera-640x360-15-10s.mp4
if [ ! -s "$camera_clip" ]; then
  mkdir -p "$(dirname "$camera_clip")"
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=640x360:rate=15:duration=10" -c:v libx264 -preset veryfast -g 15 -bf 0 \
    -pix_fmt yuv420p "$camera_clip.part.mp4"
  mv "$camera_clip.part.mp4" "$camera_clip"
fi

# Senders and the relay for the largest wall; smaller walls use the first cameras.
port=$(( (RANDOM % 2000) * 10 + 20000 ))
mounts=()
for ((i = 1; i <= largest; i++)); do
  rtp=$((port + 2 * i))
  ffmpeg -v error -nostdin -re -stream_loop -1 -i "$camera_clip" -map 0:v -c copy -f rtp -sdp_file "$dir/cam$i.sdp" "rtp://127.0.0.1:$rtp" &
  children+=($!)
  for _ in $(seq 50); do grep -q sprop-parameter-sets "$dir/cam$i.sdp" 2>/dev/null && break; sleep 0.1; done
  grep -q sprop-parameter-sets "$dir/cam$i.sdp" 2>/dev/null || { echo "bench-wall: no SDP for cam$i" >&2; exit 1; }
  mounts+=("/cam$i=$rtp:$(sed -n 's/.*sprop-parameter-sets=\([^; ]*\).*/\1/p' "$dir/cam$i.sdp")")
done
/usr/bin/python3 Tests/ReelIntegrationTests/Support/wall-server.py "$port" "${mounts[@]}" > "$dir/server.log" 2>&1 &
children+=($!)
for _ in $(seq 100); do grep -q ready "$dir/server.log" && break; sleep 0.1; done
grep -q ready "$dir/server.log" || { echo "bench-wall: the relay did not start: $(cat "$dir/server.log")" >&2; exit 1; }
urls() { local i; for ((i = 1; i <= $1; i++)); do echo "rtsp://127.0.0.1:$port/cam$i"; done; }

# Each tile's pictures shown against those its stream sent while it played (its position
# at 15 a second): the start-up before a tile's first picture is not counted against it.
reel_run() {   # count → "cpu worst% mean% dropped wall_pictures"
  local count=$1 report
  report=$(mktemp)
  read -r _ cpu < <(wall_and_cpu sh -c '"$@" > "$0"' "$report" .build/release/reel wall --headless --no-audio --stats ${WALL_ARGS:-} \
    --duration "$seconds" $(urls "$count"))
  python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))
shares = [100 * t["statistics"]["frames_shown"] / max(t["statistics"]["position"] * 15, 1) for t in report["tiles"]]
dropped = sum(t["statistics"]["frames_dropped"] for t in report["tiles"])
print(sys.argv[2], "%.1f" % min(shares), "%.1f" % (sum(shares) / len(shares)), dropped, report["wall_pictures"])' "$report" "$cpu"
  rm -f "$report"
}

ffmpeg_run() {   # count → "cpu"
  local count=$1 side=1 inputs=() graph="" layout="" i url
  while ((side * side < count)); do side=$((side + 1)); done
  local tile_w=$(( 1280 / side / 2 * 2 )) tile_h=$(( 720 / side / 2 * 2 ))
  i=0
  for url in $(urls "$count"); do
    inputs+=(-rtsp_transport udp -i "$url")
    graph+="[$i:v]scale=$tile_w:$tile_h:flags=bilinear[t$i];"
    layout+="$((i % side * tile_w))_$((i / side * tile_h))|"
    i=$((i + 1))
  done
  for ((i = 0; i < count; i++)); do graph+="[t$i]"; done
  graph+="xstack=inputs=$count:layout=${layout%|}:fill=black"
  wall_and_cpu ffmpeg -v error -nostdin "${inputs[@]}" -filter_complex "$graph" -t "$seconds" -f null -
}

echo "bench-wall: N cameras at 640x360@15 over RTSP, $seconds s, 1280x720 wall, medians of $runs runs"
printf "%7s | %-52s | %-14s | %s\n" cameras "reel wall: shown/sent (worst tile, mean) dropped wall CPU" "ffmpeg xstack" "CPU reel/ffmpeg"
for count in $counts; do
  r_cpu=() r_worst=() r_mean=() r_dropped=() r_wall=() f_cpu=()
  for ((run = 0; run < runs; run++)); do
    read -r cpu worst mean dropped pictures < <(reel_run "$count")
    r_cpu+=("$cpu") r_worst+=("$worst") r_mean+=("$mean") r_dropped+=("$dropped") r_wall+=("$pictures")
    read -r _ cpu < <(ffmpeg_run "$count")
    f_cpu+=("$cpu")
  done
  m() { printf "%s\n" "$@" | median; }
  rc=$(m "${r_cpu[@]}") fc=$(m "${f_cpu[@]}")
  printf "%7d | %6s%%  %6s%%  %7s %7s %8.2f s          | %8.2f s    | %.2f\n" "$count" "$(m "${r_worst[@]}")" "$(m "${r_mean[@]}")" \
    "$(m "${r_dropped[@]}")" "$(m "${r_wall[@]}")" "$rc" "$fc" "$(awk -v a="$rc" -v b="$fc" 'BEGIN { print a / b }')"
done

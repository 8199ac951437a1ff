#!/usr/bin/env bash
# Gifts over video (issue 49): N VAP gifts (Tencent's demo.mp4, looping) over SECONDS of
# 1080p30, each fitted into a 960x540 area, the areas staggered so that they overlap.
# Reel plays it in real time (`reel play --headless --no-audio --stats`): pictures shown
# and dropped, the gifts' frames not made in time, the wall time it took (video is the
# master clock without sound: a player that cannot keep up plays slower, it drops nothing),
# CPU. Beside it, the same composition
# by ffmpeg's filter graph (each gift's colour and alpha regions alphamerged, scaled
# bilinearly, overlaid premultiplied over the picture in BGRA; -f null) on the same
# frames, in the same run: its CPU and how much faster than real time it is. Medians of
# RUNS runs. The gifts are one file at one size, so Reel's cache (CACHE, --overlay-cache)
# decodes it once for all; CACHE=0 makes each gift decode its own.
#   COUNTS="1 4 8 16" PLAY_SECONDS=10 RUNS=3 CACHE=256M bash scripts/bench-overlays.sh
source "$(dirname "$0")/lib/bench-common.sh"

counts=${COUNTS:-1 4 8 16}
seconds=${PLAY_SECONDS:-10}
runs=${RUNS:-3}
cache=${CACHE:-256M}
fixtures=${REEL_FIXTURES:-$(cd .. && pwd)/shared/fixtures}
gift=$fixtures/vap/demo.mp4
[ -s "$gift" ] || { echo "bench-overlays: no $gift (REEL_FIXTURES names the fixtures folder)" >&2; exit 1; }
frames=$((seconds * 30))

# The gift's size and its two regions, from the file.
read -r gift_w gift_h c_x c_y c_w c_h a_x a_y a_w a_h < <(.build/release/reel vap info "$gift" --json | python3 -c '
import json, sys
layout = json.load(sys.stdin)["layout"]
print(layout["width"], layout["height"], *layout["rgbFrame"], *layout["aFrame"])')
# Fitted into 960x540, its shape kept, centred across (as Reel places it).
read -r fit_w fit_h < <(awk -v w="$gift_w" -v h="$gift_h" 'BEGIN { f = (960 / w < 540 / h) ? 960 / w : 540 / h
  printf "%d %d\n", int(w * f + 0.5), int(h * f + 0.5) }')
area_x() { echo $(( ($1 % 4) * 320 )); }
area_y() { echo $(( ($1 / 4 % 4) * 180 )); }

reel_run() {   # count → "cpu shown dropped late wall"
  local count=$1 args=() i report
  for ((i = 0; i < count; i++)); do args+=(--overlay "$gift@0,pos=$(area_x "$i"):$(area_y "$i"):960:540,loops=0"); done
  report=$(mktemp)
  read -r _ cpu < <(wall_and_cpu sh -c '"$@" > "$0"' "$report" .build/release/reel play --headless --no-audio --stats \
    --overlay-cache "$cache" --duration "$seconds" "${args[@]}" "$bench_clip")
  python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["statistics"]
report = json.load(open(sys.argv[1]))
print(sys.argv[2], s["frames_shown"], s["frames_dropped"], s.get("overlay_frames_late", "n/a"), "%.2f" % report["wall_seconds"])' "$report" "$cpu"
  rm -f "$report"
}

ffmpeg_run() {   # count → "wall cpu"
  local count=$1 inputs=() graph="sws_flags=neighbor+accurate_rnd+full_chroma_int+bitexact;[0:v]format=bgra[v0];" i x
  for ((i = 0; i < count; i++)); do
    inputs+=(-stream_loop -1 -i "$gift")
    graph+="[$((i + 1)):v]split[c$i][a$i];[c$i]crop=$c_w:$c_h:$c_x:$c_y:exact=1,format=rgba[rgb$i];"
    graph+="[a$i]format=gray,crop=$a_w:$a_h:$a_x:$a_y,scale=$c_w:$c_h:flags=bilinear[alpha$i];"
    graph+="[rgb$i][alpha$i]alphamerge,scale=$fit_w:$fit_h:flags=bilinear,format=rgba[g$i];"
    x=$(( $(area_x "$i") + (960 - fit_w) / 2 ))
    graph+="[v$i][g$i]overlay=x=$x:y=$(area_y "$i"):format=rgb:alpha=premultiplied:shortest=0[v$((i + 1))];"
  done
  graph+="[v$count]format=yuv420p"
  wall_and_cpu ffmpeg -v error -nostdin -i "$bench_clip" "${inputs[@]}" -filter_complex "$graph" -frames:v "$frames" -f null -
}

echo "bench-overlays: $gift (${gift_w}x${gift_h}) fitted to ${fit_w}x${fit_h}, $seconds s of 1080p30 ($frames pictures), --overlay-cache $cache, medians of $runs runs"
printf "%6s | %-52s | %-26s | %s\n" gifts "reel play: shown/expected dropped late wall ×realtime CPU" "ffmpeg -f null: CPU ×realtime" "CPU reel/ffmpeg"
for count in $counts; do
  reel_cpu=() reel_shown=() reel_dropped=() reel_late=() reel_wall=() ff_wall=() ff_cpu=()
  for ((run = 0; run < runs; run++)); do
    read -r cpu shown dropped late wall < <(reel_run "$count")
    reel_cpu+=("$cpu") reel_shown+=("$shown") reel_dropped+=("$dropped") reel_late+=("$late") reel_wall+=("$wall")
    read -r wall cpu < <(ffmpeg_run "$count")
    ff_wall+=("$wall") ff_cpu+=("$cpu")
  done
  m() { printf "%s\n" "$@" | median; }
  rc=$(m "${reel_cpu[@]}") rw=$(m "${reel_wall[@]}") fc=$(m "${ff_cpu[@]}") fw=$(m "${ff_wall[@]}")
  printf "%6d | %4s/%d %4s %5s %6.2f s %5.2fx %7.2f s       | %7.2f s  %5.2fx          | %.2f\n" "$count" "$(m "${reel_shown[@]}")" "$frames" \
    "$(m "${reel_dropped[@]}")" "$(m "${reel_late[@]}")" "$rw" "$(awk -v s="$seconds" -v w="$rw" 'BEGIN { print s / w }')" "$rc" \
    "$fc" "$(awk -v s="$seconds" -v w="$fw" 'BEGIN { print s / w }')" \
    "$(awk -v a="$rc" -v b="$fc" 'BEGIN { print a / b }')"
done

#!/usr/bin/env bash
# Playback throughput on one 1080p clip, in one run: `reel play --headless --untimed`
# against mpv (--vo=null --ao=null --untimed) and `ffmpeg -f null`, medians of RUNS runs
# in alternating order; and Reel's time to first frame on a local file.
source "$(dirname "$0")/lib/bench-common.sh"
runs=${RUNS:-7}
clip=$bench_clip

reel_cmd=(.build/release/reel play --headless --untimed "$clip")
mpv_cmd=(mpv --no-config --vo=null --ao=null --untimed --really-quiet "$clip")
ffmpeg_cmd=(ffmpeg -nostdin -i "$clip" -f null -)
reel_t=() mpv_t=() ffmpeg_t=()
"${reel_cmd[@]}" >/dev/null 2>&1; "${mpv_cmd[@]}" >/dev/null 2>&1   # warm the page cache
for ((run = 1; run <= runs; run++)); do
  case $((run % 3)) in
    0) reel_t+=("$(seconds "${reel_cmd[@]}")"); mpv_t+=("$(seconds "${mpv_cmd[@]}")"); ffmpeg_t+=("$(seconds "${ffmpeg_cmd[@]}")") ;;
    1) mpv_t+=("$(seconds "${mpv_cmd[@]}")"); ffmpeg_t+=("$(seconds "${ffmpeg_cmd[@]}")"); reel_t+=("$(seconds "${reel_cmd[@]}")") ;;
    2) ffmpeg_t+=("$(seconds "${ffmpeg_cmd[@]}")"); reel_t+=("$(seconds "${reel_cmd[@]}")"); mpv_t+=("$(seconds "${mpv_cmd[@]}")") ;;
  esac
  echo "run $run: reel ${reel_t[-1]} s, mpv ${mpv_t[-1]} s, ffmpeg ${ffmpeg_t[-1]} s" >&2
done
reel_m=$(printf '%s\n' "${reel_t[@]}" | median)
mpv_m=$(printf '%s\n' "${mpv_t[@]}" | median)
ffmpeg_m=$(printf '%s\n' "${ffmpeg_t[@]}" | median)

# Time to first frame: open to first frame shown, reported by the player (median).
first=()
for ((run = 1; run <= runs; run++)); do
  first+=("$(.build/release/reel play --headless --stats --duration 0.2 "$clip" 2>/dev/null | awk -F': ' '/first_frame_latency/ { gsub(/,/, "", $2); print $2 }')")
done
first_m=$(printf '%s\n' "${first[@]}" | median)

awk -v r="$reel_m" -v m="$mpv_m" -v f="$ffmpeg_m" -v t="$first_m" -v k="$runs" 'BEGIN {
  printf "play 30 s 1080p30 H.264 untimed, median of %d runs (wall time)\n", k
  printf "  reel play --headless --untimed         %7.3f s\n", r
  printf "  mpv --vo=null --ao=null --untimed      %7.3f s   ratio reel/mpv    %.3f (target < 1)\n", m, r / m
  printf "  ffmpeg -i X -f null -                  %7.3f s   ratio reel/ffmpeg %.3f\n", f, r / f
  printf "  time to first frame (local file)       %7.1f ms  (target < 100 ms)\n", t * 1000
}'

#!/usr/bin/env bash
# Playback throughput on a 1080p30 H.264 + AAC clip, in one run: `reel play --headless
# --untimed` against mpv (--vo=null --ao=null --ao-null-untimed --untimed) and `ffmpeg -f
# null` (both streams decoded), wall time and CPU time (user + system), medians of RUNS
# runs in alternating order; and Reel's time to first frame on a local file.
source "$(dirname "$0")/lib/bench-common.sh"
runs=${RUNS:-7}
clip=$bench_clip_av

reel_cmd=(.build/release/reel play --headless --untimed "$clip")
mpv_cmd=(mpv --no-config --vo=null --ao=null --ao-null-untimed --untimed --really-quiet "$clip")
ffmpeg_cmd=(ffmpeg -nostdin -i "$clip" -f null -)
reel_w=() reel_c=() mpv_w=() mpv_c=() ffmpeg_w=() ffmpeg_c=()
"${reel_cmd[@]}" >/dev/null 2>&1; "${mpv_cmd[@]}" >/dev/null 2>&1   # warm the page cache
for ((run = 1; run <= runs; run++)); do
  case $((run % 3)) in
    0) measure reel "${reel_cmd[@]}"; measure mpv "${mpv_cmd[@]}"; measure ffmpeg "${ffmpeg_cmd[@]}" ;;
    1) measure mpv "${mpv_cmd[@]}"; measure ffmpeg "${ffmpeg_cmd[@]}"; measure reel "${reel_cmd[@]}" ;;
    2) measure ffmpeg "${ffmpeg_cmd[@]}"; measure reel "${reel_cmd[@]}"; measure mpv "${mpv_cmd[@]}" ;;
  esac
  echo "run $run: reel ${reel_w[-1]} s (cpu ${reel_c[-1]}), mpv ${mpv_w[-1]} s (cpu ${mpv_c[-1]}), ffmpeg ${ffmpeg_w[-1]} s (cpu ${ffmpeg_c[-1]})" >&2
done
m() { printf '%s\n' "$@" | median; }

# Time to first frame: open to first frame shown, reported by the player (median).
first=()
for ((run = 1; run <= runs; run++)); do
  first+=("$(.build/release/reel play --headless --stats --duration 0.2 "$clip" 2>/dev/null | awk -F': ' '/first_frame_latency/ { gsub(/,/, "", $2); print $2 }')")
done

awk -v rw="$(m "${reel_w[@]}")" -v rc="$(m "${reel_c[@]}")" -v mw="$(m "${mpv_w[@]}")" -v mc="$(m "${mpv_c[@]}")" \
    -v fw="$(m "${ffmpeg_w[@]}")" -v fc="$(m "${ffmpeg_c[@]}")" -v t="$(m "${first[@]}")" -v k="$runs" 'BEGIN {
  printf "play 30 s 1080p30 H.264 + AAC untimed, median of %d runs\n", k
  printf "                                          wall       cpu (user+sys)\n"
  printf "  reel play --headless --untimed       %7.3f s  %7.3f s\n", rw, rc
  printf "  mpv --vo=null --ao=null --untimed    %7.3f s  %7.3f s   reel/mpv    wall %.3f  cpu %.3f (target <= 1)\n", mw, mc, rw / mw, rc / mc
  printf "  ffmpeg -i X -f null -                %7.3f s  %7.3f s   reel/ffmpeg wall %.3f  cpu %.3f\n", fw, fc, rw / fw, rc / fc
  printf "  time to first frame (local file)     %7.1f ms  (target < 100 ms)\n", t * 1000
}'

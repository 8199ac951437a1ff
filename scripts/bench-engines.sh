#!/usr/bin/env bash
# The two engines against GStreamer's own player, in one run: real-time playback of 10 s of
# 1080p30 H.264 + AAC, headless, CPU time (user + system) of `reel play --headless --engine
# gstreamer`, `--engine ffmpeg` and `gst-launch-1.0 playbin3` with synchronised fakesinks
# (what gst-play-1.0 --videosink=fakesink --audiosink=fakesink runs, kept to real time);
# medians of RUNS runs in rotating order; each engine's time to first frame; and the CPU a
# start costs: `reel --version` and `reel probe` beside `mpv --version` (20 starts in a row).
source "$(dirname "$0")/lib/bench-common.sh"
runs=${RUNS:-5}
clip=.cache/bench/h264-aac-1080p30-10s.mp4
if [ ! -s "$clip" ]; then
  ffmpeg -v error -nostdin -y -i "$bench_clip_av" -t 10 -c copy "$clip.part.mp4"
  mv "$clip.part.mp4" "$clip"
fi
gst-inspect-1.0 >/dev/null 2>&1 || true   # the plug-in registry, built before anything is timed

gstreamer_cmd=(.build/release/reel play --headless --engine gstreamer "$clip")
ffmpeg_cmd=(.build/release/reel play --headless --engine ffmpeg "$clip")
playbin_cmd=(gst-launch-1.0 -q playbin3 "uri=file://$PWD/$clip" "video-sink=fakesink sync=true" "audio-sink=fakesink sync=true")
gstreamer_w=() gstreamer_c=() ffmpeg_w=() ffmpeg_c=() playbin_w=() playbin_c=()
for ((run = 1; run <= runs; run++)); do
  case $((run % 3)) in
    0) measure gstreamer "${gstreamer_cmd[@]}"; measure ffmpeg "${ffmpeg_cmd[@]}"; measure playbin "${playbin_cmd[@]}" ;;
    1) measure ffmpeg "${ffmpeg_cmd[@]}"; measure playbin "${playbin_cmd[@]}"; measure gstreamer "${gstreamer_cmd[@]}" ;;
    2) measure playbin "${playbin_cmd[@]}"; measure gstreamer "${gstreamer_cmd[@]}"; measure ffmpeg "${ffmpeg_cmd[@]}" ;;
  esac
  echo "run $run: reel/gstreamer ${gstreamer_w[-1]} s (cpu ${gstreamer_c[-1]}), reel/ffmpeg ${ffmpeg_w[-1]} s (cpu ${ffmpeg_c[-1]}), playbin3 ${playbin_w[-1]} s (cpu ${playbin_c[-1]})" >&2
done
m() { printf '%s\n' "$@" | median; }

first_frame() {   # engine: open to first frame shown, as the player reports it
  .build/release/reel play --headless --stats --duration 0.2 --engine "$1" "$clip" 2>/dev/null | awk -F': ' '/first_frame_latency/ { gsub(/,/, "", $2); print $2 }'
}
first_g=() first_f=()
for ((run = 1; run <= runs; run++)); do first_g+=("$(first_frame gstreamer)"); first_f+=("$(first_frame ffmpeg)"); done

# 20 starts of a command in a row, its output discarded: one start is below /usr/bin/time's 10 ms.
twenty=(bash -c 'for _ in $(seq 20); do "$@" >/dev/null 2>&1; done' twenty)
version_w=() version_c=() probe_w=() probe_c=() mpv_w=() mpv_c=()
for ((run = 1; run <= runs; run++)); do
  measure version "${twenty[@]}" .build/release/reel --version
  measure probe "${twenty[@]}" .build/release/reel probe "$clip"
  measure mpv "${twenty[@]}" mpv --version
done

awk -v gw="$(m "${gstreamer_w[@]}")" -v gc="$(m "${gstreamer_c[@]}")" -v fw="$(m "${ffmpeg_w[@]}")" -v fc="$(m "${ffmpeg_c[@]}")" \
    -v pw="$(m "${playbin_w[@]}")" -v pc="$(m "${playbin_c[@]}")" -v tg="$(m "${first_g[@]}")" -v tf="$(m "${first_f[@]}")" -v k="$runs" \
    -v vc="$(m "${version_c[@]}")" -v rc="$(m "${probe_c[@]}")" -v mc="$(m "${mpv_c[@]}")" 'BEGIN {
  printf "play 10 s 1080p30 H.264 + AAC in real time, headless, median of %d runs\n", k
  printf "                                             wall       cpu (user+sys)\n"
  printf "  reel play --engine gstreamer            %7.3f s  %7.3f s   reel-gstreamer/playbin3 cpu %.3f (target <= 1.0)\n", gw, gc, gc / pc
  printf "  reel play --engine ffmpeg               %7.3f s  %7.3f s   reel-ffmpeg/playbin3 cpu %.3f\n", fw, fc, fc / pc
  printf "  gst-launch-1.0 playbin3 (fakesinks)     %7.3f s  %7.3f s\n", pw, pc
  printf "  time to first frame: gstreamer %.1f ms, ffmpeg %.1f ms (target < 50)\n", tg * 1000, tf * 1000
  printf "  cpu of a start: reel --version %.1f ms, reel probe %.1f ms, mpv --version %.1f ms; reel/mpv %.2f and %.2f (target <= 1)\n", \
    vc * 50, rc * 50, mc * 50, vc / mc, rc / mc
}'

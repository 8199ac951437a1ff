#!/usr/bin/env bash
# Decoding throughput of Reel against ffmpeg on the same clip, with the same libavcodec
# and the same thread count, run alternately; prints medians and their ratio.
#   THREADS=N (default 2)  RUNS=K (default 9)
source "$(dirname "$0")/lib/bench-common.sh"
threads=${THREADS:-2}
runs=${RUNS:-9}
clip=$bench_clip

run_ffmpeg() { ffmpeg_times+=("$(seconds ffmpeg -nostdin -threads "$threads" -i "$clip" -f null -)"); }
run_reel() { reel_times+=("$(seconds .build/release/reel decode "$clip" --threads "$threads")"); }

ffmpeg_times=() reel_times=()
run_ffmpeg; run_reel   # warm the page cache; not counted
ffmpeg_times=() reel_times=()
for ((run = 1; run <= runs; run++)); do
  # Alternate who goes first, so that neither always runs on a warmer or cooler machine.
  if ((run % 2)); then run_ffmpeg; run_reel; else run_reel; run_ffmpeg; fi
  echo "run $run: ffmpeg ${ffmpeg_times[-1]} s, reel ${reel_times[-1]} s" >&2
done

ffmpeg_median=$(printf '%s\n' "${ffmpeg_times[@]}" | median)
reel_median=$(printf '%s\n' "${reel_times[@]}" | median)
frames=$(.build/release/reel decode "$clip" --threads "$threads" | awk '{ print $2 }')
awk -v f="$ffmpeg_median" -v r="$reel_median" -v n="$frames" -v t="$threads" -v k="$runs" 'BEGIN {
  printf "decode 30 s 1080p30 H.264, %d threads, median of %d runs\n", t, k
  printf "  ffmpeg -threads %d -i X -f null -   %7.3f s  %6.1f fps\n", t, f, n / f
  printf "  reel decode X --threads %d          %7.3f s  %6.1f fps\n", t, r, n / r
  printf "  ratio reel/ffmpeg (wall time)      %7.3f   (target <= 1.05)\n", r / f
}'

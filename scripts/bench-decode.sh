#!/usr/bin/env bash
# Decoding throughput of Reel against ffmpeg on the same clip, with the same libavcodec
# and the same thread count, run alternately; prints medians and their ratio.
#   THREADS=N (default 2)  RUNS=K (default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel >&2

threads=${THREADS:-2}
runs=${RUNS:-9}
clip=.cache/bench/h264-1080p30-30s.mp4
if [ ! -s "$clip" ]; then
  mkdir -p "$(dirname "$clip")"
  echo "bench: making $clip (30 s of 1080p30 H.264 High with B-frames)" >&2
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" \
    -c:v libx264 -preset veryfast -profile:v high -bf 3 -pix_fmt yuv420p "$clip.part.mp4"
  mv "$clip.part.mp4" "$clip"
fi

seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

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

#!/usr/bin/env bash
# `reel encode` against `ffmpeg` with the same libx264 settings (veryfast, Main, 2 Mbit/s
# under a VBV of 4 Mbit/s and 2 Mbit (Reel's default limit: twice the average per second),
# GOP 250, IDR on request, parameter sets out of band) on the same 720p input: 10 s of
# testsrc2 as y4m, read from the page cache by both; run alternately, medians and their
# ratio, and the median of the per-run ratios.   RUNS=K (default 9)
source "$(dirname "$0")/lib/bench-common.sh"
runs=${RUNS:-9}
source_clip=.cache/bench/testsrc2-720p30-10s.y4m
if [ ! -s "$source_clip" ]; then
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=10" -pix_fmt yuv420p "$source_clip.part.y4m"
  mv "$source_clip.part.y4m" "$source_clip"
fi
out=.cache/bench/encode-out
mkdir -p "$out"

run_ffmpeg() {
  ffmpeg_times+=("$(seconds ffmpeg -nostdin -y -i "$source_clip" -c:v libx264 -preset veryfast -profile:v main -b:v 2M -maxrate 4M -bufsize 2M -g 250 \
    -forced-idr 1 -x264-params keyint=250 -flags +global_header -f h264 "$out/ffmpeg.h264")")
}
run_reel() {
  reel_times+=("$(seconds .build/release/reel encode -i "$source_clip" --codec h264 --preset veryfast --profile main --bitrate 2M --gop 250 \
    -o "$out/reel.h264")")
}

ffmpeg_times=() reel_times=() ratios=()
run_ffmpeg; run_reel   # warm the page cache; not counted
ffmpeg_times=() reel_times=()
for ((run = 1; run <= runs; run++)); do
  if ((run % 2)); then run_ffmpeg; run_reel; else run_reel; run_ffmpeg; fi
  ratios+=("$(awk -v r="${reel_times[-1]}" -v f="${ffmpeg_times[-1]}" 'BEGIN { printf "%.4f\n", r / f }')")
  echo "run $run: ffmpeg ${ffmpeg_times[-1]} s, reel ${reel_times[-1]} s, ratio ${ratios[-1]}" >&2
done

ffmpeg_median=$(printf '%s\n' "${ffmpeg_times[@]}" | median)
reel_median=$(printf '%s\n' "${reel_times[@]}" | median)
ratio_median=$(printf '%s\n' "${ratios[@]}" | median)
ffmpeg_size=$(stat -c %s "$out/ffmpeg.h264"); reel_size=$(stat -c %s "$out/reel.h264")
awk -v f="$ffmpeg_median" -v r="$reel_median" -v q="$ratio_median" -v k="$runs" -v fs="$ffmpeg_size" -v rs="$reel_size" 'BEGIN {
  printf "encode 10 s 720p30 y4m to H.264 (libx264 veryfast, Main, 2 Mbit/s), median of %d runs\n", k
  printf "  ffmpeg -c:v libx264 ...          %7.3f s  %6.1f fps  %8d bytes\n", f, 300 / f, fs
  printf "  reel encode ...                  %7.3f s  %6.1f fps  %8d bytes\n", r, 300 / r, rs
  printf "  ratio reel/ffmpeg (wall time)    %7.3f   median of per-run ratios %.3f   (target <= 1.05)\n", r / f, q
}'

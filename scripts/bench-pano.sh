#!/usr/bin/env bash
# 360° projection: a 360° picture of about 7 megapixels → 1280x720 flat, bilinear, three
# full planes (planar RGB), with 1 and 2 threads, for each input projection: Reel's remap
# against ffmpeg's v360 measured in the same run (v360's time is its pipeline's minus the
# same pipeline without the filter). Also the time to build a view's map (exact, and
# interactive while the view moves).
#   RUNS=K (default 7), PROJECTIONS="equirect c3x2 ..." (default all six)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel-bench >&2
runs=${RUNS:-7}
frames=8 loops=4   # 8 frames read 5 times: 40 frames, from the page cache
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# The source sizes reel-bench uses (PanoramaBenchmark.sourceSize).
declare -A sizes=([equirect]=3840x1920 [hequirect]=1920x1920 [c3x2]=2880x1920 [eac]=2880x1920 [c6x1]=5760x960 [dfisheye]=3840x1920)
for projection in ${PROJECTIONS:-equirect hequirect c3x2 c6x1 eac dfisheye}; do
  size=${sizes[$projection]}
  raw=.cache/bench/source-$size-gbrp.raw
  if [ ! -s "$raw" ]; then
    mkdir -p "$(dirname "$raw")"
    ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v $frames -pix_fmt gbrp -f rawvideo "$raw.part"
    mv "$raw.part" "$raw"
  fi
  v360="v360=input=$projection:output=flat:yaw=30:pitch=10:h_fov=90:v_fov=58.715508:w=1280:h=720:interp=linear"
  pipeline() { ffmpeg -nostdin -v error -threads 1 -filter_threads "$1" -stream_loop $loops -f rawvideo -pix_fmt gbrp -s "$size" -i "$raw" -vf "$2" -f null -; }
  .build/release/reel-bench pano --runs "$runs" --projection "$projection" | grep "map build"
  for threads in 1 2; do
    with=() without=() reel=()
    for ((run = 1; run <= runs; run++)); do
      # Alternate, so that neither always runs on a warmer or cooler machine.
      reel+=("$(.build/release/reel-bench pano-remap "$threads" "$projection")")
      with+=("$(seconds pipeline "$threads" "$v360")")
      without+=("$(seconds pipeline "$threads" null)")
    done
    reel_fps=$(printf '%s\n' "${reel[@]}" | median)
    v360_fps=$(awk -v a="$(printf '%s\n' "${with[@]}" | median)" -v b="$(printf '%s\n' "${without[@]}" | median)" -v n=$((frames * (loops + 1))) 'BEGIN { printf "%.1f", n / (a - b) }')
    awk -v r="$reel_fps" -v v="$v360_fps" -v t="$threads" -v k="$runs" -v p="$projection" -v s="$size" 'BEGIN {
      printf "remap %s %s -> 1280x720 bilinear, %d thread(s), median of %d runs: reel %.1f fps, v360 %.1f fps, ratio %.2f (target >= 2)\n", p, s, t, k, r, v, r / v }'
  done
done

# Shared by the benchmark scripts: builds the release `reel`, makes the 1080p clip, and
# times commands. Source it from a script in scripts/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
# BENCH_SKIP_BUILD=1 times the reel already built (scripts/build-tests.sh's, also optimised)
# rather than rebuilding it without the test flags.
[ "${BENCH_SKIP_BUILD:-0}" = 1 ] || swift build -c release --product reel >&2

# 30 s of 1080p30 H.264 High with B-frames, made once.
bench_clip=.cache/bench/h264-1080p30-30s.mp4
if [ ! -s "$bench_clip" ]; then
  mkdir -p "$(dirname "$bench_clip")"
  echo "bench: making $bench_clip" >&2
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" \
    -c:v libx264 -preset veryfast -profile:v high -bf 3 -pix_fmt yuv420p "$bench_clip.part.mp4"
  mv "$bench_clip.part.mp4" "$bench_clip"
fi

# The same 30 s of 1080p30 H.264 with AAC stereo beside it, for playback.
bench_clip_av=.cache/bench/h264-aac-1080p30-30s.mp4
if [ ! -s "$bench_clip_av" ]; then
  echo "bench: making $bench_clip_av" >&2
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=30" -f lavfi -i "sine=f=440:sample_rate=48000:d=30" \
    -c:v libx264 -preset veryfast -profile:v high -bf 3 -pix_fmt yuv420p -c:a aac -b:a 128k "$bench_clip_av.part.mp4"
  mv "$bench_clip_av.part.mp4" "$bench_clip_av"
fi

# "wall cpu" seconds of a command (cpu: user + system, its threads and children), its output discarded.
wall_and_cpu() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'; }

# Runs a command and appends its wall and CPU seconds to the arrays NAME_w and NAME_c.
measure() {   # name command...
  local name=$1; shift
  read -r wall cpu < <(wall_and_cpu "$@")
  eval "${name}_w+=($wall); ${name}_c+=($cpu)"
}

# Wall seconds of a command, its output discarded.
seconds() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1; end=$(date +%s.%N); awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'; }
# The median of numbers on standard input.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

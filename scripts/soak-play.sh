#!/usr/bin/env bash
# Memory soak: plays MINUTES (default 10) of 1080p headless in real time and samples RSS
# every 10 s; reports growth after the first minute (target under 10 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel >&2
minutes=${MINUTES:-10}
clip=.cache/bench/soak-1080p-${minutes}m.mp4
if [ ! -s "$clip" ]; then
  mkdir -p "$(dirname "$clip")"
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=60" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=60" -c:v libx264 -preset veryfast -pix_fmt yuv420p \
    -c:a aac "$clip.one.mp4"
  ffmpeg -v error -nostdin -y -stream_loop $((minutes - 1)) -i "$clip.one.mp4" -c copy "$clip.part.mp4"
  mv "$clip.part.mp4" "$clip"; rm -f "$clip.one.mp4"
fi
.build/release/reel play --headless "$clip" & pid=$!
samples=()
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
  [ -n "$rss" ] && samples+=("$rss") && echo "$(( ${#samples[@]} * 10 )) s: RSS $((rss / 1024)) MB" >&2
  sleep 10
done
wait "$pid"
printf '%s\n' "${samples[@]}" | awk -v m="$minutes" '
  NR == 6 { base = $1 } { last = $1; if ($1 > peak) peak = $1 }
  END { printf "soak %d min 1080p headless: RSS at 1 min %.1f MB, at end %.1f MB, peak %.1f MB, growth after 1 min %+.1f MB (target < 10)\n", m, base/1024, last/1024, peak/1024, (last-base)/1024 }'

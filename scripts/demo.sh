#!/usr/bin/env bash
# The main job on the built-in demo: makes a 10 s clip with audio on first use, then
# describes it with `reel probe`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel >&2

demo=.cache/demo/reel-demo.mp4
if [ ! -s "$demo" ]; then
  mkdir -p "$(dirname "$demo")"
  echo "demo: making $demo" >&2
  ffmpeg -v error -y \
    -f lavfi -i "testsrc2=size=1280x720:rate=30" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:beep_factor=4" \
    -t 10 -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 128k \
    -metadata title="Reel demo" -movflags +faststart "$demo.part.mp4"
  mv "$demo.part.mp4" "$demo"
fi
.build/release/reel probe "$demo"

#!/usr/bin/env bash
# The main job on the built-in demo: makes a 10 s clip with audio on first use, describes
# it with `reel probe`, and plays it: in a window where there is a display, headless with
# live statistics and a snapshot where there is none.
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
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  .build/release/reel play "$demo"
else
  echo "demo: no display; playing headless (a window needs DISPLAY)" >&2
  .build/release/reel play --headless --stats --snapshot "5:.cache/demo/at-5s.png" "$demo"
  echo "demo: the frame at 5 s is in .cache/demo/at-5s.png" >&2
fi

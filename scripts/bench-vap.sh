#!/usr/bin/env bash
# VAP compositing at 1080p output (alpha at half size) on one thread, against the ffmpeg
# filter graph the agreement tests use as reference (crop + format=rgba, crop + gray +
# bilinear scale, alphamerge; libavfilter with one thread), on the same pictures in one
# process. Each figure is the median of RUNS runs of 60 frames.   RUNS=K (default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel-bench >&2
.build/release/reel-bench vap --runs "${RUNS:-9}"

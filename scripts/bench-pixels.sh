#!/usr/bin/env bash
# Reel's pixel conversions at 1080p against their peers in one process: I420 → NV12
# against memcpy of the same bytes, I420 → BGRA and BGRA → I420 against libswscale
# (with the bit-exact flags whose output Reel equals, and its default SIMD path).
# Each figure is the median of RUNS runs of FRAMES conversions, one thread.
#   RUNS=K (default 9)  FRAMES=N (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --product reel-bench >&2
.build/release/reel-bench pixels --runs "${RUNS:-9}" --frames "${FRAMES:-60}"

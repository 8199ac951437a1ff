#!/usr/bin/env bash
# Benchmarks this tree against an earlier commit in one run: builds REV's release `reel` in
# a worktree of its own (.cache/bench-against/REV), then runs each benchmark given ROUNDS
# times (default 2), this tree and REV's in turn, the order swapped each round. Both run
# this tree's scripts (copied into the worktree), each against its own `reel`, so the two
# are measured the same way and each beside its peers of the same moment.
#   bash scripts/bench-against.sh 37aea56                       # bench-play, bench-engines, bench-latency's RTP row
#   ROUNDS=3 RUNS=5 bash scripts/bench-against.sh 37aea56 bench-play
# bench-latency measures the rows of ROWS (default: rtp). Not part of the default run.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
rev=${1:?usage: bench-against.sh REV [bench-play bench-engines bench-latency ...]}
shift
benches=("$@")
((${#benches[@]})) || benches=(bench-play bench-engines bench-latency)
rounds=${ROUNDS:-2}
export ROWS=${ROWS:-rtp}

before=.cache/bench-against/$(git rev-parse --short "$rev")
if [ ! -d "$before" ]; then
  mkdir -p .cache/bench-against
  git worktree add --detach "$before" "$rev" >&2
fi
cp -r scripts/. "$before/scripts/"
mkdir -p .cache/bench "$before/.cache"
ln -sfn "$PWD/.cache/bench" "$before/.cache/bench"
bash scripts/setup.sh
echo "bench-against: building this tree's reel and $rev's" >&2
swift build -c release --product reel >&2
(cd "$before" && swift build -c release --product reel >&2)

export BENCH_SKIP_BUILD=1
run() {   # label directory bench
  echo "=== $3, $1 ==="
  (cd "$2" && bash "scripts/$3.sh") 2>/dev/null || echo "($3 failed in $1)"
}
for ((round = 1; round <= rounds; round++)); do
  for bench in "${benches[@]}"; do
    if ((round % 2)); then
      run "this tree ($(git rev-parse --short HEAD)), round $round" . "$bench"
      run "$rev, round $round" "$before" "$bench"
    else
      run "$rev, round $round" "$before" "$bench"
      run "this tree ($(git rev-parse --short HEAD)), round $round" . "$bench"
    fi
  done
done

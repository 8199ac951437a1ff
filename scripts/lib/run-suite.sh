#!/usr/bin/env bash
# Runs the built test suite (scripts/build-tests.sh) and prints its output; exits non-zero
# when a test failed. With arguments (`--filter X`…), one `swift test` process with them.
# Without, two processes side by side: the suites that play in real time, one after
# another (PlaybackTests, the run's longest path), and all the others, in parallel. In one
# process they shared Swift's thread pool, a thread per core: parallel tests waiting on
# ffmpeg held both threads for minutes while the real-time chain could not start. No build
# runs here, so neither process waits for the other's lock on .build. The others run at a
# lower priority (nice 5): they finish long before the chain even so, and the chain's
# encoders, which take every core, ran 3 times slower beside them at the same priority.
#   bash scripts/lib/run-suite.sh [swift test arguments]
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
swift_test=(swift test -c release --skip-build --ignore-lock -Xswiftc -enable-testing)
if (($#)); then exec "${swift_test[@]}" "$@"; fi
others=$(mktemp)
trap 'rm -f "$others"' EXIT
chain='^ReelIntegrationTests\.PlaybackTests/'
nice -n 5 "${swift_test[@]}" --skip "$chain" >"$others" 2>&1 &
parallel=$!
status=0
"${swift_test[@]}" --filter "$chain" || status=$?
wait "$parallel" || status=$?
echo "run-suite: the other suites, run beside the real-time ones:"
cat "$others"
exit "$status"

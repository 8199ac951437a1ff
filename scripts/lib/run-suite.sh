#!/usr/bin/env bash
# Runs the built test suite (scripts/build-tests.sh) and prints its output; exits non-zero
# when a test failed. With arguments (`--filter X`…), one `swift test` process with them.
# Without, the player's unit tests alone (a second: they step the player's own threads on a
# manual clock, and beside the parallel suites a test waiting on ffmpeg can hold the pool's
# threads they need for their events), then four lines of work side by side:
# - the real-time suites that measure timing or load every core (PlaybackTests), one after
#   another: the run's longest path;
# - the libFuzzer targets' build (scripts/fuzz.sh; a second when they are built already) at
#   the lowest priority (nice 19: from nothing it compiles for minutes, and at nice 5 beside
#   the first real-time tests it left a live camera's window 3.5 s behind), then at nice 5
#   all the parallel suites (FuzzTests runs those targets);
# - at nice 5, in two lines, the suites against real servers that go away and come back
#   (ServerPlaybackTests), one after another, and after the first half the real-time suites
#   that mostly wait (LightPlaybackTests: windows, commands), one after another: they wait on
#   the servers and windows, not on the cores (in one line, the servers' 730 s were the run's
#   longest path; after the parallel suites, the light ones made theirs the longest).
# In one process all of them shared Swift's thread pool, a thread per core: parallel tests
# waiting on ffmpeg held both threads for minutes while the real-time chain could not start.
# The parallel suites run two tests at a time, as many as the pool has threads: Swift Testing
# starts every test at once otherwise, and a test's time limit ran while it waited for a
# thread that tests blocked in ffmpeg held (a CI on a slow machine: a 3 s test stopped at its
# 60 s limit after 416 s, with dozens of others ending at the same moment).
# The one build here is the fuzzers' own package (Fuzz/.build), so no process waits for
# another's lock on .build. The lower priority keeps the first line's timing and its encoders
# (3 times slower beside the parallel suites at the same priority) undisturbed; the waiting
# suites use a fraction of a core. Each line says when it ended, in seconds of this script.
#   bash scripts/lib/run-suite.sh [swift test arguments]
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"
swift_test=(swift test -c release --skip-build --ignore-lock -Xswiftc -enable-testing)
if (($#)); then exec "${swift_test[@]}" "$@"; fi
# The test bundle itself rather than `swift test`, whose test process runs at priority 0
# whatever `nice` it was started with (seen in ps: the lines below all ran at 0).
bundle=("$(swift build -c release --show-bin-path)/ReelPackageTests.xctest" --testing-library swift-testing)
export NO_COLOR=1
# A test process still running after this many seconds has hung (each takes minutes): its
# threads' stacks are printed and it is stopped, so that a hang is a red run that shows
# where, not a CI timeout that shows nothing. The real-time chain takes ~15 minutes on
# this project's slowest machine, and 20 beside a flake hunt's two busy loops (one run was
# stopped at 1200 s, mid-test, with nothing hung).
limit=${REEL_TEST_PROCESS_LIMIT:-1800}
# tests NICENESS [test bundle arguments]
tests() {
  local niceness=$1
  shift
  nice -n "$niceness" "${bundle[@]}" "$@" &
  local pid=$!
  # A watcher that looks every second (a single long sleep would outlive a quick process
  # and hold this function for the whole limit).
  (
    for ((second = 0; second < limit; second++)); do
      kill -0 "$pid" 2>/dev/null || exit 0
      sleep 1
    done
    echo "run-suite: a test process ($*) still ran after $limit s; its threads:"
    gdb -p "$pid" -batch -ex "thread apply all bt" 2>&1 | grep -aE "^(Thread|#)|ptrace|denied|[Ee]rror" | grep -av " in ?? ()"
    # Its children too (servers, senders), which could hold this run's output open.
    pkill -9 -P "$pid"
    kill -9 "$pid"
  ) </dev/null &
  local watcher=$!
  local status=0
  wait "$pid" || status=$?
  wait "$watcher"
  return "$status"
}
# Every temporary file of the run (the tests' own directories, their servers' and players')
# in one directory, removed at the end: the tests do not remove theirs, and runs left
# 73 GB of them in /tmp on one machine, until its disk filled.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/reel-run-XXXXXX")
export TMPDIR=$run_tmp
trap 'rm -rf "$run_tmp" 2>/dev/null || true' EXIT
others=$(mktemp) servers=$(mktemp) more_servers=$(mktemp)
units='^ReelPlayerTests\.'
chain='^ReelIntegrationTests\.PlaybackTests/'
light='^ReelIntegrationTests\.LightPlaybackTests/'
server='^ReelIntegrationTests\.ServerPlaybackTests/'
# The server suites' first half, by their seconds in a CI run (the other half is the rest, so
# a new suite joins it): RTSP server 97, recording 78, talk-back 60, reconnect 44, faults 32,
# published streams 23, network 12, mpv IPC 5 — 351 of 729.
first_servers="^ReelIntegrationTests\.ServerPlaybackTests/(RTSPServerTests|RecordingTests|TalkBackTests|ReconnectTests|ServerFaultTests|PublishedStreamTests|PlayerNetworkTests|MPVIPCCommandTests)/"
status=0
tests 0 --filter "$units" || status=$?
ended() { echo "run-suite: $1 ended at $SECONDS s"; }
(
  status=0
  nice -n 19 bash scripts/fuzz.sh || status=$?
  ended "the fuzzers' build"
  tests 5 --experimental-maximum-parallelization-width 2 --skip "$units" --skip "$chain" --skip "$light" --skip "$server" || status=$?
  ended "the parallel suites"
  exit "$status"
) >"$others" 2>&1 &
beside=$!
(
  status=0
  tests 5 --filter "$first_servers" || status=$?
  ended "the servers' first half"
  tests 5 --filter "$light" || status=$?
  ended "the light real-time suites"
  exit "$status"
) >"$servers" 2>&1 &
serving=$!
(
  status=0
  tests 5 --filter "$server" --skip "$first_servers" || status=$?
  ended "the servers' second half"
  exit "$status"
) >"$more_servers" 2>&1 &
serving_more=$!
tests 0 --filter "$chain" || status=$?
ended "the real-time chain"
wait "$beside" || status=$?
wait "$serving" || status=$?
wait "$serving_more" || status=$?
# A run that passed has made every fixture the suite makes (scripts/flake-hunt.sh asks).
((status != 0)) || { mkdir -p .cache && touch .cache/suite-ran; }
echo "run-suite: the suites run beside the real-time chain:"
cat "$others"
echo "run-suite: the suites against real servers, run beside them (first half), then the light real-time suites:"
cat "$servers"
echo "run-suite: the suites against real servers, run beside them (second half):"
cat "$more_servers"
exit "$status"

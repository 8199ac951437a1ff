#!/usr/bin/env bash
# The sanitizers over the suite, outside the default run (each build takes a while).
#   bash scripts/sanitize.sh [thread|address|leak|all] [extra swift test arguments...]
# thread:  the whole suite built with ThreadSanitizer (.build-tsan). Every process the tests
#          start from the build (reel, the examples) is instrumented too.
# address: the whole suite (core and integration) with AddressSanitizer, and
#          UndefinedBehaviorSanitizer on the C that clang compiles (.build-asan).
# leak:    LeakSanitizer on 40 cycles of a player that opens, plays, seeks, reopens for an
#          audio track and stops (reel-bench player-cycles, from the address build).
# Reports go to one file per process under .cache/sanitize/KIND (log_path), not to the
# stderr the tests read. The verdict is on those reports: none, or only those the
# `explained` list below accounts for, with its evidence. Test failures are listed apart:
# under a sanitizer everything runs several times slower, and some tests measure real time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
kind=${1:-all}
shift || true
bash scripts/setup.sh
bash scripts/fuzz.sh   # the regression inputs the suite replays need the fuzz targets
logs=$PWD/.cache/sanitize
verdict=0

# Reports that are the toolchain's, not Reel's, each with its evidence. A report file is
# set aside when it matches every pattern of an entry.
#  - libavformat's UDP protocol reads in a thread of its own (the circular buffer) and ends
#    it with pthread_cancel in udp_close; the cancelled thread unwinds out of a blocking
#    interceptor that had set TSan's ignores, and TSan dies with "thread finished with
#    ignores enabled" (google/sanitizers#646, llvm-project#155399 for the same unwinding).
#    The report's thread is created in libavformat under Demuxer's avformat_open_input of
#    a udp:// URL; `reel probe udp://…` exits with TSan's status 66 when the probe closes.
explained=("finished with ignores enabled&libavformat&ReelFFmpeg7Demuxer|libavformat's UDP thread ended by pthread_cancel (google/sanitizers#646)")

# Reports in DIR: prints the explained ones and a line per distinct other report; returns 1
# if there are others.
summarise() {
  local dir=$1 name=$2 file entry patterns pattern matched others=()
  for file in "$dir"/report.*; do
    [ -e "$file" ] || continue
    matched=""
    for entry in "${explained[@]}"; do
      IFS='&' read -ra patterns <<<"${entry%%|*}"
      matched="${entry#*|}"
      for pattern in "${patterns[@]}"; do grep -q -- "$pattern" "$file" || { matched=""; break; }; done
      [ -n "$matched" ] && break
    done
    if [ -n "$matched" ]; then echo "$name: explained, $(basename "$file"): $matched"; else others+=("$file"); fi
  done
  if ((${#others[@]} == 0)); then
    echo "$name: no other reports"
    return 0
  fi
  echo "$name: reports in ${#others[@]} process(es); distinct kinds and places:"
  grep -hE "^(WARNING|ERROR): (ThreadSanitizer|AddressSanitizer|LeakSanitizer)|runtime error:|^SUMMARY:|finished with ignores" "${others[@]}" \
    | sed -E 's/0x[0-9a-f]+/ADDR/g; s/ \(pid=[0-9]+\)//' | sort | uniq -c | sort -rn | head -40
  return 1
}

suite() {
  local sanitizers=() scratch=$2 dir=$3 name
  for name in $1; do
    # Swift has no UBSan (its own arithmetic and bounds checks trap in every build); it
    # goes to the C that clang compiles: the shims' inline functions and C dependencies.
    if [[ $name == undefined ]]; then sanitizers+=(-Xcc -fsanitize=undefined); else sanitizers+=("--sanitize=$name"); fi
  done
  shift 3
  rm -rf "$dir"; mkdir -p "$dir"
  swift build -c release --build-tests -Xswiftc -enable-testing "${sanitizers[@]}" --scratch-path "$scratch" 2>&1 | tail -3
  local status=0 log=$dir/suite.log
  swift test -c release --skip-build -Xswiftc -enable-testing --scratch-path "$scratch" "$@" >"$log" 2>&1 || status=$?
  echo "suite: $(grep -aE 'Test run with [0-9]+ tests' "$log" | tail -1 | sed 's/^.*Test run/Test run/')"
  if ((status != 0)); then
    echo "failed tests (exit $status):"
    grep -aE "^✘ (Test|Suite) " "$log" | grep -av "Test run with" | sed 's/ recorded an issue.*//' | sort -u | head -30
  fi
}

if [[ $kind == thread || $kind == all ]]; then
  echo "== ThreadSanitizer, whole suite"
  export TSAN_OPTIONS="log_path=$logs/thread/report:second_deadlock_stack=1"
  suite thread .build-tsan "$logs/thread" "$@"
  unset TSAN_OPTIONS
  summarise "$logs/thread" ThreadSanitizer || verdict=1
fi

if [[ $kind == address || $kind == all || $kind == leak ]]; then
  export ASAN_OPTIONS="log_path=$logs/address/report:detect_leaks=0"
  export UBSAN_OPTIONS="log_path=$logs/address/report:print_stacktrace=1"
  if [[ $kind != leak ]]; then
    echo "== AddressSanitizer and UndefinedBehaviorSanitizer, whole suite"
    suite "address undefined" .build-asan "$logs/address" "$@"
    summarise "$logs/address" "AddressSanitizer+UBSan" || verdict=1
  fi
fi

if [[ $kind == leak || $kind == all ]]; then
  echo "== LeakSanitizer, 40 cycles of open, play, seek, seek exact, reopen, stop"
  rm -rf "$logs/leak"; mkdir -p "$logs/leak"
  swift build -c release --build-tests -Xswiftc -enable-testing --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan 2>&1 | tail -1
  clip=$logs/leak/clip.mp4
  ffmpeg -v error -nostdin -y -f lavfi -i "testsrc2=size=640x360:rate=25:duration=4" -f lavfi -i "sine=frequency=440:duration=4" \
    -c:v libx264 -preset veryfast -g 25 -pix_fmt yuv420p -c:a aac "$clip"
  # The leak report comes at exit, on stderr (log_path is not honoured for it here).
  ASAN_OPTIONS="detect_leaks=1" .build-asan/release/reel-bench player-cycles "$clip" 40 2>"$logs/leak/report.cycles" \
    || echo "player-cycles: exit $?"
  [ -s "$logs/leak/report.cycles" ] || rm -f "$logs/leak/report.cycles"
  summarise "$logs/leak" LeakSanitizer || verdict=1
fi

((verdict == 0)) && echo "sanitize: clean" || echo "sanitize: reports above (files under $logs)"
exit "$verdict"

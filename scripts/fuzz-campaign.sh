#!/usr/bin/env bash
# Runs one libFuzzer target offline for RUNS inputs (default 10 million):
#   bash scripts/fuzz-campaign.sh ReelFuzzRTP 10000000
# Targets: the executables in Fuzz/Sources (docs/fuzzing.md says what each reads, and
# holds the campaigns' rows); scripts/fuzz-campaigns.sh runs several.
# The corpus grows in .cache/fuzz/TARGET across campaigns; it starts from the seeds the
# suite's smoke runs make from real inputs (made once, into .cache/fuzz-seeds), the
# target's dictionary and its regressions (Fuzz/Regressions). An input that fails is
# written to .cache/fuzz/TARGET-artifacts/: fix the bug, then keep the input under
# Fuzz/Regressions/NAME so the suite replays it. Not part of the default run.
# FUZZ_MAX_LEN (default 65536) caps an input's size: text formats such as playlists reach
# the same coverage with 4096 at four times the speed.
# The last line is the campaign's row for docs/fuzzing.md: runs, seconds, corpus, coverage
# (libFuzzer's cov and ft), the commit fuzzed and the command.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
target=${1:?usage: fuzz-campaign.sh TARGET [RUNS]}
runs=${2:-10000000}
max_len=${FUZZ_MAX_LEN:-65536}
name=${target#ReelFuzz}
[ -d "Fuzz/Sources/$target" ] || { echo "fuzz-campaign: no target $target in Fuzz/Sources" >&2; exit 2; }

bash scripts/setup.sh >&2
bash scripts/fuzz.sh
seeds=.cache/fuzz-seeds
if [ ! -d "$seeds/$target" ]; then
  echo "fuzz-campaign: making the seed corpora (the suite's fuzz smoke runs)" >&2
  bash scripts/build-tests.sh >&2
  REEL_FUZZ_CORPORA="$PWD/$seeds" swift test -c release --skip-build -Xswiftc -enable-testing --filter FuzzTests >&2
fi
corpus=.cache/fuzz/$target
artifacts=.cache/fuzz/$target-artifacts
mkdir -p "$corpus" "$artifacts"
dictionary=()
[ -f "Fuzz/Dictionaries/$target.dict" ] && dictionary=("-dict=Fuzz/Dictionaries/$target.dict")
regressions=()
[ -d "Fuzz/Regressions/$name" ] && regressions=("Fuzz/Regressions/$name")

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
SWIFT_BACKTRACE=enable=no "Fuzz/.build/release/$target" -runs="$runs" -rss_limit_mb=2048 -timeout=10 -max_len="$max_len" -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "${dictionary[@]}" "$corpus" "$seeds/$target" "${regressions[@]}" 2>"$log" || status=$?
done_line=$(grep -a "^Done " "$log" | tail -1 || true)
failures=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \) | wc -l)
corpus_size=$(find "$corpus" -type f | wc -l)
echo "fuzz-campaign $target: ${done_line:-no summary (exit $status)}; corpus $corpus_size inputs; $failures failing inputs in $artifacts"
if ((status != 0)); then tail -40 "$log" >&2; fi
# "#123 DONE cov: 1811 ft: 7420 corp: 910/212Kb ..." and "Done 10000000 runs in 1234 second(s)".
coverage=$(grep -aE "^#[0-9]+.*(DONE|cov:)" "$log" | tail -1 | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 \2/p')
read -r done_runs done_seconds < <(sed -nE 's/^Done ([0-9]+) runs in ([0-9]+) second.*/\1 \2/p' <<<"$done_line" | tail -1) || true
read -r cov ft <<<"${coverage:-- -}" || true
echo "| $target | ${done_runs:--} | ${done_seconds:--} | $corpus_size | ${cov:--} | ${ft:--} | $failures | $(git rev-parse --short HEAD) | \`FUZZ_MAX_LEN=$max_len bash scripts/fuzz-campaign.sh $target $runs\` |"
exit "$status"

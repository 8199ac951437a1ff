#!/usr/bin/env bash
# Runs scripts/fuzz-campaign.sh on several targets, JOBS at a time (default 2, one a core),
# and prints docs/fuzzing.md's rows for them, in the order given:
#   bash scripts/fuzz-campaigns.sh 10000000                  # every target in Fuzz/Sources
#   JOBS=1 bash scripts/fuzz-campaigns.sh 10000000 ReelFuzzRTP ReelFuzzVAP
# Text formats (playlists, manifests, RTSP, JSON, SDP) are fuzzed with inputs of up to
# 4 KiB, as long as any such message a server sends, at several times the speed of 64 KiB;
# binary ones (MP4 boxes, RTP, parameter sets, Annex B, framing) with up to 64 KiB.
# Each campaign's log is kept in .cache/fuzz/TARGET.log. Exits non-zero when one failed.
# Not part of the default run: 10 million runs of every target take hours.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000000}
shift || true
jobs=${JOBS:-2}
targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(ls Fuzz/Sources)
fi
text_formats=" ReelFuzzCameraPath ReelFuzzIPC ReelFuzzManifests ReelFuzzPlaylist ReelFuzzRTSP ReelFuzzRecordings ReelFuzzWebRTC ReelFuzzY4M "

# Built and seeded once, before campaigns start side by side.
bash scripts/fuzz.sh
if [ ! -d .cache/fuzz-seeds/"${targets[0]}" ]; then
  bash scripts/fuzz-campaign.sh "${targets[0]}" 1 >/dev/null
fi
mkdir -p .cache/fuzz

campaign() {
  local target=$1 max_len=65536
  [[ $text_formats == *" $target "* ]] && max_len=4096
  if FUZZ_MAX_LEN=$max_len bash scripts/fuzz-campaign.sh "$target" "$runs" >".cache/fuzz/$target.log" 2>&1; then
    echo "fuzz-campaigns: $target done" >&2
  else
    echo "fuzz-campaigns: $target FAILED (see .cache/fuzz/$target.log)" >&2
  fi
}
export -f campaign
export runs text_formats
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'campaign {}'

status=0
echo "| Target | Runs | Seconds | Corpus | cov | ft | Failing inputs | Commit | Command |"
echo "|---|---|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
  row=$(grep -a '^| ReelFuzz' ".cache/fuzz/$target.log" | tail -1 || true)
  echo "${row:-| $target | no row: see .cache/fuzz/$target.log |}"
  failing=$(awk -F'|' '{gsub(/ /, "", $8); print $8}' <<<"$row")
  grep -aq "^fuzz-campaign $target: Done" ".cache/fuzz/$target.log" && [ "$failing" = 0 ] || status=1
done
exit "$status"

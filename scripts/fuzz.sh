#!/usr/bin/env bash
# Builds the libFuzzer targets (a package of their own, Fuzz/) and, given a target name
# and arguments, runs it: bash scripts/fuzz.sh ReelFuzzVAP -max_total_time=60 CORPUS
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
swift build --package-path Fuzz --sanitize=fuzzer -c release -Xswiftc -enable-testing >&2
if (($#)); then
  target=$1
  shift
  SWIFT_BACKTRACE=enable=no exec Fuzz/.build/release/"$target" "$@"
fi

#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite. Tests build optimised
# (with testing enabled for @testable imports): pixel work in unoptimised Swift runs some
# hundred times slower, and the tests compare whole videos with ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
bash scripts/setup.sh
swift build -c release --build-tests -Xswiftc -enable-testing
bash scripts/fuzz.sh   # the libFuzzer targets the suite runs
bash scripts/docs.sh   # the DocC catalogs, which fail on any warning
swift test -c release --skip-build -Xswiftc -enable-testing "$@"

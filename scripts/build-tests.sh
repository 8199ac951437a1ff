#!/usr/bin/env bash
# The one build of the package and its tests that the test, docs, flake-hunt and fuzz
# scripts share (their flags must agree, or each would rebuild everything): optimised,
# with testing enabled for @testable imports, and with each module's public symbol graph
# written to .build/symbol-graphs as it compiles, which scripts/docs.sh turns into DocC
# archives without the debug build of every dependency that swift-docc-plugin would make.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
graphs="$PWD/.build/symbol-graphs"
mkdir -p "$graphs"
swift build -c release --build-tests -Xswiftc -enable-testing \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" -Xswiftc -emit-extension-block-symbols "$@"

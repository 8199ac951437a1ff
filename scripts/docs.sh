#!/usr/bin/env bash
# Builds the DocC documentation of Reel and ReelCore with swift-docc-plugin, failing on any
# warning (a broken symbol link, an undocumented parameter): `bash scripts/docs.sh [OUT]`
# writes the archives to OUT (default .build/docs). The tests run it (DocumentationTests).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
out=${1:-.build/docs}
mkdir -p "$out"
for target in ReelCore Reel; do
  swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
    --output-path "$out/$target.doccarchive" --analyze --warnings-as-errors
done

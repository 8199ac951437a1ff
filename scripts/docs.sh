#!/usr/bin/env bash
# Builds the DocC documentation of Reel's library products with swift-docc-plugin, failing
# on any warning (a broken symbol link, an undocumented parameter), and fails when a public
# symbol of the library modules has no doc comment: `bash scripts/docs.sh [OUT]` writes the
# archives to OUT (default .build/docs). The test command (scripts/test.sh) runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
out=${1:-.build/docs}
mkdir -p "$out"
for target in ReelCore Reel ReelSDL; do
  swift package --allow-writing-to-directory "$out" generate-documentation --target "$target" \
    --output-path "$out/$target.doccarchive" --analyze --warnings-as-errors
done
# Reel re-exports ReelFFmpeg and ReelText, so their public symbols are Reel's API too.
# dump-symbol-graph also tries the test modules, which fail unless built; the check below
# fails on its own when a library module's graph is missing.
graphs="$(swift build --show-bin-path)/../symbolgraph"
rm -rf "$graphs"
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
python3 scripts/undocumented-symbols.py "$graphs"

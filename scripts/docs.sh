#!/usr/bin/env bash
# Builds the DocC documentation of Reel's library products, failing on any warning (a
# broken symbol link, an undocumented parameter), and fails when a public symbol of the
# library modules has no doc comment: `bash scripts/docs.sh [OUT]` writes the archives to
# OUT (default .build/docs). The symbol graphs come from the test build
# (scripts/build-tests.sh), so docs cost seconds after it; `swift package
# generate-documentation --target Reel` (swift-docc-plugin) gives the same archives.
# The test command (scripts/test.sh) runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
out=${1:-.build/docs}
graphs=.build/symbol-graphs
bash scripts/build-tests.sh >&2
mkdir -p "$out"
for target in ReelCore Reel ReelSDL; do
  # A catalog sees its module's graph and the extensions it makes to others' types.
  own=$(mktemp -d)
  for graph in "$graphs/$target.symbols.json" "$graphs/$target"@*.symbols.json; do [ -e "$graph" ] && cp "$graph" "$own/"; done
  rm -rf "$out/$target.doccarchive"
  docc convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$own" --output-path "$out/$target.doccarchive" \
    --fallback-display-name "$target" --fallback-bundle-identifier "$target" --analyze --warnings-as-errors
  rm -rf "$own"
done
# Reel re-exports ReelFFmpeg and ReelText, so their public symbols are Reel's API too.
python3 scripts/undocumented-symbols.py "$graphs"

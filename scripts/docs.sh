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
# scripts/test.sh, which builds first, runs this beside the tests: no second build there
# to take .build's lock from them.
[ -n "${REEL_DOCS_SKIP_BUILD:-}" ] || bash scripts/build-tests.sh >&2
mkdir -p "$out"
parts="ReelPlayer ReelRTP ReelEncoding ReelVAP ReelPanorama"
for target in ReelCore Reel ReelSDL; do
  # A catalog sees its module's graph and the extensions it makes to others' types; the
  # umbrella Reel's are those of the products it re-exports, under its name.
  own=$(mktemp -d)
  if [ "$target" = Reel ]; then
    python3 scripts/lib/merge-symbol-graphs.py "$graphs" "$own" Reel $parts
  else
    for graph in "$graphs/$target.symbols.json" "$graphs/$target"@*.symbols.json; do [ -e "$graph" ] && cp "$graph" "$own/"; done
  fi
  rm -rf "$out/$target.doccarchive"
  docc convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$own" --output-path "$out/$target.doccarchive" \
    --fallback-display-name "$target" --fallback-bundle-identifier "$target" --analyze --warnings-as-errors
  rm -rf "$own"
done
# The products re-export ReelFFmpeg, ReelGStreamer and ReelText, so their public symbols are API too.
python3 scripts/undocumented-symbols.py "$graphs"

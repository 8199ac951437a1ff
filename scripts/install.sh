#!/usr/bin/env bash
# Installs the reel command, its shell completions (bash, zsh, fish) and its manual page:
#   bash scripts/install.sh               # under /usr/local: then `man reel`, `reel <Tab>`
#   bash scripts/install.sh ~/.local      # any prefix
# REEL_BIN=path installs that binary instead of building one (release).
# Completions come from argument-parser's --generate-completion-script, the manual from its
# generate-manual tool, built alone from the package's own copy of argument-parser.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
prefix=${1:-/usr/local}

bash scripts/setup.sh
if [ -z "${REEL_BIN:-}" ]; then
  swift build -c release --product reel
  REEL_BIN="$(swift build -c release --show-bin-path)/reel"
fi

# The tool is built from a copy, in a folder of its own: the package's checkout and build
# folder stay as SwiftPM left them (a test may be running from them).
tools=.build-tools
parser=.build/checkouts/swift-argument-parser
[ -d "$parser" ] || swift package resolve
if [ ! -x "$tools/build/release/generate-manual" ]; then
  rm -rf "$tools/src"
  mkdir -p "$tools"
  cp -R "$parser" "$tools/src"
  swift build -c release --package-path "$tools/src" --scratch-path "$tools/build" --product generate-manual
fi

share="$prefix/share"
install -d "$prefix/bin" "$share/man/man1" "$share/bash-completion/completions" \
  "$share/zsh/site-functions" "$share/fish/vendor_completions.d"
install -m 755 "$REEL_BIN" "$prefix/bin/reel"
"$REEL_BIN" --generate-completion-script bash >"$share/bash-completion/completions/reel"
"$REEL_BIN" --generate-completion-script zsh >"$share/zsh/site-functions/_reel"
"$REEL_BIN" --generate-completion-script fish >"$share/fish/vendor_completions.d/reel.fish"
"$tools/build/release/generate-manual" "$REEL_BIN" --output-directory "$share/man/man1"
echo "install: reel $("$REEL_BIN" --version | head -1 | cut -d' ' -f2) in $prefix/bin, its manual page and bash, zsh and fish completions under $share"

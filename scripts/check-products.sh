#!/usr/bin/env bash
# Each library product built alone, from scratch, optimised (issue 22): users pay only for
# what they import. For every product, its target (`swift build --target`: `--product` of
# an automatic library product builds the whole package) in an empty build directory,
# timed, with the modules it compiled; only ReelRTP and the umbrella Reel may compile
# SwiftNIO. Then a throwaway package whose only
# dependency is the ReelPlayer product (scripts/products/main.swift: probe a file, play it
# headless with a frame tap), built from scratch, timed, run, and its frame count compared
# with ffprobe's. Long (minutes per product): not part of the test command.
#   bash scripts/check-products.sh                    # every product
#   PRODUCTS="ReelPlayer" bash scripts/check-products.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
heavy='^(NIO[A-Za-z0-9]*|CNIO[A-Za-z0-9]*|AsyncHTTPClient)$'
products=${PRODUCTS:-ReelCore ReelPlayer ReelRTP ReelEncoding ReelVAP ReelPanorama ReelSDL Reel}
failed=0

# The modules a build directory compiled, one per line: Swift modules, and targets with
# object files (SwiftPM makes a folder for every target of the graph while planning).
modules_built() {
  { ls "$1/release/Modules" 2>/dev/null | sed -n 's/\.swiftmodule$//p'
    for dir in "$1"/release/*.build; do
      if [ -n "$(find "$dir" -name '*.o' -print -quit 2>/dev/null)" ]; then basename "$dir" .build; fi
    done; } | sort -u
}

# The SwiftNIO-family modules a build directory compiled, on one line (empty when none).
heavy_in() { modules_built "$1" | grep -E "$heavy" | tr '\n' ' ' || true; }

# Runs a build (the command after LOG), timed: sets $seconds; when it fails, prints its
# errors and returns false.
timed_build() {
  local log=$1 start; shift
  start=$(date +%s.%N)
  "$@" > "$log" 2>&1 || { grep -m 20 'error:' "$log" >&2; return 1; }
  seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
}

printf "| %-13s | %8s | %-7s | %s |\n" product seconds modules "SwiftNIO"
for product in $products; do
  build=$work/build-$product
  # Resolved first: the time is compiling, not cloning.
  swift package resolve --build-path "$build" >/dev/null 2>&1
  if ! timed_build "$work/$product.log" swift build -c release --target "$product" --build-path "$build"; then
    echo "check-products: $product does not build alone" >&2; failed=1; continue
  fi
  heavy_found=$(heavy_in "$build")
  count=$(modules_built "$build" | wc -l)
  printf "| %-13s | %8s | %-7s | %s |\n" "$product" "$seconds" "$count" "${heavy_found:-none}"
  case $product in
    ReelRTP|Reel) [ -n "$heavy_found" ] || { echo "check-products: $product was expected to compile NIO" >&2; failed=1; } ;;
    *) [ -z "$heavy_found" ] || { echo "check-products: $product compiled $heavy_found" >&2; failed=1; } ;;
  esac
  rm -rf "$build"
done

# A new user's package on the player product alone.
user=$work/player-only
mkdir -p "$user/Sources/PlayerOnly"
cp scripts/products/main.swift "$user/Sources/PlayerOnly/main.swift"
cat > "$user/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "PlayerOnly",
    dependencies: [.package(name: "Reel", path: "$root")],
    targets: [.executableTarget(name: "PlayerOnly", dependencies: [.product(name: "ReelPlayer", package: "Reel")])]
)
SWIFT
(cd "$user" && swift package resolve >/dev/null 2>&1)
timed_build "$work/player-only.log" swift build -c release --package-path "$user" || { echo "check-products: the player-only package does not build" >&2; exit 1; }
heavy_found=$(heavy_in "$user/.build")
echo "player-only package: built from scratch in ${seconds} s, $(modules_built "$user/.build" | wc -l) modules, heavy: ${heavy_found:-none}"
[ -z "$heavy_found" ] || { echo "check-products: the player-only package compiled $heavy_found" >&2; failed=1; }

clip=$work/clip.mp4
ffmpeg -v error -f lavfi -i testsrc2=size=320x240:rate=25 -f lavfi -i sine=frequency=440 -t 2 -c:v libx264 -c:a aac "$clip"
expected=$(ffprobe -v error -select_streams v -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$clip")
seen=$("$user/.build/release/PlayerOnly" "$clip")
echo "player-only package ran: $seen (ffprobe: $expected frames)"
[ "$seen" = "streams 2 frames $expected" ] || { echo "check-products: expected 'streams 2 frames $expected'" >&2; failed=1; }
exit $failed

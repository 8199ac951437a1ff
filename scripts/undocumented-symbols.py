#!/usr/bin/env python3
"""Lists the public symbols of Reel's library modules that have no doc comment, as
file:line, from the symbol graphs the compiler writes (scripts/build-tests.sh); exits 1
when there is any. Symbols without a place in the sources (synthesized conformances such
as `init(rawValue:)` or `hash(into:)`) are left out: there is nothing to write them on;
so are extension blocks, whose members carry the comments, and implementations of a
protocol's requirements, which inherit the protocol's comment.

Usage: undocumented-symbols.py SYMBOLGRAPH_DIR [MODULE ...]"""
import json
import os
import sys

directory = sys.argv[1]
modules = sys.argv[2:] or ["ReelCore", "ReelFFmpeg", "ReelGStreamer", "ReelText", "ReelSubtitles", "ReelDBus",
                              "ReelPlayer", "ReelRTP", "ReelEncoding", "ReelVAP", "ReelPanorama", "ReelSDL"]
if not os.path.isdir(directory):
    print(f"no symbol graphs in {directory}", file=sys.stderr)
    sys.exit(2)
missing = set()
for name in sorted(os.listdir(directory)):
    module = name.split("@")[0].removesuffix(".symbols.json")
    if not name.endswith(".symbols.json") or module not in modules:
        continue
    with open(os.path.join(directory, name)) as file:
        graph = json.load(file)
    # A protocol requirement's implementation inherits its documentation.
    inherited = {relation["source"] for relation in graph["relationships"] if "sourceOrigin" in relation}
    for symbol in graph["symbols"]:
        location = symbol.get("location")
        if location is None or symbol["kind"]["identifier"] == "swift.extension" or symbol.get("docComment") \
                or symbol["identifier"]["precise"] in inherited or symbol["accessLevel"] not in ("public", "open"):
            continue
        path = location["uri"].removeprefix("file://")
        path = os.path.relpath(path) if path.startswith("/") else path
        missing.add((path, location["position"]["line"] + 1, symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])))

absent = [module for module in modules if not os.path.exists(os.path.join(directory, module + ".symbols.json"))]
if absent:
    print(f"no symbol graph for {', '.join(absent)} in {directory}", file=sys.stderr)
    sys.exit(2)

for path, line, kind, name in sorted(missing):
    print(f"{path}:{line}: {kind} {name} has no doc comment")
print(f"{len(missing)} public symbols without a doc comment in {', '.join(modules)}", file=sys.stderr)
sys.exit(1 if missing else 0)

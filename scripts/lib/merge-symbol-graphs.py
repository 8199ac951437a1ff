#!/usr/bin/env python3
"""Writes one symbol graph per file kind for the umbrella module out of its parts: the
`Reel` product re-exports ReelPlayer, ReelRTP, ReelEncoding, ReelVAP and ReelPanorama, so
its documentation is theirs under one module name (DocC documents one module per
archive, and the articles link symbols of every part).

Usage: merge-symbol-graphs.py GRAPH_DIR OUT_DIR UMBRELLA PART [PART ...]"""
import json
import os
import sys

directory, out, umbrella, parts = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
merged = {}  # extended module ("" for the parts' own symbols) -> graph
for name in sorted(os.listdir(directory)):
    if not name.endswith(".symbols.json"):
        continue
    module, _, extended = name.removesuffix(".symbols.json").partition("@")
    if module not in parts:
        continue
    # An extension of another part's type is the umbrella's own symbol once merged.
    key = "" if extended in parts else extended
    with open(os.path.join(directory, name)) as file:
        graph = json.load(file)
    if extended in parts:
        graph["symbols"] = [symbol for symbol in graph["symbols"] if symbol["kind"]["identifier"] != "swift.extension"]
        graph["relationships"] = [relation for relation in graph["relationships"] if relation["kind"] != "extensionTo"]
    target = merged.setdefault(key, {"metadata": graph["metadata"], "module": dict(graph["module"], name=umbrella),
                                     "symbols": [], "relationships": []})
    target["symbols"] += graph["symbols"]
    target["relationships"] += graph["relationships"]
os.makedirs(out, exist_ok=True)
for extended, graph in merged.items():
    name = f"{umbrella}@{extended}.symbols.json" if extended else f"{umbrella}.symbols.json"
    with open(os.path.join(out, name), "w") as file:
        json.dump(graph, file)

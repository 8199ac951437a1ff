#!/usr/bin/env python3
"""Checks the package's layers and products from its manifest, in seconds: what each
library product pulls in (its targets' dependencies, transitively) against the rules of
the architecture page. `scripts/check-products.sh` builds every product alone and is the
slow proof; this is the check CI runs on every change.

  swift package dump-package | python3 scripts/check-boundaries.py          # the package
  python3 scripts/check-boundaries.py --self-test < dump.json               # each rule can fail
"""
import copy
import json
import sys

NIO = "swift-nio"
C_MODULES = {"CFFmpeg", "CSDL2", "CSRTP", "CSocket", "CFreeType", "CLibass", "CGStreamer", "CGio"}
DOMAIN = {"ReelRTP", "ReelEncoding", "ReelVAP", "ReelPanorama"}
KERNELS = "ReelPixelKernels"
ADAPTERS = {"ReelFFmpeg", "ReelGStreamer", "ReelSDL", "ReelText", "ReelSubtitles", "ReelDBus"}


def graph(package):
    """Each target's direct dependencies: ('target', name) or ('product', name, package)."""
    edges = {}
    for target in package["targets"]:
        deps = []
        for dependency in target["dependencies"]:
            if "byName" in dependency:
                deps.append(("target", dependency["byName"][0]))
            elif "target" in dependency:
                deps.append(("target", dependency["target"][0]))
            elif "product" in dependency:
                deps.append(("product", dependency["product"][0], dependency["product"][1]))
        edges[target["name"]] = deps
    return edges


def closure(edges, start):
    """Every target and external product reachable from `start` (itself included)."""
    seen, stack = set(), [("target", start)]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node[0] == "target":
            stack.extend(edges.get(node[1], []))
    return seen


def violations(package):
    edges = graph(package)
    products = {p["name"]: p["targets"] for p in package["products"] if "library" in p["type"]}
    found = []

    def reach(name):
        return closure(edges, name)

    def targets(nodes):
        return {node[1] for node in nodes if node[0] == "target"}

    # SwiftNIO only through ReelRTP: the other products must not make their users build it.
    for product, roots in products.items():
        if product in ("ReelRTP", "Reel"):
            continue
        for root in roots:
            nio = sorted(node[1] for node in reach(root) if node[0] == "product" and node[2] == NIO)
            if nio:
                found.append(f"product {product} pulls SwiftNIO ({', '.join(nio)}); only ReelRTP may")
    # Layer 1: the core depends on nothing but its own C kernels, which depend on nothing.
    core = [edge for edge in edges.get("ReelCore", []) if edge != ("target", KERNELS)]
    if core or edges.get(KERNELS):
        found.append(f"ReelCore depends on {core or edges[KERNELS]}; the core is Swift and its own kernels, with no dependency")
    # Layer 2: adapters never reach the player or a domain product.
    for adapter in sorted(ADAPTERS):
        above = targets(reach(adapter)) & ({"ReelPlayer", "Reel"} | DOMAIN)
        if above:
            found.append(f"adapter {adapter} depends on {sorted(above)}, a layer above it")
    # Layer 3: the player core reaches no domain product and no window (SDL is the CLI's).
    above = targets(reach("ReelPlayer")) & (DOMAIN | {"Reel", "ReelSDL", "CSDL2"})
    if above:
        found.append(f"ReelPlayer depends on {sorted(above)}; products build on the player, not the other way")
    # Domain products stand beside each other.
    for product in sorted(DOMAIN):
        others = targets(reach(product)) & (DOMAIN - {product})
        if others:
            found.append(f"{product} depends on {sorted(others)}; domain products stand beside each other")
    # The C modules are reached through their adapters by users of the library products.
    for product, roots in products.items():
        for root in roots:
            unknown = targets(reach(root)) - set(edges) - C_MODULES
            if unknown:
                found.append(f"product {product} names targets the package does not have: {sorted(unknown)}")
    return found


def self_test(package):
    """Each rule, broken on purpose in a copy of the manifest, must be reported."""
    def add(target, dependency):
        broken = copy.deepcopy(package)
        for entry in broken["targets"]:
            if entry["name"] == target:
                entry["dependencies"].append(dependency)
        return broken

    cases = {
        "NIO in ReelPlayer": add("ReelPlayer", {"product": ["NIOCore", NIO, None, None]}),
        "the core depends on FFmpeg": add("ReelCore", {"byName": ["CFFmpeg", None]}),
        "the core's kernels depend on FFmpeg": add(KERNELS, {"byName": ["CFFmpeg", None]}),
        "an adapter reaches the player": add("ReelFFmpeg", {"byName": ["ReelPlayer", None]}),
        "the player reaches a domain product": add("ReelPlayer", {"byName": ["ReelVAP", None]}),
        "the player reaches SDL": add("ReelPlayer", {"byName": ["ReelSDL", None]}),
        "one domain product reaches another": add("ReelEncoding", {"byName": ["ReelRTP", None]}),
    }
    failed = 0
    for name, broken in cases.items():
        if not violations(broken):
            print(f"check-boundaries self-test: '{name}' was not reported")
            failed += 1
    return failed, len(cases)


def main():
    package = json.load(sys.stdin)
    if "--self-test" in sys.argv:
        failed, cases = self_test(package)
        print(f"check-boundaries self-test: {cases - failed} passed, {failed} failed")
        return 1 if failed else 0
    found = violations(package)
    for line in found:
        print(f"check-boundaries: {line}")
    products = [p["name"] for p in package["products"] if "library" in p["type"]]
    print(f"check-boundaries: {len(products)} library products, {len(package['targets'])} targets, "
          f"{'no' if not found else len(found)} violation{'s' if len(found) != 1 else ''}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

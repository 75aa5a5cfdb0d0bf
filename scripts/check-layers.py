#!/usr/bin/env python3
"""Checks that the layers of DESIGN.md only include downward.

Every #include "..." of a project header in mc/, engine/, report/, abstraction/, fabricate/, chc/,
cover/ and testgen/ must name a header of the file's own layer or of a layer below it. A layer includes
what its CMake library links (CMakeLists.txt), and no more: for instance mc/smt does not see
mc/exec, and the engines (fabricate/, chc/, cover/, testgen/) do not see each other or engine/
and mc/cli above them.

usage: check-layers.py [ROOT]    (exit 1 and one line per offending include)
"""

import os
import re
import sys

# Each layer and the layers it may include directly (the closure is taken below).
LAYERS = {
    "mc/expr": [],
    "mc/lang": ["mc/expr"],
    "mc/ir": ["mc/lang"],
    "mc/dve": ["mc/ir"],
    "mc/horn": ["mc/ir"],
    "mc/frontends": ["mc/dve", "mc/horn"],
    "mc/exec": ["mc/ir", "include/tandem"],
    "mc/smt": ["mc/ir"],
    "mc/search": ["mc/exec"],
    "mc/symbolic": ["mc/search", "mc/smt"],
    "abstraction": ["mc/symbolic"],
    "fabricate": ["abstraction"],
    "chc": ["abstraction"],
    "refine": ["fabricate", "chc"],
    "cover": ["mc/symbolic"],
    "testgen": ["mc/symbolic"],
    "report": ["fabricate", "cover", "testgen"],
    "engine": ["report", "fabricate", "refine", "chc", "cover", "testgen", "mc/frontends"],
    "mc/cli": ["engine"],
    "mc": ["mc/cli"],  # mc/main.cpp
    "include/tandem": [],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def closure(layer, seen=None):
    seen = set() if seen is None else seen
    for below in LAYERS[layer]:
        if below not in seen:
            seen.add(below)
            closure(below, seen)
    return seen


def layer_of(path):
    """The longest layer name that is a folder prefix of `path` (relative, with slashes)."""
    best = None
    for layer in LAYERS:
        if os.path.dirname(path) == layer or path.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    problems, checked = [], 0
    for top in ("mc", "engine", "report", "abstraction", "fabricate", "chc", "cover", "testgen",
                "include"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                layer = layer_of(rel)
                if layer is None:
                    problems.append(f"{rel}: in no layer of scripts/check-layers.py")
                    continue
                allowed = closure(layer) | {layer}
                checked += 1
                with open(os.path.join(root, rel), encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = layer_of(m.group(1))
                        if target is None or target in allowed:
                            continue
                        problems.append(f"{rel}:{lineno}: layer {layer} includes "
                                        f"{m.group(1)} of layer {target}, which is not below it")
    for p in problems:
        print(p)
    print(f"check-layers: {checked} files, {len(problems)} includes against the layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

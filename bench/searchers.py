#!/usr/bin/env python3
"""The searchers on symbolic test generation: labels covered within a state budget.

For each model and each --search strategy, `tandem testgen` runs with --max-states N for a few N
and the table shows how many of the model's labels the tests cover (and which). It is the
measurement behind keeping KLEE's interleaving combinator (`--search interleaved`: coverage-
guided and random selection in turn): no strategy wins everywhere, and interleaving avoids the
traps of each alone (docs/performance.md, "Searchers").

usage: bench/searchers.py [--tandem build/tandem]
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STRATEGIES = ["dfs", "bfs", "random", "coverage", "interleaved"]
MODELS = [
    ("trap", os.path.join(HERE, "models", "trap.tdm"), "f", ["A", "B", "C"], [300, 3000]),
    ("hits", os.path.join(HERE, "models", "hits.tdm"), "scan", ["L1", "L3", "L6", "L12"],
     [500, 2000, 8000]),
    ("maze", os.path.join(ROOT, "examples", "maze.tdm"), "maze", ["WIN"], [500, 1500]),
]


def run(tandem, path, entry, strategy, states):
    out = subprocess.run([tandem, "testgen", path, "--entry", entry, "--search", strategy,
                          "--max-states", str(states), "--json", "--quiet"],
                         capture_output=True, text=True, check=False)
    report = json.loads(out.stdout)
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tandem", default=os.path.join(ROOT, "build", "tandem"))
    a = ap.parse_args()
    print("| model | states | " + " | ".join(STRATEGIES) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in STRATEGIES) + " |")
    for name, path, entry, labels, budgets in MODELS:
        for n in budgets:
            cells = []
            for s in STRATEGIES:
                r = run(a.tandem, path, entry, s, n)
                covered = [l for l in labels if l in r.get("covered_labels", [])]
                extra = ""
                if name == "maze":
                    extra = f", {r['stats'].get('failing', 0)} of 4 solutions"
                cells.append(f"{len(covered)}/{len(labels)}{extra}")
            print(f"| {name} | {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

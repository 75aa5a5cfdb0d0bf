#!/usr/bin/env python3
"""Test generation by solving mode on the ISSTA'11 examples (Pasareanu, Rungta, Visser).

Runs `tandem testgen --entry test --json` on mixed_hash, mixed_partition, mixed_unsound and
mixed_cube (../shared/conformance) once per mode:

  classic            --solving classic
  mixed/incremental  --solving mixed --heuristic incremental
  mixed/partition    --solving mixed --heuristic partition
  mixed/random       --solving mixed --heuristic random
  mixed/all          --solving mixed --heuristic incremental,partition,random
  exe                --solving exe
  dart               --solving dart

and prints one row per (file, mode): labels covered (of the labels of the entry procedure and
its callees) by the concrete replays of the tests, the labels left uncovered, paths (ended paths,
one test each), followed (tests whose concrete replay followed their path: paths minus
divergences), path conditions mixed solving could not decide, solver queries and Tandem's time.
Every figure comes from the JSON report of that run.

Usage: python3 bench/symbolic_modes.py [--tandem build/tandem] [--solver z3|cvc5|both]
           [--max-tries N] [--seed N] [--markdown] [--json-out FILE]
Python 3 standard library only. Exit status 2 if a run fails (an exit status other than 0, 1
or 4, or no JSON report).
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FILES = ["mixed_hash", "mixed_partition", "mixed_unsound", "mixed_cube"]
MODES = [
    ("classic", ["--solving", "classic"]),
    ("mixed/incremental", ["--solving", "mixed", "--heuristic", "incremental"]),
    ("mixed/partition", ["--solving", "mixed", "--heuristic", "partition"]),
    ("mixed/random", ["--solving", "mixed", "--heuristic", "random"]),
    ("mixed/all", ["--solving", "mixed", "--heuristic", "incremental,partition,random"]),
    ("exe", ["--solving", "exe"]),
    ("dart", ["--solving", "dart"]),
]
COLUMNS = ["file", "mode", "solver", "labels", "uncovered", "paths", "followed", "undecided",
           "queries", "time s"]


def run_one(tandem, model, mode_args, solver, max_tries, seed):
    # --max-tries applies to mixed and dart only (exit 2 with the other modes).
    tries = ["--max-tries", str(max_tries)] if ("mixed" in mode_args or "dart" in mode_args) else []
    cmd = [str(tandem), "testgen", str(model), "--entry", "test", "--json", "--quiet",
           "--solver", solver, "--seed", str(seed)] + tries + mode_args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 4) or not p.stdout.strip():
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return cmd, json.loads(p.stdout)


def row(file, mode, solver, rep):
    s = rep["stats"]
    covered, uncovered = rep["covered_labels"], rep["uncovered_labels"]
    total = len(covered) + len(uncovered)
    return {
        "file": file, "mode": mode, "solver": solver,
        "labels": f"{len(covered)}/{total}",
        "uncovered": ",".join(sorted(uncovered)) or "-",
        "paths": s["paths"], "followed": s["tests"] - s["divergences"],
        "undecided": s["undecided"], "queries": s["solver_queries"],
        "time s": f"{s['time_s']:.3f}",
    }


def print_table(rows, markdown):
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in COLUMNS}
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("---" for _ in COLUMNS) + "|")
        for r in rows:
            print("| " + " | ".join(str(r[c]) for c in COLUMNS) + " |")
        return
    print("  ".join(c.ljust(widths[c]) for c in COLUMNS))
    for r in rows:
        print("  ".join(str(r[c]).ljust(widths[c]) for c in COLUMNS))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", default=str(REPO / "build" / "tandem"))
    ap.add_argument("--shared", default=str(REPO.parent / "shared"))
    ap.add_argument("--solver", default="z3", choices=["z3", "cvc5", "both"])
    ap.add_argument("--max-tries", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out")
    a = ap.parse_args()
    solvers = ["z3", "cvc5"] if a.solver == "both" else [a.solver]
    conformance = Path(a.shared) / "conformance"
    rows, raw = [], []
    try:
        for f in FILES:
            for solver in solvers:
                for mode, args in MODES:
                    cmd, rep = run_one(a.tandem, conformance / f"{f}.tdm", args, solver,
                                       a.max_tries, a.seed)
                    rows.append(row(f, mode, solver, rep))
                    raw.append({"command": cmd, "report": rep})
    except (RuntimeError, OSError) as e:
        print(f"*** {e}", file=sys.stderr)
        return 2
    print(f"# tandem testgen --entry test --max-tries {a.max_tries} --seed {a.seed}"
          f" (solver: {', '.join(solvers)})")
    print_table(rows, a.markdown)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(raw, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

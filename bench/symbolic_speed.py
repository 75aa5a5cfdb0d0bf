#!/usr/bin/env python3
"""Symbolic search speed: paths, solver queries and time of `tandem check/testgen --entry`.

Runs the symbolic executor on the KLEE tutorial's maze (examples/maze.tdm) and on the symbolic
examples of the repository and of ../shared/conformance, once per SMT back end, and prints one
row per (case, solver[, binary]):

  paths      ended paths (stats.paths)
  queries    stats.solver_queries: checks that reached the solver chain (answers of the
             counterexample cache are not queries)
  q/path     queries / paths
  time s     Tandem's own time (stats.time_s: the search, no parsing or replay)
  cpu s      user + sys of the process (parsing, search, replay of every test, start-up)
  found      testgen: failing tests (replayed errors); check: 1 when the verdict is error

With --baseline OLD (another build of tandem), every case runs under both binaries, one after
the other, and the rows of the two builds are printed side by side with the ratios of queries
and times. Every figure comes from the JSON report, except cpu s (getrusage of the child).

Usage: python3 bench/symbolic_speed.py [--tandem build/tandem] [--baseline OLD]
           [--solver z3|cvc5|both] [--only SUBSTR] [--repeat N] [--markdown] [--json-out FILE]
Python 3 standard library only. Exit status 2 if a run fails (no JSON report, or an exit
status other than 0, 1 or 4); 1 if the two builds disagree on paths, verdicts or solutions.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (name, file relative to the repository (or "shared:" + file of ../shared/conformance), args)
CASES = [
    ("maze testgen mixed", "examples/maze.tdm", ["testgen", "--entry", "maze"]),
    ("maze testgen classic", "examples/maze.tdm",
     ["testgen", "--entry", "maze", "--solving", "classic"]),
    ("maze testgen exe", "examples/maze.tdm", ["testgen", "--entry", "maze", "--solving", "exe"]),
    ("maze check", "examples/maze.tdm", ["check", "--entry", "maze"]),
    ("loop500 check bfs", "shared:loop500.tdm",
     ["check", "--entry", "main", "--search", "bfs", "--max-depth", "10000"]),
    ("foo_null check", "shared:foo_null.tdm", ["check", "--entry", "foo"]),
    ("foo_fixed check", "shared:foo_fixed.tdm", ["check", "--entry", "foo"]),
    ("mixed_hash testgen", "shared:mixed_hash.tdm", ["testgen", "--entry", "test"]),
    ("mixed_partition testgen", "shared:mixed_partition.tdm", ["testgen", "--entry", "test"]),
    ("mixed_unsound testgen", "shared:mixed_unsound.tdm", ["testgen", "--entry", "test"]),
    ("mixed_cube testgen random", "shared:mixed_cube.tdm",
     ["testgen", "--entry", "test", "--heuristic", "random", "--max-tries", "20", "--seed", "1"]),
    ("mixed_partition testgen dart", "shared:mixed_partition.tdm",
     ["testgen", "--entry", "test", "--solving", "dart"]),
    ("bounded_stack check 3 calls", "shared:bounded_stack.tdm",
     ["check", "--class", "BoundedStack", "--check", "index-out-of-bounds", "--max-calls", "3"]),
    ("class_counter check 4 calls", "tests/conformance/cases/class_counter.tdm",
     ["check", "--class", "Counter", "--check", "assert", "--max-calls", "4"]),
    ("symbolic_arrays check", "tests/conformance/cases/symbolic_arrays.tdm",
     ["check", "--entry", "fill", "--check", "assert"]),
]


def model_path(spec, shared):
    if spec.startswith("shared:"):
        return Path(shared) / "conformance" / spec[len("shared:"):]
    return REPO / spec


def run_one(tandem, model, args, solver):
    cmd = [str(tandem)] + args[:1] + [str(model)] + args[1:] + [
        "--json", "--quiet", "--solver", solver]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode not in (0, 1, 4) or not p.stdout.strip():
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    return cmd, json.loads(p.stdout), cpu


def measure(tandem, model, args, solver, repeat):
    """The run with the least CPU time of `repeat` runs."""
    best = None
    for _ in range(repeat):
        cmd, rep, cpu = run_one(tandem, model, args, solver)
        if best is None or cpu < best[2]:
            best = (cmd, rep, cpu)
    return best


def figures(rep, cpu):
    s = rep["stats"]
    if rep.get("command") == "testgen" or "tests" in rep:
        found = sum(1 for t in rep.get("tests", []) if t.get("result") == "error")
    else:
        found = 1 if rep["verdict"] == "error" else 0
    paths, queries = s.get("paths", 0), s.get("solver_queries", 0)
    return {
        "verdict": rep["verdict"], "paths": paths, "queries": queries,
        "q/path": f"{queries / paths:.2f}" if paths else "n/a",
        "time s": f"{s.get('time_s', 0):.3f}", "cpu s": f"{cpu:.3f}", "found": found,
    }


def ratio(a, b):
    a, b = float(a), float(b)
    return f"{a / b:.1f}x" if b > 0 else "n/a"


def print_table(rows, columns, markdown):
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("|" + "|".join("---" for _ in columns) + "|")
        for r in rows:
            print("| " + " | ".join(str(r[c]) for c in columns) + " |")
        return
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for r in rows:
        print("  ".join(str(r[c]).ljust(widths[c]) for c in columns))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", default=str(REPO / "build" / "tandem"))
    ap.add_argument("--baseline", help="an older tandem binary to compare with")
    ap.add_argument("--shared", default=str(REPO.parent / "shared"))
    ap.add_argument("--solver", default="both", choices=["z3", "cvc5", "both"])
    ap.add_argument("--only", help="only the cases whose name contains this")
    ap.add_argument("--repeat", type=int, default=1, help="keep the least CPU time of N runs")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out")
    a = ap.parse_args()
    solvers = ["z3", "cvc5"] if a.solver == "both" else [a.solver]
    cases = [c for c in CASES if not a.only or a.only in c[0]]
    rows, raw, mismatches = [], [], []
    try:
        for name, spec, args in cases:
            model = model_path(spec, a.shared)
            for solver in solvers:
                cmd, rep, cpu = measure(a.tandem, model, args, solver, a.repeat)
                new = figures(rep, cpu)
                raw.append({"case": name, "solver": solver, "command": cmd, "cpu_s": cpu,
                            "report": rep})
                row = {"case": name, "solver": solver}
                if a.baseline:
                    bcmd, brep, bcpu = measure(a.baseline, model, args, solver, a.repeat)
                    old = figures(brep, bcpu)
                    raw.append({"case": name, "solver": solver, "command": bcmd, "cpu_s": bcpu,
                                "report": brep, "baseline": True})
                    for k in ("verdict", "paths", "found"):
                        if old[k] != new[k]:
                            mismatches.append(f"{name} ({solver}): {k} {old[k]} before, "
                                              f"{new[k]} after")
                    row.update({"verdict": new["verdict"], "paths": new["paths"],
                                "found": new["found"],
                                "queries before": old["queries"], "queries": new["queries"],
                                "q/path before": old["q/path"], "q/path": new["q/path"],
                                "time s before": old["time s"], "time s": new["time s"],
                                "cpu s before": old["cpu s"], "cpu s": new["cpu s"],
                                "fewer queries": ratio(old["queries"], new["queries"]),
                                "faster": ratio(old["cpu s"], new["cpu s"])})
                else:
                    row.update(new)
                rows.append(row)
    except (RuntimeError, OSError) as e:
        print(f"*** {e}", file=sys.stderr)
        return 2
    if a.baseline:
        columns = ["case", "solver", "verdict", "paths", "found", "queries before", "queries",
                   "q/path before", "q/path", "time s before", "time s", "cpu s before",
                   "cpu s", "fewer queries", "faster"]
    else:
        columns = ["case", "solver", "verdict", "paths", "queries", "q/path", "time s", "cpu s",
                   "found"]
    print(f"# tandem: {a.tandem}" + (f"; baseline: {a.baseline}" if a.baseline else "")
          + f"; solver: {', '.join(solvers)}; repeat {a.repeat}; "
          + f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print_table(rows, columns, a.markdown)
    for m in mismatches:
        print(f"*** {m}")
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(raw, indent=2) + "\n")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())

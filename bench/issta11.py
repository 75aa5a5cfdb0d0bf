#!/usr/bin/env python3
"""The ISSTA'11 evaluation (Pasareanu, Rungta, Visser, Sect. 5) on models/issta11: targets
covered per solving mode, with 10 seeded trials where a mode is random.

For each model (bessel, tsafe, apollo: `proc test` with labelled targets) and mode

  classic            --solving classic
  mixed/incremental  --solving mixed                      (Tandem's default heuristic)
  mixed/random       --solving mixed --heuristic random   (10 rounds of tries)
  mixed/paper        --solving mixed --paper-defaults     (random solving, 1000 rounds)
  exe                --solving exe
  dart               --solving dart

runs `tandem testgen MODEL --entry test --json --timeout T --solver S` once (deterministic modes)
or once per seed 1..N (mixed/random, mixed/paper, dart; --seeds N, default 10), and prints one
row per (model, mode, solver): runs, the targets covered by any run, runs that covered every
target, the mean number of targets per run, and the means of tests, states (expanded symbolic
states), solver queries, undecided path conditions and Tandem's time; `ended` counts the runs
that completed (the others hit --timeout). Targets are the labels of the model named in
TARGETS; a label counts as covered when a generated test's concrete replay reached it
(`covered_labels` of the report). The paper's figures are printed after the table, quoted from
the paper, not measured here.

Usage: python3 bench/issta11.py [--tandem build/tandem] [--solver z3|cvc5|both]
           [--models bessel,tsafe,apollo] [--modes classic,...] [--seeds 10] [--timeout 60]
           [--markdown]
Python 3 standard library only. Exit status 2 if a run fails (no JSON report, or an exit status
other than 0, 1 or 4).
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

from bench_common import format_table, log, machine_line

REPO = Path(__file__).resolve().parent.parent
TARGETS = {
    "bessel": ["HIT", "MISS", "NEG"],
    "tsafe": ["T1", "T2", "T3", "T4", "T5"],
    "apollo": ["A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"],
}
# (name, arguments, seeded)
MODES = [
    ("classic", ["--solving", "classic"], False),
    ("mixed/incremental", ["--solving", "mixed"], False),
    ("mixed/random", ["--solving", "mixed", "--heuristic", "random"], True),
    ("mixed/paper", ["--solving", "mixed", "--paper-defaults"], True),
    ("exe", ["--solving", "exe"], False),
    ("dart", ["--solving", "dart"], True),
]
PAPER = """The paper's figures (Symbolic PathFinder, Sect. 5; quoted, not measured here):
  TSAFE, mixed solving with random solving: 10 random trials, about 12,683 states and 15 s,
    6 tests; all 5 target branches covered in about 1 trial of 3; classic symbolic execution
    covers fewer.
  Apollo: a 5-step test sequence explored with mixed solving.
  Bessel-like special functions: mixed solving handles the native, classic does not."""


def run(tandem, model, args, solver, timeout, seed):
    argv = [tandem, "testgen", str(REPO / "models" / "issta11" / f"{model}.tdm"), "--entry",
            "test", "--json", "--quiet", "--timeout", str(timeout), "--solver", solver] + args
    if seed is not None:
        argv += ["--seed", str(seed)]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout + 120)
    if p.returncode not in (0, 1, 4):
        raise RuntimeError(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr[-300:]}")
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise RuntimeError(f"{' '.join(argv)}: no JSON report ({e})") from e


def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tandem", default=str(REPO / "build" / "tandem"))
    ap.add_argument("--solver", default="z3", choices=["z3", "cvc5", "both"])
    ap.add_argument("--models", default="bessel,tsafe,apollo")
    ap.add_argument("--modes", default=",".join(m[0] for m in MODES))
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    solvers = ["z3", "cvc5"] if a.solver == "both" else [a.solver]
    models = a.models.split(",")
    modes = [m for m in MODES if m[0] in a.modes.split(",")]
    for m in models:
        if m not in TARGETS:
            print(f"unknown model {m!r} (models: {', '.join(TARGETS)})", file=sys.stderr)
            return 2
    print(machine_line())
    print(f"# tandem: {a.tandem}; --timeout {a.timeout}; seeds 1..{a.seeds} for seeded modes")
    header = ["model", "mode", "solver", "runs", "targets covered", "all", "mean targets",
              "tests", "states", "queries", "undecided", "time s", "ended"]
    rows = []
    for model in models:
        targets = TARGETS[model]
        for name, args, seeded in modes:
            for solver in solvers:
                seeds = list(range(1, a.seeds + 1)) if seeded else [None]
                reports = []
                for seed in seeds:
                    log(f"{model} {name} {solver} seed {seed}")
                    try:
                        reports.append(run(a.tandem, model, args, solver, a.timeout, seed))
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        print(f"error: {e}", file=sys.stderr)
                        return 2
                covered = [set(r.get("covered_labels", [])) & set(targets) for r in reports]
                union = set().union(*covered)
                st = [r["stats"] for r in reports]
                rows.append([
                    model, name, solver, str(len(reports)),
                    " ".join(t for t in targets if t in union) or "-",
                    f"{sum(len(c) == len(targets) for c in covered)}/{len(reports)}",
                    f"{mean([len(c) for c in covered]):.1f}/{len(targets)}",
                    f"{mean([s['tests'] for s in st]):.1f}",
                    f"{mean([s['states'] for s in st]):.0f}",
                    f"{mean([s['solver_queries'] for s in st]):.0f}",
                    f"{mean([s['undecided'] for s in st]):.1f}",
                    f"{mean([s['time_s'] for s in st]):.2f}",
                    f"{sum(r['verdict'] != 'unknown' for r in reports)}/{len(reports)}",
                ])
    print(format_table(header, rows, numeric={"runs", "tests", "states", "queries", "undecided", "time s"}, markdown=a.markdown))
    print()
    print(PAPER)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The three algorithms of `tandem cover` find the same infeasible code (ctest).

Generates bench/cover_gen.py's diamond programs for a fixed seed (by default the 40 programs of
sizes 2..5), runs

  tandem cover FILE --entry main --algo A --solver S --json --quiet --timeout T

for A in paths, statements, fm, and fails (exit 1) when, for some program,
  - a run prints no JSON report, ends `unknown`, or its exit status does not match its verdict
    (0 completed, 1 error);
  - the three `infeasible_labels` differ;
  - a label cover_gen.py planted as infeasible (infeasible by construction) is not reported;
  - a label is reported both covered and infeasible, or a label not in the program;
  - `statements`' covered_labels and infeasible_labels together are not all block labels
    (locations without a label, reported as `main#n`, are left out of the label checks).
The program's text and the three sets are printed for each failing program.

With --procs the programs call helper procedures (cover_gen.py --procs), and statements and fm
run with the calls inlined and with --summaries: the four must agree (paths is left out: a path
cover multiplies the paths of each call).

The checks are bench/cover_table.py's (imported, with cover_gen.py, from ../../bench), so the
test and the benchmark table cannot drift apart.

usage: check_cover_agreement.py --tandem PATH [--solver z3|cvc5] [--sizes 2-5] [--jobs N] [--procs]
"""
import argparse
import concurrent.futures
import os
import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "bench"))
sys.dont_write_bytecode = True   # no __pycache__ in the source tree from the imports below
import cover_gen  # noqa: E402
from cover_table import ALGOS, fmt_set, program_problems, run_cover  # noqa: E402

SEED = 1
SHOWN = 5           # failing programs printed in full; the rest by name only


SUMMARY_ALGOS = ("statements-summaries", "fm-summaries")


def run_program(tandem, path, solver, timeout, algos):
    """algo -> result of the runs of one program, one after the other."""
    return {a: run_cover(tandem, path, a, solver, timeout) for a in algos}


def why_failed(r):
    """Why one run fails the test, or None: no report, a bad exit status, or `unknown`
    (the label sets need a finished run)."""
    if "failure" in r:
        return r["failure"]
    if r["verdict"] not in ("completed", "error"):
        return f"verdict {r['verdict']!r}" + (f" ({r['reason']})" if r.get("reason") else "")
    return None


def run_failures(name, runs):
    return [f"{name}: {a}: {why_failed(r)}\n    $ {shlex.join(r['cmd'])}"
            for a, r in runs.items() if why_failed(r)]


def describe(path, runs):
    """The program and what each algorithm reported, for the log."""
    lines = [f"--- {path.name} ---", path.read_text().rstrip()]
    for a, r in runs.items():
        lines.append(f"  {a:10s} infeasible {fmt_set(r.get('infeasible'))}"
                     + (f", covered {fmt_set(r['covered'])}" if r.get("has_covered") else ""))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", required=True, type=Path)
    ap.add_argument("--solver", default="z3", choices=("z3", "cvc5"))
    ap.add_argument("--sizes", default="2-5", help="diamonds per program (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=SEED, help="(default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="programs at a time (default: 2)")
    ap.add_argument("--timeout", type=float, default=120,
                    help="Tandem's --timeout per run (default: %(default)s)")
    ap.add_argument("--procs", action="store_true",
                    help="programs with helper procedures; also --summaries runs")
    args = ap.parse_args()
    # With helper procedures a path cover multiplies each call's paths (d5 programs: minutes):
    # statements and fm inline, and the same two with --summaries.
    algos = ("statements", "fm") + SUMMARY_ALGOS if args.procs else ALGOS
    try:
        sizes = cover_gen.parse_sizes(args.sizes)
    except ValueError as e:
        ap.error(f"--sizes: {e}")
    if not os.access(args.tandem, os.X_OK):
        print(f"check_cover_agreement: not an executable: {args.tandem}", file=sys.stderr)
        return 1

    failing, messages = [], []
    with tempfile.TemporaryDirectory(prefix="cover_agreement.") as tmp:
        programs = cover_gen.write_all(args.seed, tmp, sizes, procs=args.procs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(run_program, args.tandem, path, args.solver, args.timeout,
                                   algos)
                       for path, _, _ in programs]
            for (path, labels, planted), fut in zip(programs, futures):
                runs = fut.result()
                found = run_failures(path.stem, runs) + program_problems(
                    path.stem, labels, planted, runs)
                if found:
                    messages += found
                    if len(failing) < SHOWN:
                        failing.append(describe(path, runs))
                    else:
                        failing.append(f"--- {path.name} (text not shown) ---")
    print(f"{len(programs)} programs (seed {args.seed}, sizes {args.sizes}), solver "
          f"{args.solver}, algorithms {', '.join(algos)}"
          + (" (helper procedures)" if args.procs else ""))
    if not messages:
        print("ok: the algorithms agree on every program")
        return 0
    print("\n".join(failing))
    print(f"FAILED: {len(messages)} problem(s)")
    print("\n".join(messages))
    return 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`tandem cover` on the diamond benchmark of Christ, Hoenicke and Schaef ("Towards Bounded
Infeasible Code Detection"), next to the paper's Table 1.

The programs come from bench/cover_gen.py (10 per size, sizes 2..9 by default: the paper's 80),
generated for --seed into a temporary folder (or --out DIR, kept). Every program runs as

  tandem cover FILE --entry main --algo A --solver S --json --quiet [--timeout T]

for each algorithm A of --algos (paths, statements, fm; statements-noguided adds --no-guided,
the paper's AlgSC exactly; statements-summaries and fm-summaries add --summaries, for --procs
programs, whose main calls helper procedures) and solver S of --solvers (z3, cvc5),
--jobs runs at a time. The table has one row per (algorithm, solver): the programs run, how many
finished (verdict completed, or error), ended `unknown` or failed, and the sums over the runs
with a report (`unknown` ones included) of stats.solver_queries, stats.solver_time_s (the time
inside solver checks, what the paper's figures count), stats.time_s (Tandem's own time), the
wall-clock time of the process (start-up and JSON output
included; under --jobs > 1 the runs share the machine), stats.tests and stats.paths, beside the
paper's figures for the matching algorithm (AlgPC, AlgSC, AlgFM; the paper's solver and machine
differ, so only orders of magnitude compare).

Checks, per program and solver:
  - the three algorithms report the same `infeasible_labels` (runs ending `unknown` are counted
    in the table but left out of this comparison; so are failed runs);
  - every label cover_gen.py planted as infeasible (see its docstring) is in `infeasible_labels`;
  - no label is both covered and infeasible, and `statements`' covered_labels and
    infeasible_labels together are all block labels of the program.
A run fails when it prints no JSON report or its exit status does not match its verdict
(0 completed, 1 error, 4 unknown); the exact command is printed.

Exit status: 0 no problem, 1 a disagreement or a wrong label set, 2 a run failed (and no
disagreement) or bad arguments. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ in the source tree from the imports below
from bench_common import f_int, first_line, format_table, loadavg, log, machine_line
import cover_gen

REPO = Path(__file__).resolve().parent.parent
ALGOS = ("paths", "statements", "fm")
# --algos names -> the arguments that choose them; statements-noguided is the paper's AlgSC
# exactly (Tandem's statements asks a guided query first), not run unless asked for
ALGO_ARGS = {"paths": ["--algo", "paths"], "statements": ["--algo", "statements"],
             "fm": ["--algo", "fm"],
             "statements-noguided": ["--algo", "statements", "--no-guided"],
             "statements-summaries": ["--algo", "statements", "--summaries"],
             "fm-summaries": ["--algo", "fm", "--summaries"]}
SOLVERS = ("z3", "cvc5")
# The paper's Table 1 (80 programs): algorithm -> (name, solver queries, seconds)
PAPER = {"paths": ("AlgPC", 69_777, 13.12), "statements": ("AlgSC", 854, 11.81),
         "statements-noguided": ("AlgSC", 854, 11.81), "fm": ("AlgFM", 1_760, 145.45)}
EXPECTED_RC = {"completed": 0, "error": 1, "unknown": 4}
UNNAMED = re.compile(r"\w+#\d+")   # how reports name a location without a label
KILL_SLACK = 60     # seconds a run may take past its own --timeout before it is killed


# ---------------------------------------------------------------------------------------------
# one run

def cover_cmd(tandem, path, algo, solver, timeout=None):
    cmd = ([str(tandem), "cover", str(path), "--entry", "main"] + ALGO_ARGS[algo]
           + ["--solver", solver, "--json", "--quiet"])
    if timeout is not None:
        cmd += ["--timeout", f"{timeout:g}"]
    return cmd


def run_cover(tandem, path, algo, solver, timeout=None):
    """One `tandem cover` run: a dict with cmd, rc, wall_s, verdict, the stats, the label sets,
    and `failure` (a sentence) when it printed no report or its exit status and verdict
    disagree. The process is killed KILL_SLACK s after its own --timeout (why: a hung solver
    must not stop the whole table)."""
    cmd = cover_cmd(tandem, path, algo, solver, timeout)
    res = {"cmd": cmd, "algo": algo, "solver": solver}
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace",
                           timeout=None if timeout is None else timeout + KILL_SLACK)
    except subprocess.TimeoutExpired:
        res.update(wall_s=time.perf_counter() - t0,
                   failure=f"killed {KILL_SLACK} s after its --timeout")
        return res
    except OSError as e:
        res["failure"] = f"could not run: {e}"
        return res
    res.update(rc=p.returncode, wall_s=time.perf_counter() - t0)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        res["failure"] = (f"no JSON report (exit {p.returncode}): "
                          f"{(p.stderr or p.stdout).strip()[:400]}")
        return res
    res.update(read_report(report))
    want = EXPECTED_RC.get(res["verdict"])
    if want is None or p.returncode != want:
        res["failure"] = (f"exit {p.returncode} with verdict {res['verdict']!r}"
                          + (f" ({res['reason']})" if res.get("reason") else "")
                          + (f": {p.stderr.strip()[:300]}" if p.stderr.strip() else ""))
    return res


def read_report(report):
    """The parts of a cover report the table and the checks use."""
    st = report.get("stats") or {}
    return {"verdict": report.get("verdict"), "reason": report.get("reason"),
            "queries": st.get("solver_queries"), "time_s": st.get("time_s"),
            "solver_s": st.get("solver_time_s"),
            "tests": st.get("tests"), "paths": st.get("paths"),
            "infeasible": set(report.get("infeasible_labels") or []),
            "covered": set(report.get("covered_labels") or []),
            "has_covered": "covered_labels" in report}


def short(r):
    if "failure" in r:
        return f"FAILED: {r['failure']}"
    return (f"{r['verdict']}, {f_int(r.get('queries'))} queries, {f_int(r.get('paths'))} paths, "
            f"{f_int(r.get('tests'))} tests, {fmt_s(r.get('time_s'))} s "
            f"({fmt_s(r.get('wall_s'))} s wall), infeasible {fmt_set(r.get('infeasible'))}")


def fmt_s(x):
    return "-" if x is None else f"{x:.2f}"


def fmt_set(s):
    return "{" + ", ".join(sorted(s)) + "}" if s is not None else "-"


# ---------------------------------------------------------------------------------------------
# checks of one program under one solver

def usable(r):
    """A run whose label sets count: it ended with a verdict other than unknown."""
    return r is not None and "failure" not in r and r["verdict"] in ("completed", "error")


def named(labels):
    """The labels written in the program: a location without a label is reported as `proc#n`,
    which the generator does not know, so the label-set checks leave those out."""
    return {l for l in labels if not UNNAMED.fullmatch(l)}


def program_problems(name, labels, planted, runs):
    """Sentences for what is wrong with the runs (algo -> result) of one program and solver."""
    ok = {a: r for a, r in runs.items() if usable(r)}
    problems = []
    sets = {a: frozenset(r["infeasible"]) for a, r in ok.items()}
    if len(set(sets.values())) > 1:
        problems.append(f"{name}: the algorithms disagree on infeasible_labels: " + "; ".join(
            f"{a} {fmt_set(s)}" for a, s in sets.items()))
    all_labels = set(labels)
    for a, r in ok.items():
        missed = set(planted) - r["infeasible"]
        if missed:
            problems.append(f"{name}: {a} misses planted infeasible {fmt_set(missed)}")
        both = r["covered"] & r["infeasible"]
        if both:
            problems.append(f"{name}: {a} reports {fmt_set(both)} both covered and infeasible")
        strange = named(r["covered"] | r["infeasible"]) - all_labels
        if strange:
            problems.append(f"{name}: {a} reports labels not in the program {fmt_set(strange)}")
    for a in ("statements", "statements-noguided", "statements-summaries"):
        left = all_labels - ok[a]["covered"] - ok[a]["infeasible"] if a in ok else None
        if left:
            problems.append(f"{name}: {a} leaves {fmt_set(left)} neither covered nor "
                            f"infeasible")
    return problems


# ---------------------------------------------------------------------------------------------
# the table

HEADER = ["algorithm", "solver", "programs", "finished", "unknown", "failed", "queries",
          "solver s", "time_s", "wall s", "tests", "paths", "paper", "paper queries", "paper s"]
NUMERIC = set(HEADER[2:12]) | {"paper queries", "paper s"}


def total(runs, key):
    vals = [r.get(key) for r in runs if r.get(key) is not None]
    return sum(vals) if vals else None


def table_row(algo, solver, runs):
    paper = PAPER.get(algo, ("-", None, None))
    return [algo, solver, str(len(runs)),
            str(sum(1 for r in runs if usable(r))),
            str(sum(1 for r in runs if "failure" not in r and r["verdict"] == "unknown")),
            str(sum(1 for r in runs if "failure" in r)),
            f_int(total(runs, "queries")), fmt_s(total(runs, "solver_s")),
            fmt_s(total(runs, "time_s")),
            fmt_s(total(runs, "wall_s")), f_int(total(runs, "tests")),
            f_int(total(runs, "paths")), paper[0], f_int(paper[1]), fmt_s(paper[2])]


# ---------------------------------------------------------------------------------------------

def parse_list(text, allowed, what):
    items = [x.strip() for x in text.split(",") if x.strip()]
    bad = [x for x in items if x not in allowed]
    if bad or not items:
        raise ValueError(f"{what}: {', '.join(bad) or 'empty'} (one of {', '.join(allowed)})")
    return items


def parse_args():
    ap = argparse.ArgumentParser(
        description="tandem cover on cover_gen.py's diamond programs: solver queries and time "
                    "per algorithm and solver, next to the paper's Table 1; the algorithms "
                    "must agree on the infeasible labels.",
        epilog="Exit status: 0 no problem, 1 a disagreement or wrong label set, 2 a run failed "
               "or bad arguments.")
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem",
                    help="tandem binary (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time (default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds per run, passed as Tandem's --timeout; 0 for none "
                         "(default: %(default)s)")
    ap.add_argument("--sizes", default="2-9",
                    help="diamonds per program, e.g. 2,3 or 2-4 (default: %(default)s)")
    ap.add_argument("--solvers", default=",".join(SOLVERS),
                    help="comma-separated (default: %(default)s)")
    ap.add_argument("--algos", default=",".join(ALGOS),
                    help="comma-separated, of " + ", ".join(ALGO_ARGS) + " (statements-noguided: "
                         "--no-guided, the paper's AlgSC) (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="cover_gen.py seed (default: %(default)s)")
    ap.add_argument("--out", type=Path,
                    help="write the programs here and keep them (default: a temporary folder, "
                         "kept only when a run fails or the algorithms disagree)")
    ap.add_argument("--per-size", action="store_true",
                    help="also print the table per program size")
    ap.add_argument("--json-out", type=Path, help="also write every run's measurements as JSON")
    ap.add_argument("--procs", action="store_true",
                    help="programs with helper procedures (cover_gen.py --procs), for "
                         "statements-summaries and fm-summaries (--summaries)")
    args = ap.parse_args()
    try:
        args.sizes = cover_gen.parse_sizes(args.sizes)
        args.solvers = parse_list(args.solvers, SOLVERS, "--solvers")
        args.algos = parse_list(args.algos, tuple(ALGO_ARGS), "--algos")
    except ValueError as e:
        ap.error(str(e))
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.timeout < 0:
        ap.error("--timeout must not be negative")
    args.timeout = args.timeout or None
    args.tandem = args.tandem.resolve()
    return args


def run_all(args, programs):
    """Every (program, algorithm, solver) run, --jobs at a time; returns
    {(name, solver, algo): result}, logging each as it ends."""
    jobs = [(path, algo, solver) for path, _, _ in programs for solver in args.solvers
            for algo in args.algos]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_cover, args.tandem, path, algo, solver, args.timeout):
                   (path.stem, solver, algo) for path, algo, solver in jobs}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            key = futures[fut]
            results[key] = fut.result()
            log(f"[{i}/{len(jobs)}] {key[0]} {key[2]} {key[1]}: {short(results[key])}")
    return results


def check_all(args, programs, results):
    """(problems, failures): sentences, failures with their exact command lines."""
    problems, failures = [], []
    for path, labels, planted in programs:
        for solver in args.solvers:
            runs = {a: results[(path.stem, solver, a)] for a in args.algos}
            problems += program_problems(f"{path.stem} ({solver})", labels, planted, runs)
            failures += [f"{path.stem} {a} {solver}: {r['failure']}\n      $ "
                         f"{shlex.join(r['cmd'])}" for a, r in runs.items() if "failure" in r]
    return problems, failures


def print_tables(args, results):
    rows = [table_row(a, s, [r for (_, s2, a2), r in results.items() if (s2, a2) == (s, a)])
            for a in args.algos for s in args.solvers]
    print(format_table(HEADER, rows, NUMERIC))
    if args.per_size:
        for size in args.sizes:
            print(f"\n{size} diamonds:")
            print(format_table(HEADER, [table_row(a, s, [
                r for (n, s2, a2), r in results.items()
                if (s2, a2) == (s, a) and n.startswith(f"d{size}_")])
                for a in args.algos for s in args.solvers], NUMERIC))


def main():
    args = parse_args()
    if not args.tandem.exists():
        log(f"cover_table: error: tandem binary not found: {args.tandem}")
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="cover_table."))
    programs = cover_gen.write_all(args.seed, out, args.sizes, procs=args.procs)
    header = [machine_line(),
              f"tandem:  {args.tandem} ({first_line([str(args.tandem), '--version'])})",
              f"command: {shlex.join([sys.executable] + sys.argv)}",
              f"programs: {len(programs)} from cover_gen.py --seed {args.seed}, sizes "
              f"{','.join(map(str, args.sizes))} ({out}); {args.jobs} runs at a time, "
              f"--timeout {'none' if args.timeout is None else f'{args.timeout:g}'}"]
    log("\n".join(header))
    load_before, t0 = loadavg(), time.perf_counter()
    results = run_all(args, programs)
    elapsed = time.perf_counter() - t0
    problems, failures = check_all(args, programs, results)

    print("\n".join(header))
    print(f"load:    average {load_before} before the runs, {loadavg()} after (1/5/15 min); "
          f"{elapsed:.1f} s wall for all runs")
    print()
    print_tables(args, results)
    print()
    print("queries: sum of stats.solver_queries; solver s: sum of stats.solver_time_s (inside "
          "solver checks); time_s: sum of stats.time_s; wall s: sum of "
          "each process's wall-clock time (start-up included); paper: Table 1 of Christ, "
          "Hoenicke, Schaef (80 programs, their solver and machine).")
    if args.json_out:
        args.json_out.write_text(json.dumps(
            {"header": header, "runs": [dict(r, program=n, infeasible=sorted(r.get("infeasible", ())),
                                             covered=sorted(r.get("covered", ())))
                                        for (n, _, _), r in sorted(results.items())]},
            indent=2))
    print()
    if not problems and not failures:
        print(f"the algorithms agree on every program ({len(programs)} programs, "
              f"{len(args.solvers)} solver(s)); no failed run")
        if args.out is None:
            shutil.rmtree(out, ignore_errors=True)
        return 0
    print(f"*** {len(problems)} PROBLEM(S), {len(failures)} FAILED RUN(S); programs kept in "
          f"{out} ***")
    for p in problems + failures:
        print(f"*** {p}")
    return 1 if problems else 2


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`tandem testgen --guide` (Christakis, Mueller, Wuestholz, "Guiding Dynamic Symbolic Execution
toward Unverified Program Executions", ICSE 2016) on the partially verified procedures of
bench/models/icse16/, next to the paper's figures.

Every file bench/models/icse16/*.tdm (found by glob; its first line is `// entry: PROC`) runs
once per mode, one run at a time, as

  tandem testgen FILE --entry PROC --guide MODE --solver S --json --quiet [--timeout T]
         [--check KINDS] [--solving M]

for MODE in ignore (the paper's UV), none (PV), may, must, may-must (MAY x MUST). Part 1 prints
one row per (procedure, mode): the verdict, stats.tests, stats.non_redundant_tests,
stats.failing, stats.pruned, stats.interrupts, stats.undecided (paths mixed solving could not
decide and dropped) and stats.time_s (Tandem's own time); then the totals per mode and the
change of tests, non-redundant tests and time relative to PV (`none`), next to the paper's
MAY x MUST figures on its 101 methods.

Part 2 asks Tandem's own prover for the annotations: each file is stripped of them (every
`assumed ... ;` statement and every ` verified ...` clause, outside comments) into a temporary
folder, then

  tandem prove STRIPPED --entry PROC --annotate OUT.tdm --solver S --quiet --json [--timeout T]
  tandem testgen OUT.tdm --entry PROC --guide may-must ...

and the row gives prove's verdict, how many assertions its `annotations` call verified, assumed
and unverified, and the tests (non-redundant, failing) of may-must on the hand-annotated file
(part 1's run) and on the prover-annotated one. A prove run that exits 2 (`--annotate` missing,
or a failure) shows `n/a` and the first line of its message.

Exit status: 0, or 1 when a run crashed (an exit status other than 0, 1 and 4, no JSON report,
or no answer KILL_SLACK seconds past its --timeout); the exact command lines are printed.

--check KINDS is passed to every run: by default every error kind is tracked, and a tracked
implicit check (an index, a division, a dereference) counts as an unverified assertion, since no
annotation speaks for it; `--check assert` leaves them out.

Usage: bench/guided_table.py [--tandem PATH] [--solver z3|cvc5] [--solving MODE] [--timeout S]
                             [--check KINDS] [--skip-prove] [--only NAME,...] [--keep DIR]
Python 3 standard library only.
"""
import argparse
import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ in the source tree from the import below
from bench_common import first_line, format_table, loadavg, log, machine_line

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "bench" / "models" / "icse16"
MODES = ("ignore", "none", "may", "must", "may-must")
PAPER_NAME = {"ignore": "UV", "none": "PV", "may": "MAY", "must": "MUST", "may-must": "MAY x MUST"}
# The paper's figures (ICSE'16, Sect. 5, 101 methods of open-source C# projects annotated by
# Clousot, tested by Pex): MAY x MUST against PV, in percent.
PAPER_MAYMUST_VS_PV = {"tests": -16.1, "non_redundant_tests": +7.1, "time_s": -52.4}
NORMAL_RC = (0, 1, 4)   # completed or proved / error / unknown
KILL_SLACK = 60         # seconds a run may take past its own --timeout before it is killed
ENTRY = re.compile(r"//\s*entry:\s*(\w+)")


# ---------------------------------------------------------------------------------------------
# runs

def run(cmd, timeout):
    """(rc, report or None, stderr, wall seconds); rc None when the run was killed."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=None if timeout is None else timeout + KILL_SLACK)
    except subprocess.TimeoutExpired:
        return None, None, f"killed after {time.perf_counter() - t0:.0f} s", \
            time.perf_counter() - t0
    wall = time.perf_counter() - t0
    try:
        rep = json.loads(p.stdout)
    except json.JSONDecodeError:
        rep = None
    return p.returncode, rep, p.stderr.strip(), wall


def common_args(args):
    out = ["--solver", args.solver, "--json", "--quiet"]
    if args.timeout is not None:
        out += ["--timeout", f"{args.timeout:g}"]
    if args.check:
        out += ["--check", args.check]
    return out


def testgen(args, path, entry, mode, problems):
    cmd = ([str(args.tandem), "testgen", str(path), "--entry", entry, "--guide", mode]
           + common_args(args) + (["--solving", args.solving] if args.solving else []))
    log("  $ " + shlex.join(cmd))
    rc, rep, err, wall = run(cmd, args.timeout)
    if rc not in NORMAL_RC or rep is None or "stats" not in rep:
        why = err.splitlines()[0] if err else f"exit {rc}, no JSON report"
        problems.append(f"{path.name} --guide {mode}: {why}\n      $ {shlex.join(cmd)}")
        return None
    return {"verdict": rep.get("verdict", "?"), "reason": rep.get("reason", ""),
            "stats": rep["stats"], "wall": wall}


def prove_annotate(args, path, entry, out, problems):
    """prove --annotate on the stripped file: (row fields, notes)."""
    cmd = ([str(args.tandem), "prove", str(path), "--entry", entry, "--annotate", str(out)]
           + common_args(args))
    log("  $ " + shlex.join(cmd))
    rc, rep, err, wall = run(cmd, args.timeout)
    if rc == 2:
        return None, "prove: " + (err.splitlines()[0] if err else "exit 2")
    if rc not in NORMAL_RC or rep is None:
        why = err.splitlines()[0] if err else f"exit {rc}, no JSON report"
        problems.append(f"{path.name} prove --annotate: {why}\n      $ {shlex.join(cmd)}")
        return None, "prove crashed"
    counts = None
    if isinstance(rep.get("annotations"), list):
        counts = {k: sum(1 for a in rep["annotations"] if a.get("result") == k)
                  for k in ("verified", "assumed", "unverified")}
    return {"verdict": rep.get("verdict", "?"), "counts": counts, "wall": wall}, ""


# ---------------------------------------------------------------------------------------------
# annotations

def strip_annotations(src):
    """src without its `assumed ... ;` statements and ` verified ...` clauses (comments kept).
The patterns run on a copy whose comments are blanked out, so the offsets match."""
    masked = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), src,
                    flags=re.S)
    cuts = [m.span() for m in re.finditer(r"^[ \t]*\bassumed\b[^;]*;[ \t]*\n", masked, re.M)]
    rest = masked
    for a, b in cuts:
        rest = rest[:a] + " " * (b - a) + rest[b:]
    cuts += [m.span() for m in re.finditer(r"\bassumed\b[^;]*;", rest)]
    cuts += [m.span(1) for m in re.finditer(r"(\s+verified\b[^;]*);", masked)]
    for a, b in sorted(cuts, reverse=True):
        src = src[:a] + src[b:]
    return src


# ---------------------------------------------------------------------------------------------
# tables

def pct(x, base):
    return "-" if not base else f"{(x / base - 1) * 100:+.1f}%"


def notes_of(r):
    notes = []
    if r["stats"].get("undecided"):
        notes.append(f"{r['stats']['undecided']} undecided")
    if r["reason"]:
        notes.append(r["reason"])
    return "; ".join(notes)


PER_HEAD = ["procedure", "file", "mode", "verdict", "tests", "non-red.", "failing", "pruned",
            "interrupts", "undecided", "time s", "notes"]
PER_NUM = {"tests", "non-red.", "failing", "pruned", "interrupts", "undecided", "time s"}


def per_rows(models, results):
    rows = []
    for path, entry in models:
        for mode in MODES:
            r = results.get((path.name, mode))
            if r is None:
                rows.append([entry, path.name, mode, "crash"] + ["-"] * 7 + ["see problems"])
                continue
            st = r["stats"]
            rows.append([entry, path.name, mode, r["verdict"], str(st.get("tests", 0)),
                         str(st.get("non_redundant_tests", 0)), str(st.get("failing", 0)),
                         str(st.get("pruned", 0)), str(st.get("interrupts", 0)),
                         str(st.get("undecided", 0)), f"{st.get('time_s', 0):.2f}",
                         notes_of(r)])
    return rows


SUM_HEAD = ["mode", "paper", "runs", "tests", "vs PV", "paper", "non-red.", "vs PV", "paper",
            "failing", "procs failing", "pruned", "interrupts", "undecided", "time s", "vs PV",
            "paper"]
SUM_NUM = {"runs", "tests", "non-red.", "failing", "procs failing", "pruned", "interrupts",
           "undecided", "time s", "vs PV"}


def totals(models, results):
    """Per mode: the sums over its runs, and under "pv" the sums of the same procedures' PV runs
(the runs of a procedure whose PV run or this mode's run crashed are left out of "vs PV")."""
    keys = ("tests", "non_redundant_tests", "failing", "pruned", "interrupts", "undecided",
            "time_s")
    tot = {}
    for mode in MODES:
        rs = [results[(p.name, mode)] for p, _ in models if (p.name, mode) in results]
        t = {k: sum(r["stats"].get(k, 0) for r in rs) for k in keys}
        t["runs"] = len(rs)
        t["procs_failing"] = sum(1 for r in rs if r["stats"].get("failing", 0) > 0)
        both = [p.name for p, _ in models
                if (p.name, mode) in results and (p.name, "none") in results]
        t["pair"] = {k: sum(results[(n, mode)]["stats"].get(k, 0) for n in both) for k in keys}
        t["pv"] = {k: sum(results[(n, "none")]["stats"].get(k, 0) for n in both) for k in keys}
        tot[mode] = t
    return tot


def sum_rows(tot):
    rows = []
    for mode in MODES:
        t = tot[mode]
        paper = mode == "may-must"

        def rel(k):
            return pct(t["pair"][k], t["pv"][k])
        rows.append([mode, PAPER_NAME[mode], str(t["runs"]),
                     str(t["tests"]), rel("tests"),
                     f"{PAPER_MAYMUST_VS_PV['tests']:+.1f}%" if paper else "",
                     str(t["non_redundant_tests"]), rel("non_redundant_tests"),
                     f"{PAPER_MAYMUST_VS_PV['non_redundant_tests']:+.1f}%" if paper else "",
                     str(t["failing"]), str(t["procs_failing"]), str(t["pruned"]),
                     str(t["interrupts"]), str(t["undecided"]), f"{t['time_s']:.2f}",
                     rel("time_s"),
                     f"{PAPER_MAYMUST_VS_PV['time_s']:+.1f}%" if paper else ""])
    return rows


PROVE_HEAD = ["procedure", "file", "prove", "prove s", "verified", "assumed", "unverified",
              "hand: tests", "non-red.", "failing", "prove: tests", "non-red.", "failing",
              "notes"]
PROVE_NUM = {"prove s", "verified", "assumed", "unverified", "hand: tests", "non-red.", "failing",
             "prove: tests"}


def prove_row(entry, path, hand, pr, guided, note):
    def counts(r):
        if r is None:
            return ["n/a"] * 3
        st = r["stats"]
        return [str(st.get("tests", 0)), str(st.get("non_redundant_tests", 0)),
                str(st.get("failing", 0))]
    if pr is None:
        ann = ["n/a"] * 5
    else:
        c = pr["counts"]
        ann = ([pr["verdict"], f"{pr['wall']:.1f}"]
               + ([str(c[k]) for k in ("verified", "assumed", "unverified")] if c
                  else ["n/a"] * 3))
    notes = [note] if note else []
    if guided is not None and notes_of(guided):
        notes.append("prove-annotated run: " + notes_of(guided))
    return [entry, path.name] + ann + counts(hand) + counts(guided) + ["; ".join(notes)]


# ---------------------------------------------------------------------------------------------

def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem")
    ap.add_argument("--solver", default="z3", choices=("z3", "cvc5"))
    ap.add_argument("--solving", default=None,
                    help="testgen --solving (classic|mixed|exe); default: testgen's own")
    ap.add_argument("--timeout", type=float, default=None,
                    help="--timeout of every tandem run, in seconds (default: none)")
    ap.add_argument("--check", default=None,
                    help="--check KIND,... of every run (default: all kinds; `assert` leaves "
                         "the implicit checks out, which otherwise count as unverified)")
    ap.add_argument("--skip-prove", action="store_true", help="part 1 only")
    ap.add_argument("--only", default=None,
                    help="comma-separated file stems of bench/models/icse16 to run")
    ap.add_argument("--keep", type=Path, default=None,
                    help="write the stripped and the prove-annotated files here (kept)")
    return ap.parse_args()


def discover(only):
    models = []
    for path in sorted(MODELS.glob("*.tdm")):
        if only and path.stem not in only:
            continue
        m = ENTRY.search(path.read_text().split("\n", 1)[0])
        if not m:
            log(f"guided_table: {path}: no '// entry: PROC' on the first line, skipped")
            continue
        models.append((path, m.group(1)))
    return models


def main():
    args = parse_args()
    if not args.tandem.exists():
        log(f"guided_table: error: tandem binary not found: {args.tandem}")
        return 1
    models = discover(set(args.only.split(",")) if args.only else None)
    header = [machine_line(),
              f"tandem:  {args.tandem} ({first_line([str(args.tandem), '--version'])})",
              f"command: {shlex.join([sys.executable] + sys.argv)}",
              f"models:  {len(models)} procedures from {MODELS.relative_to(REPO)}/*.tdm; "
              f"--solver {args.solver}, --solving {args.solving or '(testgen default)'}, "
              f"--check {args.check or '(all)'}, "
              f"--timeout {'none' if args.timeout is None else f'{args.timeout:g}'}"]
    log("\n".join(header))
    load_before, t0 = loadavg(), time.perf_counter()
    problems, results = [], {}

    # Part 1: every mode on the hand-annotated files.
    for path, entry in models:
        log(f"{path.name} ({entry})")
        for mode in MODES:
            r = testgen(args, path, entry, mode, problems)
            if r is not None:
                results[(path.name, mode)] = r

    # Part 2: annotations from prove --annotate.
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="guided_table."))
    tmp.mkdir(parents=True, exist_ok=True)
    prove_rows = []
    for path, entry in ([] if args.skip_prove else models):
        log(f"{path.name}: prove --annotate")
        stripped = tmp / (path.stem + ".stripped.tdm")
        annotated = tmp / (path.stem + ".annotated.tdm")
        stripped.write_text(strip_annotations(path.read_text()))
        annotated.unlink(missing_ok=True)
        pr, note = prove_annotate(args, stripped, entry, annotated, problems)
        guided = None
        if pr is not None and annotated.exists():
            guided = testgen(args, annotated, entry, "may-must", problems)
        elif pr is not None:
            note = "no annotated file written"
        prove_rows.append(prove_row(entry, path, results.get((path.name, "may-must")), pr,
                                    guided, note))
    if args.keep is None:
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
    elapsed = time.perf_counter() - t0

    print("\n".join(header))
    print(f"load:    average {load_before} before the runs, {loadavg()} after (1/5/15 min); "
          f"{elapsed:.1f} s wall for all runs")
    print()
    print("## Per procedure and mode (hand-written annotations)")
    print()
    print(format_table(PER_HEAD, per_rows(models, results), PER_NUM, markdown=True))
    print()
    print("## Totals per mode")
    print()
    complete = all((p.name, m) in results for p, _ in models for m in MODES)
    print(format_table(SUM_HEAD, sum_rows(totals(models, results)), SUM_NUM, markdown=True))
    print()
    print("tests, non-red. (stats.non_redundant_tests: tests whose execution ran an assertion "
          "without its premise, or an implicit check), failing, pruned, interrupts, undecided: "
          "sums over the procedures; procs failing: procedures with at least one failing test; "
          "time s: sum of stats.time_s; vs PV: the change relative to `--guide none`"
          + ("" if complete else " (over the procedures whose run of that mode and of PV "
                                  "did not crash)")
          + "; paper: ICSE'16's MAY x MUST against PV on its 101 methods (C#, Clousot "
          "annotations, Pex), whose absolute counts do not compare with these.")
    if not args.skip_prove:
        print()
        print("## Annotations from `prove --annotate` (may-must on both)")
        print()
        print(format_table(PROVE_HEAD, prove_rows, PROVE_NUM, markdown=True))
        print()
        print("prove: the verdict of `prove --annotate` on the file stripped of its "
              "annotations; prove s: its wall-clock time (each assertion's proof is bounded by "
              "30 s without --timeout); verified, assumed, unverified: its `annotations` by "
              "`result` (verified true, verified under `assumed no_overflow_...` lines, "
              "verified false); hand: may-must on the hand-annotated file (part 1); prove: "
              "may-must on the file prove wrote; n/a: prove exited 2 or wrote no file.")
    if problems:
        print()
        print("## Problems")
        print()
        for p in problems:
            print("- " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

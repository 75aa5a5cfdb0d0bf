#!/usr/bin/env python3
"""Every bound and signal ends every command with its whole report (issue: engine core).

Each command runs on a model of tests/bounds/ that would run for ever, once with each of
--timeout 2, --memory-limit 50, --max-states N, --max-depth N, and once interrupted by SIGINT
(and once by SIGTERM) after 2 s. Every run must
  - end within 3 s after its time bound (2 s for --timeout and the signals; the others end on
    their own, within a generous limit),
  - stay under 1.25 x its memory limit (peak RSS of the process, from wait4),
  - print a complete JSON report with verdict `unknown` and the bound's reason,
  - exit with status 4,
and testgen's report holds the tests found so far. A stopped export-chc leaves no `-o` file and
prints no (check-sat). SOLVER_HANGS are queries Z3 works on without looking at its interrupt, and
a long cvc5 check (cvc5 1.0.3 has no interrupt): they run with --timeout and the signals only,
and must end within HANG_SLACK.

usage: check_bounds.py --tandem PATH [--only SUBSTRING] [-j N]
"""

import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def model(name):
    return os.path.join(HERE, name)


# (name, arguments, the stats key the state bound counts, state bound, depth bound)
COMMANDS = [
    ("check explicit", ["check", model("forever.tdm")], 20000, 30),
    ("check tree", ["check", model("forever.tdm"), "--store", "tree"], 20000, 30),
    # The lossy stores: the frontier and the path hold the states (docs/check.md).
    ("check hc", ["check", model("forever.tdm"), "--store", "hc"], 20000, 30),
    ("check bitstate", ["check", model("forever.tdm"), "--store", "bitstate"], 20000, 30),
    ("check symbolic", ["check", model("paths.tdm"), "--entry", "walk"], 10000, 6100),
    ("prove", ["prove", model("toggles.tdm")], 5000, 3),
    ("testgen classic", ["testgen", model("paths.tdm"), "--entry", "walk", "--solving", "classic"], 10000, 6100),
    ("testgen mixed", ["testgen", model("paths.tdm"), "--entry", "walk", "--solving", "mixed"], 10000, 6100),
    ("testgen exe", ["testgen", model("paths.tdm"), "--entry", "walk", "--solving", "exe"], 10000, 6100),
    # f64 with a native, random solving's 1000 rounds of tries per query (issue #19).
    ("testgen mixed f64", ["testgen", model("floats.tdm"), "--entry", "walk", "--paper-defaults"], 40, 30),
    ("testgen dart", ["testgen", model("paths.tdm"), "--entry", "walk", "--solving", "dart"], 10000, 6100),
    ("testgen guided", ["testgen", model("paths.tdm"), "--entry", "walk", "--guide", "may-must"], 10000, 6100),
    ("testgen dse", ["testgen", model("paths.tdm"), "--entry", "walk", "--dse"], 10000, 6100),
    ("testgen compositional", ["testgen", model("calls.tdm"), "--entry", "walk", "--compositional"], 10000, 6100),
    ("run", ["run", model("grows.tdm"), "--steps", "100000000"], 1000, 1000),
    # A million frames: the memory grows with the depth of the recursion.
    ("run recursion", ["run", model("recursion.tdm"), "--entry", "main", "--args", "1000000", "--steps", "100000000"], 1000, 1000),
    # The clauses go to a file ({out}), which a bound leaves absent: never a truncated system.
    ("export-chc", ["export-chc", model("many.tdm"), "-o", "{out}"], 200, 3),
    ("export-chc p255", ["export-chc", model("counters255.tdm"), "-o", "{out}"], 20, 1),
    ("export-chc stdout", ["export-chc", model("counters255.tdm")], 20, 1),
    # The unwinding of 100,000 iterations (nodes are the states), then endless paths.
    ("cover", ["cover", model("paths.tdm"), "--entry", "walk", "--unwind", "100000", "--algo", "paths"], 2000, 500),
    # A counterexample of 600,002 steps saved by check (make_replay_report): its --json report
    # (138 MB) is read and re-executed within the bounds; replay takes no --max-states or
    # --max-depth (None: not run).
    ("replay", ["replay", model("long_trace.tdm"), "REPORT", "--entry", "main"], None, None),
]

# Z3 4.8.12 steps that do not look at Z3_interrupt: the query's own time runs out, not the
# memory or a count, so only the time bound and the signals apply.
SOLVER_HANGS = [
    ("cover z3 push", ["cover", model("squares.tdm"), "--entry", "main", "--unwind", "25"]),
    ("testgen classic nl", ["testgen", model("squares_input.tdm"), "--entry", "main", "--solving", "classic"]),
    ("testgen classic f64", ["testgen", model("floats.tdm"), "--entry", "walk", "--solving", "classic"]),
    # One check of 40 s and more; a signal waited for its end.
    ("testgen cvc5 nl", ["testgen", model("squares_input.tdm"), "--entry", "main", "--solving", "classic", "--solver", "cvc5"]),
]
TIMED = ("timeout", "SIGINT", "SIGTERM")

TIME_BOUND = 2.0     # --timeout and the signals
SLACK = 3.0          # the run ends within this many seconds after its time bound
OWN_LIMIT = 60.0     # runs without a time bound must end on their own within this
MEMORY_MB = 50
HANG_SLACK = 1.5     # a solver query the run's stop abandons ends the run within this


def bounds(states, depth):
    return [
        ("timeout", ["--timeout", "2"], "timeout (2 s)", TIME_BOUND + SLACK),
        ("memory", ["--memory-limit", str(MEMORY_MB)], f"memory limit ({MEMORY_MB} MB)",
         OWN_LIMIT),
    ] + ([("states", ["--max-states", str(states)], f"state bound ({states})", OWN_LIMIT)]
         if states is not None else []) + (
        [("depth", ["--max-depth", str(depth)], f"depth bound ({depth})", OWN_LIMIT)]
        if depth is not None else []) + [
        ("SIGINT", [], "interrupted", TIME_BOUND + SLACK),
        ("SIGTERM", [], "interrupted", TIME_BOUND + SLACK),
    ]


def make_replay_report(tandem, folder):
    """The report replay re-executes: check's counterexample of model long_trace.tdm."""
    path = os.path.join(folder, "long_trace.json")
    with open(path, "wb") as out:
        subprocess.run([tandem, "check", model("long_trace.tdm"), "--entry", "main", "--json",
                        "--quiet"], stdout=out, stdin=subprocess.DEVNULL, check=False)
    return path


def run_case(tandem, name, args, bound, hangs=False):
    kind, extra, reason, limit = bound
    problems = []
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryFile() as out, \
            tempfile.TemporaryFile() as err:
        output = os.path.join(tmp, "out.smt2")
        argv = [tandem] + [output if a == "{out}" else a for a in args] + extra + ["--json", "--quiet"]
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        if kind.startswith("SIG"):
            time.sleep(TIME_BOUND)
            proc.send_signal(signal.SIGINT if kind == "SIGINT" else signal.SIGTERM)
        # wait4 gives the child's own peak resident set size.
        deadline = start + limit + 30
        status = rusage = None
        while True:
            pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                _, status, rusage = os.wait4(proc.pid, 0)
                problems.append(f"killed after {limit + 30:.0f} s")
                break
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - start
        peak_mb = rusage.ru_maxrss / 1024
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", "replace")
        errtext = err.read().decode("utf-8", "replace")
        # A bound leaves no clauses file (a truncated one ending in (check-sat) looked whole).
        if "{out}" in args and os.path.exists(output):
            problems.append(f"the bound left a clauses file of {os.path.getsize(output)} bytes")
    if elapsed > limit:
        problems.append(f"took {elapsed:.1f} s (limit {limit:.0f} s)")
    try:
        report = json.loads(text)
        parse_error = None
    except ValueError as e:
        report, parse_error = None, e
    # The report's own peak (VmHWM, reset by exec): wait4's figure also counts what the child
    # shared with this script between fork and exec.
    try:
        peak_mb = min(peak_mb, float(report["stats"]["peak_rss_mb"]))
    except (KeyError, TypeError, ValueError):
        pass
    if kind == "memory" and peak_mb > 1.25 * MEMORY_MB:
        problems.append(f"peak RSS {peak_mb:.0f} MB over 1.25 x {MEMORY_MB} MB")
    if proc.returncode != 4:
        problems.append(f"exit status {proc.returncode}, not 4")
    if parse_error is not None:
        problems.append(f"stdout is not a JSON report ({parse_error}): {text[:200]!r}")
    if report is not None:
        if report.get("verdict") != "unknown":
            problems.append(f"verdict {report.get('verdict')!r}, not 'unknown'")
        if not str(report.get("reason", "")).startswith(reason):
            problems.append(f"reason {report.get('reason')!r} does not start with {reason!r}")
        for key in ("tool", "schema_version", "command", "file", "stats"):
            if key not in report:
                problems.append(f"no '{key}' in the report")
        if args[0] == "testgen" and not report.get("tests") and not hangs:
            problems.append("testgen's report has no tests (the ones found so far belong there)")
        if "(check-sat)" in str(report.get("smtlib", "")):
            problems.append("the clauses of a stopped export end in (check-sat)")
    if problems and errtext.strip():
        problems.append("stderr: " + errtext.strip()[-300:])
    return (name, kind, elapsed, peak_mb, problems)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    cases = []
    folder = tempfile.TemporaryDirectory()
    report = None
    for name, args, states, depth in COMMANDS:
        for b in bounds(states, depth):
            if a.only in f"{name} {b[0]}":
                if "REPORT" in args:
                    report = report or make_replay_report(a.tandem, folder.name)
                    args = [report if x == "REPORT" else x for x in args]
                cases.append((name, args, b, False))
    for name, args in SOLVER_HANGS:
        for b in bounds(1, 1):
            if b[0] in TIMED and a.only in f"{name} {b[0]}":
                cases.append((name, args, b[:3] + (TIME_BOUND + HANG_SLACK,), True))
    failed = 0
    # Processes, not threads: a thread parsing one run's 100 MB report held the GIL while
    # another thread's clock ran, and a run that ended in 2 s was timed at 5 s.
    with concurrent.futures.ProcessPoolExecutor(max_workers=a.j) as pool:
        futures = [pool.submit(run_case, a.tandem, n, args, b, h) for n, args, b, h in cases]
        for f in futures:
            name, kind, elapsed, peak, problems = f.result()
            status = "FAIL" if problems else "ok  "
            print(f"{status} {name:20} {kind:8} {elapsed:5.1f} s {peak:6.0f} MB", flush=True)
            for p in problems:
                print(f"     {p}")
            failed += bool(problems)
    print(f"{len(cases) - failed} of {len(cases)} runs ended as they should")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

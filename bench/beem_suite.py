#!/usr/bin/env python3
"""The whole BEEM suite with Tandem: state and transition counts, time, memory, prop1, deadlocks.

Every instance of ../shared/external/beem/expected/state_counts_helena.csv (204 instances, each
with its external/beem/dve/X.dve) is taken in the order of its expected state count, one process
after the other (never in parallel). An instance with at most --limit (default 2,000,000)
expected states runs in full, as

  tandem check X.dve --no-deadlock --json --quiet --search dfs            the counts, DFS
  tandem check X.dve --no-deadlock --json --quiet --search bfs            the counts, BFS
  tandem check X.dve --no-deadlock --json --quiet --search bfs --invariant EXPR
                                                  prop1, when bench/beem_prop1.tsv defines it
  tandem check X.dve --json --quiet --search bfs  deadlocks (checked by default)

each with Tandem's own `--timeout` and `--memory-limit` and a subprocess timeout 60 s longer.
The states and transitions of both searches are compared with the expected counts; an instance
matches when all four numbers are equal.

An instance with more than --limit but at most --count-limit (default 50,000,000) expected
states runs once, `--no-deadlock --search dfs` only, with --big-timeout (default 1200 s) and
--big-memory-limit (default 16000 MB); its bfs, prop1 and deadlock cells are `-` and its counts
compare the DFS states and transitions with the expected ones. An instance with more than
--count-limit expected states is not run; its row says `skipped (over limit)`. --from-states N
leaves out (no row) the instances with fewer than N expected states, so that the large ones can
be run alone (--from-states 2000001).

From each run the script records Tandem's stats (states, transitions, time_s, peak_rss_mb,
store_bytes_per_state), its verdict, and the CPU seconds of the child (user + sys, the delta of
resource.getrusage(RUSAGE_CHILDREN)).

prop1: bench/beem_prop1.tsv gives, per instance, the BEEM reachability property prop1 as a Tandem
invariant (the negation of its target) and the expected verdict of
reachability_prop1_expected.txt. `reachable` must give verdict `error` with error kind
`invariant`; `safe` must give `verified`.

Deadlocks: DVE has no valid end states, so Tandem reports a state without successors as a
deadlock, as DiVinE does. The column says `deadlock`, `none` (the search ended without one) or
`unknown`. It is informational: there is no expected value to compare it with.

Known mismatches (--known-mismatch, default plc.4): these rows are still reported as mismatches
(marked `known`) but do not make the exit status 1. plc.4 is listed because Tandem finds 3,763,999
states where Helena's report says 651,605, and Helena's figure is suspicious: plc.1-3 match,
plc.4 differs from plc.3 only in the constant maxtime (600 instead of 500), and plc.3 already has
1,268,968 states, so a larger bound giving about half the states is unlikely.

Exit status: 0 all counts and prop1 verdicts right (known mismatches aside), 1 a count or prop1
verdict is wrong, 2 a run failed (no JSON report, a crash, a timeout or memory limit) or bad
arguments. Python 3 standard library only. See bench/README.md.
"""
import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from bench_common import (children_cpu, f_int, f_sec, first_line, format_table, loadavg, log,
                          machine_line)

REPO = Path(__file__).resolve().parent.parent

# counts that disagree with the expected file for a reason outside Tandem (module docstring)
KNOWN_MISMATCHES = ["plc.4"]


def load_counts(beem):
    """instance -> (states, transitions) from state_counts_helena.csv."""
    counts = {}
    with open(beem / "expected" / "state_counts_helena.csv") as f:
        next(f)
        for line in f:
            parts = line.strip().split(",")
            if len(parts) >= 3 and parts[1].isdigit() and parts[2].isdigit():
                counts[parts[0]] = (int(parts[1]), int(parts[2]))
    return counts


def load_prop1(path):
    """instance -> (expected verdict, invariant) from bench/beem_prop1.tsv."""
    prop1 = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "instance" or len(cols) < 3:
                continue
            prop1[cols[0]] = (cols[1].strip(), cols[2].strip())
    return prop1


def has_channels(dve_text):
    text = re.sub(r"/\*.*?\*/", "", dve_text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.search(r"\bchannel\b", text) is not None


# ---------------------------------------------------------------------------------------------
# running Tandem

def run_tandem(args, dve, extra, big=False):
    """One `tandem check` run; returns a dict of its measurements ("error" when it failed).
    big: a dfs-only run of an instance over --limit, with --big-timeout and --big-memory-limit."""
    timeout = args.big_timeout if big else args.timeout
    memory_limit = args.big_memory_limit if big else args.memory_limit
    cmd = [str(args.tandem), "check", str(dve)] + extra + [
        "--json", "--quiet", "--timeout", f"{timeout:g}",
        "--memory-limit", str(memory_limit)]
    res = {"cmd": cmd}
    cpu0, t0 = children_cpu(), time.perf_counter()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace", timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        res.update({"cpu_s": children_cpu() - cpu0, "wall_s": time.perf_counter() - t0,
                    "error": f"killed after {timeout + 60:g} s (subprocess timeout)"})
        return res
    except OSError as e:
        res["error"] = f"could not run: {e}"
        return res
    res.update({"rc": p.returncode, "cpu_s": children_cpu() - cpu0,
                "wall_s": time.perf_counter() - t0})
    try:
        js = json.loads(p.stdout)
    except ValueError:
        res["error"] = (f"no JSON report (exit {p.returncode}): "
                        f"{(p.stderr or p.stdout).strip()[:300]}")
        return res
    st = js.get("stats", {})
    err = js.get("error") or {}
    res.update({
        "engine": js.get("engine"),
        "verdict": js.get("verdict"),
        "reason": js.get("reason"),
        "error_kind": err.get("kind"),
        "error_message": err.get("message"),
        "states": st.get("states"),
        "transitions": st.get("transitions"),
        "depth": st.get("depth"),
        "time_s": st.get("time_s"),
        "peak_rss_mb": st.get("peak_rss_mb"),
        "store_bytes_per_state": st.get("store_bytes_per_state"),
    })
    if res["verdict"] == "unknown":
        res["error"] = f"verdict unknown: {res['reason'] or '?'}"
    elif p.returncode not in (0, 1) or res["verdict"] not in ("verified", "error"):
        res["error"] = f"exit {p.returncode}, verdict {res['verdict']} {res['reason'] or ''}".strip()
    return res


def short(r):
    if "error" in r:
        return f"FAILED: {r['error']}"
    v = r["verdict"] + (f" ({r['error_kind']})" if r.get("error_kind") else "")
    return (f"{f_int(r.get('states'))} states, {f_int(r.get('transitions'))} transitions, "
            f"{f_sec(r.get('time_s'))} s, cpu {f_sec(r.get('cpu_s'))} s, {v}")


def run_instance(args, inst, dve, exp, prop1_row):
    rec = {"instance": inst, "expected_states": exp[0], "expected_transitions": exp[1],
           "channels": has_channels(dve.read_text(errors="replace")), "problems": [],
           "failures": []}
    if prop1_row:
        rec["prop1_expected"], rec["prop1_invariant"] = prop1_row
    if exp[0] > args.count_limit:
        rec["status"] = "skipped (over limit)"
        return rec
    big = rec["dfs_only"] = exp[0] > args.limit
    for search in ("dfs",) if big else ("dfs", "bfs"):
        r = run_tandem(args, dve, ["--no-deadlock", "--search", search], big=big)
        log(f"    {search}:      {short(r)}")
        rec[search] = r
        if "error" in r:
            rec["failures"].append(f"{inst}: {search} run failed: {r['error']}")
        elif r["verdict"] != "verified":
            rec["problems"].append(f"{inst}: {search} verdict {r['verdict']} "
                                   f"({r.get('error_kind')}: {r.get('error_message')})")
        else:
            if r["states"] != exp[0]:
                rec["problems"].append(f"{inst}: {search} states {f_int(r['states'])} != "
                                       f"expected {f_int(exp[0])}")
            if r["transitions"] != exp[1]:
                rec["problems"].append(f"{inst}: {search} transitions "
                                       f"{f_int(r['transitions'])} != expected {f_int(exp[1])}")
    if big:
        if rec["failures"]:
            rec["status"] = "failed"
        elif rec["problems"]:
            rec["status"] = "known" if inst in args.known_mismatch else "MISMATCH"
        else:
            rec["status"] = "ok"
        return rec
    if prop1_row:
        want, expr = prop1_row
        r = run_tandem(args, dve, ["--no-deadlock", "--search", "bfs", "--invariant", expr])
        log(f"    prop1:    {short(r)} (expected {want})")
        rec["prop1"] = r
        got = None
        if "error" in r:
            rec["failures"].append(f"{inst}: prop1 run failed: {r['error']}")
        elif r["verdict"] == "verified":
            got = "safe"
        elif r["verdict"] == "error" and r.get("error_kind") == "invariant":
            got = "reachable"
        else:
            got = f"error:{r.get('error_kind')}"
        rec["prop1_got"] = got
        if got is not None and want in ("safe", "reachable") and got != want:
            rec["problems"].append(f"{inst}: prop1 {got} but expected {want}")
    r = run_tandem(args, dve, ["--search", "bfs"])
    log(f"    deadlock: {short(r)}")
    rec["deadlock_run"] = r
    if "error" in r:
        rec["deadlock"] = "unknown"
    elif r["verdict"] == "verified":
        rec["deadlock"] = "none"
    elif r["verdict"] == "error" and r.get("error_kind") == "deadlock":
        rec["deadlock"] = "deadlock"
    else:
        rec["deadlock"] = f"error:{r.get('error_kind')}"
    counts_wrong = [p for p in rec["problems"] if "prop1" not in p]
    if rec["failures"] and not counts_wrong and not all(
            s in rec and "error" not in rec[s] for s in ("dfs", "bfs")):
        rec["status"] = "failed"
    elif counts_wrong:
        rec["status"] = "known" if inst in args.known_mismatch else "MISMATCH"
    else:
        rec["status"] = "ok"
    return rec


# ---------------------------------------------------------------------------------------------
# table

def f_mega(n):
    return f"{n // 1_000_000} M" if n % 1_000_000 == 0 else f"{n:,}"


def f_sec2(x):
    return "-" if x is None else f"{x:.2f}"


HEADER = ["instance", "channels", "expected states", "expected transitions", "dfs states",
          "bfs states", "transitions match", "counts", "dfs s", "bfs s", "peak MB", "B/state",
          "prop1 expected", "prop1 Tandem", "deadlock"]
NUMERIC = {"expected states", "expected transitions", "dfs states", "bfs states", "dfs s",
           "bfs s", "peak MB", "B/state"}


def row_of(rec):
    d, b = rec.get("dfs", {}), rec.get("bfs", {})
    ran = "dfs" in rec
    full = ran and not rec.get("dfs_only")

    def trans_match():
        if not ran:
            return "-"
        t = [x.get("transitions") if "error" not in x else None
             for x in ((d, b) if full else (d,))]
        if None in t:
            return "n/a"
        return "yes" if all(x == rec["expected_transitions"] for x in t) else \
            f"no ({' / '.join(f_int(x) for x in t)})"

    def mx(key):
        vals = [x.get(key) for x in (d, b) if x.get(key) is not None]
        return max(vals) if vals else None

    peak, bps = mx("peak_rss_mb"), mx("store_bytes_per_state")
    prop1_got = rec.get("prop1_got") or ("-" if "prop1" not in rec else "failed")
    if not full:
        prop1_got = "-"
    return [rec["instance"], "yes" if rec["channels"] else "no",
            f_int(rec["expected_states"]), f_int(rec["expected_transitions"]),
            f_int(d.get("states")) if ran else "-", f_int(b.get("states")) if full else "-",
            trans_match(), rec["status"],
            f_sec(d.get("time_s")) if ran else "-", f_sec(b.get("time_s")) if full else "-",
            "-" if peak is None else f"{peak:,.0f}", "-" if bps is None else f"{bps:.1f}",
            rec.get("prop1_expected", "-"), prop1_got, rec.get("deadlock", "-")]


def machine_info(args):
    return [machine_line(),
            f"tandem:  {args.tandem} ({first_line([str(args.tandem), '--version'])})",
            f"runs:    one at a time; up to {args.limit:,} expected states: dfs, bfs, prop1 and "
            f"deadlock runs with --timeout {args.timeout:g} --memory-limit {args.memory_limit}; "
            f"up to {args.count_limit:,}: one dfs run with --timeout {args.big_timeout:g} "
            f"--memory-limit {args.big_memory_limit}; more: skipped"
            + (f"; instances under {args.from_states:,} expected states left out"
               if args.from_states > 0 else "")]


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description="The whole BEEM suite with Tandem: counts (DFS and BFS) against Helena's, "
                    "time, memory, prop1 and deadlocks.",
        epilog="Exit status: 0 all counts and prop1 verdicts right (known mismatches aside), "
               "1 a count or verdict is wrong, 2 a run failed or bad arguments.")
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem",
                    help="tandem binary (default: %(default)s)")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared",
                    help="the shared folder with external/beem (default: %(default)s)")
    ap.add_argument("--prop1", type=Path, default=REPO / "bench" / "beem_prop1.tsv",
                    help="prop1 definitions (default: %(default)s)")
    ap.add_argument("--limit", type=int, default=2_000_000,
                    help="run dfs, bfs, prop1 and deadlock only for instances with at most N "
                         "expected states (default: %(default)s)")
    ap.add_argument("--count-limit", type=int, default=50_000_000, metavar="N",
                    help="instances over --limit with at most N expected states run once, "
                         "--search dfs only; larger ones are skipped (default: %(default)s)")
    ap.add_argument("--from-states", type=int, default=0, metavar="N",
                    help="leave out the instances with fewer than N expected states "
                         "(default: %(default)s)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds allowed for each run (Tandem's --timeout; the process is "
                         "killed 60 s later) (default: %(default)s)")
    ap.add_argument("--memory-limit", type=int, default=8000,
                    help="Tandem's --memory-limit in MB (default: %(default)s)")
    ap.add_argument("--big-timeout", type=float, default=1200,
                    help="--timeout of the dfs-only runs (instances over --limit) "
                         "(default: %(default)s)")
    ap.add_argument("--big-memory-limit", type=int, default=16000,
                    help="--memory-limit of the dfs-only runs (default: %(default)s)")
    ap.add_argument("--only", metavar="SUBSTR",
                    help="run only the instances whose name contains SUBSTR")
    ap.add_argument("--known-mismatch", action="append", metavar="INST",
                    help="count mismatch of INST is marked `known` and does not fail the exit "
                         "status; repeatable (default: " + ", ".join(KNOWN_MISMATCHES) + ")")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json-out", type=Path, help="also write all raw measurements as JSON")
    args = ap.parse_args()
    if args.known_mismatch is None:
        args.known_mismatch = list(KNOWN_MISMATCHES)
    if args.count_limit < args.limit:
        ap.error("--count-limit must be at least --limit")

    args.tandem = args.tandem.resolve()
    beem = args.shared.resolve() / "external" / "beem"
    dve_dir = beem / "dve"
    for what, p in (("tandem binary", args.tandem), ("BEEM folder", dve_dir),
                    ("expected counts", beem / "expected" / "state_counts_helena.csv"),
                    ("prop1 definitions", args.prop1)):
        if not p.exists():
            log(f"beem_suite: error: {what} not found: {p}")
            return 2
    counts = load_counts(beem)
    prop1 = load_prop1(args.prop1)
    missing = sorted(i for i in counts if not (dve_dir / f"{i}.dve").exists())
    if missing:
        log(f"beem_suite: error: no .dve file for {', '.join(missing)}")
        return 2
    no_count = sorted(p.stem for p in dve_dir.glob("*.dve") if p.stem not in counts)
    instances = sorted(counts, key=lambda i: (counts[i][0], i))
    if args.only:
        instances = [i for i in instances if args.only in i]
    below = [i for i in instances if counts[i][0] < args.from_states]
    instances = [i for i in instances if counts[i][0] >= args.from_states]

    info = machine_info(args)
    load_before = loadavg()
    t_start = time.perf_counter()
    results = []
    for k, inst in enumerate(instances, 1):
        exp = counts[inst]
        log(f"[{k}/{len(instances)}] {inst} (expected {f_int(exp[0])} states)"
            + (" skipped (over limit)" if exp[0] > args.count_limit else
               " dfs only" if exp[0] > args.limit else ""))
        results.append(run_instance(args, inst, dve_dir / f"{inst}.dve", exp, prop1.get(inst)))
        for p in results[-1]["problems"] + results[-1]["failures"]:
            log(f"    *** {p}")
    total_wall = time.perf_counter() - t_start

    ran = [r for r in results if "dfs" in r]
    full = [r for r in ran if not r.get("dfs_only")]
    big = [r for r in ran if r.get("dfs_only")]
    runs = [r[k] for r in ran for k in ("dfs", "bfs", "prop1", "deadlock_run") if k in r]
    total_cpu = sum(x.get("cpu_s") or 0 for x in runs)
    big_wall = sum(r["dfs"].get("wall_s") or 0 for r in big)
    big_cpu = sum(r["dfs"].get("cpu_s") or 0 for r in big)
    exact = [r for r in full if r["status"] == "ok"]
    big_exact = [r for r in big if r["status"] == "ok"]
    mism = [r for r in ran if r["status"] in ("MISMATCH", "known")]
    failed = [r for r in ran if r["status"] == "failed"]
    p1 = [r for r in full if r.get("prop1_expected") in ("safe", "reachable")]
    p1_ok = [r for r in p1 if r.get("prop1_got") == r["prop1_expected"]]
    dl = {}
    for r in full:
        dl[r.get("deadlock", "unknown")] = dl.get(r.get("deadlock", "unknown"), 0) + 1

    def search_s(r):
        return sum((r.get(s, {}).get("time_s") or 0) for s in ("dfs", "bfs"))

    def peak(r):
        vals = [r[s]["peak_rss_mb"] for s in ("dfs", "bfs") if r.get(s, {}).get("peak_rss_mb")]
        return f" ({max(vals):,.0f} MB)" if vals else ""

    slowest = sorted(ran, key=lambda r: -search_s(r))[:5]
    n_skipped = len([r for r in results if "dfs" not in r])

    info.append(f"load:    average {load_before} before the runs, {loadavg()} after "
                f"(1/5/15 min)")
    prefix = "- " if args.markdown else ""
    print("\n".join(prefix + line for line in info))
    print()
    print(format_table(HEADER, [row_of(r) for r in results], NUMERIC, args.markdown))
    print()
    print("dfs/bfs states: stats.states of `check --no-deadlock --search dfs|bfs`; transitions "
          "match: both searches' transitions (the dfs one alone for a dfs-only instance) equal "
          "the expected count; counts: ok (all four counts, or for a dfs-only instance the dfs "
          "states and transitions, equal the expected ones), MISMATCH, known (a "
          "--known-mismatch), failed, or skipped; dfs-only instances (over --limit) have `-` in "
          "the bfs, prop1 and deadlock cells; dfs/bfs s: Tandem's stats.time_s; peak MB: the "
          "larger stats.peak_rss_mb of the two runs; B/state: the larger "
          "stats.store_bytes_per_state; prop1 Tandem: `--invariant prop1` gives verified (safe) "
          "or an invariant error (reachable); deadlock: a plain BFS `check` (deadlocks on) found "
          "one or not.")
    print()
    summary = [
        f"instances: {len(results) + len(below)} in state_counts_helena.csv"
        + (f" (--only {args.only})" if args.only else "")
        + (f", {len(below)} left out (under --from-states {args.from_states:,})"
           if below else "")
        + f", {len(full)} run in full (up to {f_mega(args.limit)}), {len(big)} dfs only "
        f"({f_mega(args.limit)}–{f_mega(args.count_limit)}), {n_skipped} skipped "
        f"(over {f_mega(args.count_limit)})"
        + (f"; .dve files without an expected count, not run: {', '.join(no_count)}"
           if no_count and not args.only else ""),
        f"exact matches (states and transitions, DFS and BFS, up to {f_mega(args.limit)}): "
        f"{len(exact)}/{len(full)}",
        f"dfs only ({f_mega(args.limit)}–{f_mega(args.count_limit)}): {len(big)} run, "
        f"{len(big_exact)} exact (states and transitions); {big_wall:.1f} s wall, "
        f"{big_cpu:.1f} s CPU",
        "mismatches: " + (", ".join(r["instance"] + (" (known)" if r["status"] == "known"
                                                     else "") for r in mism) or "none"),
        "failed runs: " + (", ".join(r["instance"] for r in failed) or "none"),
        f"prop1 agreement: {len(p1_ok)}/{len(p1)}"
        + ("" if len(p1_ok) == len(p1) else "; disagree: " + ", ".join(
            f"{r['instance']} ({r.get('prop1_got')} vs {r['prop1_expected']})"
            for r in p1 if r not in p1_ok)),
        "deadlock: " + (", ".join(f"{v} {k}" for k, v in sorted(dl.items())) or "no run"),
        f"total time: {total_wall:.1f} s wall, {total_cpu:.1f} s CPU of the Tandem runs",
        "slowest (dfs s + bfs s; dfs s alone for dfs only; peak MB): " + ", ".join(
            f"{r['instance']} {search_s(r):.1f} s{peak(r)}" for r in slowest),
    ]
    print("\n".join(prefix + line for line in summary))

    if args.json_out:
        args.json_out.write_text(json.dumps(
            {"machine": info, "summary": summary, "limit": args.limit,
             "count_limit": args.count_limit, "from_states": args.from_states,
             "known_mismatch": args.known_mismatch, "results": results}, indent=2))
    problems = [p for r in results for p in r["problems"]
                if not (r["status"] == "known" and "prop1" not in p)]
    failures = [p for r in results for p in r["failures"]]
    if problems or failures:
        print()
        print(f"*** {len(problems)} MISMATCH(ES), {len(failures)} FAILED RUN(S) ***")
        for p in problems + failures:
            print(f"*** {p}")
        return 2 if failures else 1
    print()
    print("all counts and prop1 verdicts match"
          + (" (known mismatches aside)" if mism else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

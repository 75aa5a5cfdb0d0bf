#!/usr/bin/env python3
"""`tandem prove` at scale (issue #11 item 9), beside Z3's Horn engine and `tandem check`.

Part 1, bench/models/{bakery,ticket,filter}{2,3,4}.tdm, one run after the other:
  prove   tandem prove FILE --json --timeout T
          (verdict, abstract_states, fabricated_states, solver_queries, stats.time_s)
  spacer  tandem export-chc FILE -o X.smt2, then z3 -T:T X.smt2 (sat = safe, unsat = unsafe)
  check   tandem check FILE --json --timeout T --max-states 1000000
  no predicates  tandem prove COPY --refine --json --timeout T, COPY being FILE with every
          `predicate` line removed (the predicates refinement finds: rounds, predicates found)
Part 2, every BEEM mutual-exclusion instance (anderson bakery fischer lamport mcs peterson
szymanski; --nonatomic adds lamport_nonatomic; *.prop*.dve skipped) with PROP1 = no two
processes in CS, built like tests/unit/beem_test.cpp's prop1():
  prove   tandem prove FILE --invariant PROP1 --no-deadlock --auto-predicates --json --timeout T
          (--refine: tandem prove FILE --invariant PROP1 --refine, predicates found by refinement)
  spacer  tandem export-chc FILE --invariant PROP1 -o X.smt2, then z3 -T:T X.smt2
Verdicts are compared with expected/reachability_prop1_expected.txt: proved/sat with
`reachable`, or error/unsat with `safe`, is printed as WRONG.
Times are wall-clock seconds of the whole child process (z3's include only z3, not the export).

Usage: python3 bench/prove_scale.py [--tandem build/tandem] [--z3 z3] [--shared DIR]
           [--timeout S] [--beem-timeout S] [--spacer-timeout S] [--only SUBSTR]
           [--nonatomic] [--skip-beem] [--skip-models] [--skip-spacer] [--refine]
Python 3 standard library only. Exit status 1 if a verdict is WRONG.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FAMILIES = ["anderson", "bakery", "fischer", "lamport", "mcs", "peterson", "szymanski"]
WRONG = []


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t0


def tandem_json(cmd, timeout):
    p, wall = run(cmd, timeout + 15)
    if p is None:
        return {"verdict": "timeout(kill)"}, wall
    try:
        d = json.loads(p.stdout)
    except json.JSONDecodeError:
        msg = (p.stderr.strip().splitlines() or ["?"])[-1][:60]
        return {"verdict": f"n/a: {msg}"}, wall
    return d, wall


def spacer(args, tandem, z3, src, extra, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.smt2"
        p, _ = run([tandem, "export-chc", str(src), *extra, "-o", str(out), "--quiet"], 120)
        if p is None or p.returncode != 0 or not out.exists():
            msg = "export timeout" if p is None else \
                (p.stderr.strip().splitlines() or ["export failed"])[-1][:60]
            return f"n/a: {msg}", None
        p, wall = run([z3, f"-T:{timeout}", str(out)], timeout + 15)
        if p is None:
            return "timeout", wall
        first = (p.stdout.strip().splitlines() or [""])[0].strip()
        if first == "sat":
            return "sat (safe)", wall
        if first == "unsat":
            return "unsat (unsafe)", wall
        if "timeout" in p.stdout or "timeout" in p.stderr:
            return "timeout", wall
        return first or "?", wall


def fmt(x, digits=2):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def table(cols, rows):
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        print("| " + " | ".join(fmt(c) for c in r) + " |")
    print(flush=True)


def prop1(dve):
    text = Path(dve).read_text()
    cs = []
    for m in re.finditer(r"process\s+(\w+)\s*\{(.*?)\bstate\s+([^;]*);", text, re.S):
        states = [s.strip() for s in m.group(3).split(",")]
        if "CS" in states:
            cs.append(m.group(1))
    pairs = " || ".join(f"({a}@CS && {b}@CS)" for a, b in combinations(cs, 2))
    return "!(" + pairs + ")" if pairs else None


def stats_of(d):
    s = d.get("stats", {})
    return (s.get("abstract_states"), s.get("fabricated_states"), s.get("solver_queries"),
            s.get("time_s"))


def part_models(a):
    rows = []
    for fam in ["bakery", "ticket", "filter"]:
        for n in (2, 3, 4):
            f = REPO / "bench" / "models" / f"{fam}{n}.tdm"
            if a.only and a.only not in f.stem:
                continue
            d, pw = tandem_json([a.tandem, "prove", str(f), "--json", "--quiet",
                                 "--timeout", str(a.timeout)], a.timeout)
            ab, fab, q, own = stats_of(d)
            sv, sw = spacer(a, a.tandem, a.z3, f, [], a.spacer_timeout or a.timeout)
            c, cw = tandem_json([a.tandem, "check", str(f), "--json", "--quiet", "--timeout",
                                 str(a.timeout), "--max-states", "1000000"], a.timeout)
            cv = c.get("verdict")
            if c.get("reason"):
                cv += f" ({c['reason']})"
            cs = c.get("stats", {}).get("states")
            pv = d.get("verdict")
            if d.get("reason"):
                pv += f" ({d['reason']})"
            if d.get("verdict") == "error" or sv.startswith("unsat") or c.get("verdict") == "error":
                WRONG.append(f"{f.stem}: a mutual-exclusion model reported unsafe "
                             f"(prove {pv}, spacer {sv}, check {cv})")
            # The same model without its predicates: refinement finds them.
            with tempfile.TemporaryDirectory() as tmp:
                bare = Path(tmp) / f.name
                bare.write_text("".join(l for l in f.read_text().splitlines(keepends=True)
                                        if not l.lstrip().startswith("predicate")))
                r, rw = tandem_json([a.tandem, "prove", str(bare), "--refine", "--json",
                                     "--quiet", "--timeout", str(a.timeout)], a.timeout)
            rv = r.get("verdict")
            if r.get("reason"):
                rv += f" ({r['reason']})"
            ref = r.get("refinement", {})
            if r.get("verdict") == "error":
                WRONG.append(f"{f.stem}: prove --refine without predicates reported unsafe")
            rows.append([f.stem, pv, ab, fab, q, own, pw, sv, sw, cv, cs, cw, rv,
                         ref.get("rounds"), len(ref.get("predicates_found", [])), rw])
            print(f"# {rows[-1]}", file=sys.stderr, flush=True)
    table(["model", "prove", "abs states", "fabricated", "queries", "prove own s", "prove s",
           "z3 spacer", "z3 s", "check", "check states", "check s", "no predicates: prove --refine",
           "rounds", "predicates found", "s"], rows)


def part_beem(a):
    beem = a.shared / "external" / "beem"
    expected = {}
    for line in (beem / "expected" / "reachability_prop1_expected.txt").read_text().splitlines():
        m = re.match(r"(\S+)\.prop1:\s*(\S+)", line)
        if m:
            expected[m.group(1)] = m.group(2)
    fams = FAMILIES + (["lamport_nonatomic"] if a.nonatomic else [])
    files = sorted(f for f in (beem / "dve").glob("*.dve")
                   if ".prop" not in f.name and f.name.split(".")[0] in fams)
    rows = []
    for f in files:
        name = f.name[:-4]
        if a.only and a.only not in name:
            continue
        inv = prop1(f)
        exp = expected.get(name, "?")
        if inv is None:
            rows.append([name, exp, "n/a: no CS state", "-", "-", "-", "-", "-", "-", "-"])
            continue
        how = ["--refine"] if a.refine else ["--auto-predicates"]
        d, pw = tandem_json([a.tandem, "prove", str(f), "--invariant", inv, "--no-deadlock"] + how +
                            ["--json", "--quiet", "--timeout", str(a.beem_timeout)],
                            a.beem_timeout)
        ab, fab, q, own = stats_of(d)
        pv = d.get("verdict")
        sv, sw = ("skipped", 0.0) if a.skip_spacer else spacer(
            a, a.tandem, a.z3, f, ["--invariant", inv], a.spacer_timeout or a.beem_timeout)
        mark = ""
        if (pv == "proved" and exp == "reachable") or (pv == "error" and exp == "safe"):
            mark = "**WRONG (prove)**"
            WRONG.append(f"{name}: prove {pv} but expected {exp}")
        if (sv.startswith("sat") and exp == "reachable") or \
                (sv.startswith("unsat") and exp == "safe"):
            mark += " **WRONG (spacer)**"
            WRONG.append(f"{name}: spacer {sv} but expected {exp}")
        if d.get("reason"):
            pv += f" ({d['reason']})"
        rows.append([name, exp, pv, ab, fab, q, own, pw, sv, sw, mark])
        print(f"# {rows[-1]}", file=sys.stderr, flush=True)
    table(["instance", "expected", "prove", "abs states", "fabricated", "queries", "prove own s",
           "prove s", "z3 spacer", "z3 s", "vs expected"], rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", default=str(REPO / "build" / "tandem"))
    ap.add_argument("--z3", default="z3")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--beem-timeout", type=int, default=60)
    # z3's own limit; default: the same as the prove run's.
    ap.add_argument("--spacer-timeout", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--nonatomic", action="store_true")
    ap.add_argument("--skip-beem", action="store_true")
    ap.add_argument("--skip-models", action="store_true")
    ap.add_argument("--skip-spacer", action="store_true", help="BEEM part: no z3 runs")
    ap.add_argument("--refine", action="store_true",
                    help="BEEM part: prove --refine instead of --auto-predicates")
    a = ap.parse_args()
    if not a.skip_models:
        print(f"### Models (per-run timeout {a.timeout} s)\n")
        part_models(a)
    if not a.skip_beem:
        st = a.spacer_timeout or a.beem_timeout
        print(f"### BEEM mutual exclusion, PROP1 (prove timeout {a.beem_timeout} s, "
              f"z3 timeout {st} s)\n")
        part_beem(a)
    for w in WRONG:
        print(f"WRONG: {w}")
    return 1 if WRONG else 0


if __name__ == "__main__":
    sys.exit(main())

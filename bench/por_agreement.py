#!/usr/bin/env python3
"""check --por gives the verdicts of the full search (the ctest `por_agreement`).

Runs `tandem check FILE --json --quiet` with and without --por (each
under --max-states, 200,000 by default) on
  * every closed .tdm model of the conformance folders (../shared/conformance and
    tests/conformance/cases; a file whose RUN lines use --entry or --class, or that `check`
    refuses without them, is not a closed system and is skipped), on the compiled engine and on
    the generic one (--dot forces it);
  * every BEEM instance with fewer than --beem-max-states states
    (../shared/external/beem/expected/state_counts_helena.csv), as it is (deadlocks are errors)
    and, when bench/beem_prop1.tsv gives its property prop1, with it as --invariant.
Both runs must give the same verdict, and for an error the same kind: when the first errors found
differ in kind (a model with several), each kind is checked alone (--check KIND) and must be found
with --por too. A run cut by --max-states is only compared when both finished. --por must not
store more states than the full search. Exit 0 when all agree, 1 otherwise (each difference
printed). Python 3 standard library only.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(tandem, args, timeout):
    try:
        r = subprocess.run([tandem, "check"] + args + ["--json", "--quiet"], capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    try:
        return r.returncode, json.loads(r.stdout)
    except json.JSONDecodeError:
        return r.returncode, {"verdict": "no-json", "stderr": r.stderr[-300:]}


def kind(rep):
    return rep.get("error", {}).get("kind")


def compare(tandem, name, args, timeout, max_states):
    """Problems (strings) of one model under `args`; None when it is not a closed system."""
    bound = ["--max-states", str(max_states)]
    rc, full = run(tandem, args + bound, timeout)
    if rc == 2 or rc is None:
        return None
    rc2, por = run(tandem, args + bound + ["--por"], timeout)
    if rc2 is None:
        return [f"{name}: --por timed out"]
    problems = []
    explored = "engine" in por  # else it ended before any search (e.g. too many initial states)
    if explored and por.get("por") is not True and "por_note" not in por:
        problems.append(f"{name}: --por report says por={por.get('por')}")
    fv, pv = full.get("verdict"), por.get("verdict")
    for label, rep in (("without --por", full), ("with --por", por)):
        if "internal error" in (rep.get("reason") or ""):
            problems.append(f"{name}: {label}: {rep['reason']}")
    if "unknown" in (fv, pv):
        # A bound cut one of them: nothing to compare (an error the other found is replayed).
        return problems
    if fv != pv:
        problems.append(f"{name}: verdict {fv} without --por, {pv} with it")
        return problems
    if fv == "error" and kind(full) != kind(por):
        for k in {kind(full), kind(por)}:
            _, f1 = run(tandem, args + bound + ["--check", k], timeout)
            _, p1 = run(tandem, args + bound + ["--check", k, "--por"], timeout)
            if (f1.get("verdict"), kind(f1)) != (p1.get("verdict"), kind(p1)):
                problems.append(f"{name}: --check {k}: {f1.get('verdict')} {kind(f1)} without "
                                f"--por, {p1.get('verdict')} {kind(p1)} with it")
    fs, ps = full.get("stats", {}).get("states", 0), por.get("stats", {}).get("states", 0)
    if fv == "verified" and ps > fs:
        problems.append(f"{name}: --por stored {ps} states, the full search {fs}")
    return problems


def closed_tdm(path):
    text = path.read_text(errors="replace")
    runs = re.findall(r"//\s*RUN:(.*)", text)
    return not any("--entry" in r or "--class" in r for r in runs) and "process" in text


def jobs(args, tmp):
    out = []
    for d in [Path(args.shared) / "conformance", REPO / "tests" / "conformance" / "cases"]:
        for f in sorted(d.glob("*.tdm")):
            if closed_tdm(f):
                out.append((f.name, [str(f)]))
                out.append((f.name + " (generic)", [str(f), "--dot", str(Path(tmp) / "g.dot")]))
    counts = Path(args.shared) / "external" / "beem" / "expected" / "state_counts_helena.csv"
    props = {}
    with open(REPO / "bench" / "beem_prop1.tsv") as f:
        for line in f:
            if line.startswith("#") or line.startswith("instance\t"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 3:
                props[cols[0]] = cols[2]
    with open(counts) as f:
        for row in csv.DictReader(f):
            if int(row["states"]) >= args.beem_max_states:
                continue
            dve = Path(args.shared) / "external" / "beem" / "dve" / (row["instance"] + ".dve")
            out.append((row["instance"], [str(dve)]))
            if row["instance"] in props:
                out.append((row["instance"] + " prop1", [str(dve), "--invariant",
                                                         props[row["instance"]]]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", default=str(REPO / "build" / "tandem"))
    ap.add_argument("--shared", default=str(REPO.parent / "shared"))
    ap.add_argument("--beem-max-states", type=int, default=200000)
    ap.add_argument("--max-states", type=int, default=200000,
                    help="bound of each run (a run cut by it is not compared)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        todo = jobs(args, tmp)
        # One --dot file per job: the generic runs write it concurrently.
        todo = [(n, [a.replace("g.dot", f"g{i}.dot") for a in argv])
                for i, (n, argv) in enumerate(todo)]
        problems, compared = [], 0
        with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
            for res in pool.map(lambda j: compare(args.tandem, j[0], j[1], args.timeout,
                                                  args.max_states), todo):
                if res is None:
                    continue
                compared += 1
                problems += res
    for p in problems:
        print(p)
    print(f"{compared} models compared with and without --por, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

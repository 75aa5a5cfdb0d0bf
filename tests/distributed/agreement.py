#!/usr/bin/env python3
"""check with 2 threads (exact store, dfs and bfs), with --store tree, and --distributed with 1 and
2 MPI ranks against one thread (--threads 1, the sequential search), on every closed model of the
conformance folders and every BEEM instance under a number of states (issue #18: "the same
verdicts with 1 and 2 threads, and with 1 and 2 MPI ranks"). Not a ctest (minutes): run by hand.

A model is closed when one process checks it by explicit search (`engine` compiled or generic).
Every run has --max-states of the limit (an infinite model, as bakery2.tdm, ends `unknown` with
that bound, in every configuration). For each: the verdict and exit status of `mpirun -np K tandem check --distributed --json` must be
those of one process, and for an exhausted search (verified) the states, transitions and matched
states too; for an error, a trace. An error of another kind is listed, not counted as a
difference: two workers may meet another of the model's errors first (both are real: each trace
is replayed). Prints one line per model and a summary.

usage: agreement.py --tandem BIN --shared DIR [--source DIR] [--max-states 200000]
                    [--configs threads2,bfs2,tree2,np1,np2]
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import time


CONFIGS = {"threads2": ["--threads", "2"], "bfs2": ["--threads", "2", "--search", "bfs"],
           "tree2": ["--threads", "2", "--store", "tree"]}


def mpi_env():
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_btl_vader_single_copy_mechanism": "none"})
    return env


def run(cmd, env=None, timeout=600):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return p.returncode, None, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--source", help="the clone (its tests/conformance/cases too)")
    ap.add_argument("--max-states", type=int, default=200000)
    ap.add_argument("--configs", default="threads2,bfs2,tree2,np1,np2")
    ap.add_argument("--mpirun", default="mpirun")
    a = ap.parse_args()
    models = sorted(glob.glob(os.path.join(a.shared, "conformance", "*.tdm")))
    if a.source:
        models += sorted(glob.glob(os.path.join(a.source, "tests/conformance/cases", "*.tdm")))
    with open(os.path.join(a.shared, "external/beem/expected/state_counts_helena.csv")) as f:
        for row in csv.DictReader(f):
            if int(row["states"]) < a.max_states:
                models.append(os.path.join(a.shared, "external/beem/dve", row["instance"] + ".dve"))
    agree, differ, skipped, other_kinds = 0, [], 0, []
    start = time.time()
    for path in models:
        name = os.path.basename(path)
        bound = ["--max-states", str(a.max_states)]
        base = [a.tandem, "check", path, "--json", "--quiet"] + bound
        rc1, one, err1 = run(base + ["--threads", "1"])
        if one is None or one.get("engine") not in ("compiled", "generic"):
            skipped += 1  # open systems, classes, models the explicit search does not take
            continue
        line = [f"{name}: {one['verdict']} {one['stats'].get('states')}"]
        ok = True
        for config in a.configs.split(","):
            if config.startswith("np"):
                rc, dist, err = run([a.mpirun, "-np", config[2:], "--oversubscribe"] + base +
                                    ["--distributed"], env=mpi_env())
            else:
                rc, dist, err = run(base + CONFIGS[config])
            why = []
            if dist is None:
                why.append(f"no report (rc {rc}: {err.strip()[-300:]})")
            else:
                if dist["verdict"] != one["verdict"] or rc != rc1:
                    why.append(f"verdict {dist['verdict']} rc {rc}, one process {one['verdict']} "
                               f"rc {rc1}")
                if one["verdict"] == "verified":
                    for key in ("states", "transitions", "matched_states"):
                        if dist["stats"].get(key) != one["stats"].get(key):
                            why.append(f"{key} {dist['stats'].get(key)} != "
                                       f"{one['stats'].get(key)}")
                if one["verdict"] == "error" and dist["verdict"] == "error":
                    kind = (dist.get("error") or {}).get("kind")
                    if kind != one["error"]["kind"]:
                        other_kinds.append(f"{name} {config}: {kind}, one thread "
                                           f"{one['error']['kind']}")
                    if one["error"].get("trace") and not dist["error"].get("trace"):
                        why.append("no trace")
                if one["verdict"] == "unknown" and dist.get("reason") != one.get("reason"):
                    why.append(f"reason {dist.get('reason')!r} != {one.get('reason')!r}")
            line.append(f"{config}: " + ("same" if not why else "; ".join(why)))
            ok = ok and not why
        print(" | ".join(line), flush=True)
        if ok:
            agree += 1
        else:
            differ.append(name)
    print(f"\n{agree} models agree with one thread in {a.configs}, {len(differ)} differ "
          f"{differ}, {skipped} not closed explicit searches skipped; {time.time() - start:.0f} s")
    for k in other_kinds:
        print(f"another error first: {k}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

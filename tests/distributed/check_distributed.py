#!/usr/bin/env python3
"""check --distributed over MPI against one process (ctest distributed_mpi).

Runs `mpirun -np 2 --oversubscribe tandem check --distributed --json` and the same check in one
process, and compares verdicts, exit statuses and counts: a BEEM instance of tens of thousands of
states (exhausted: states, transitions and matched states equal, each rank holding part), a
model with a reachable error (both find it, the trace replays), and --max-states (unknown with the
bound, as one process). Only rank 0 writes: stdout must hold exactly one JSON report.

usage: check_distributed.py --tandem BIN --shared DIR [--mpirun mpirun] [--np 2]
"""

import argparse
import json
import os
import subprocess
import sys
import time


def mpi_env():
    env = dict(os.environ)
    # CI runs as root; Open MPI refuses root without these. Containers may forbid the ptrace
    # that shared memory's single-copy transfers use: plain copies work everywhere.
    env.update({
        "OMPI_ALLOW_RUN_AS_ROOT": "1",
        "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    })
    return env


def run(cmd, env=None):
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        report = None
    return p.returncode, report, p.stdout, p.stderr, time.time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--np", type=int, default=2)
    a = ap.parse_args()
    failures = []

    def check(cond, what, detail=""):
        if not cond:
            failures.append(what)
        print(("ok   " if cond else "FAIL ") + what + ("" if cond or not detail else f" ({detail})"))

    beem = os.path.join(a.shared, "external/beem/dve")
    cases = [
        # (name, file, extra flags, expected verdict)
        ("at.1 (39354 states)", os.path.join(beem, "at.1.dve"), [], "verified"),
        ("at.1 bfs", os.path.join(beem, "at.1.dve"), ["--search", "bfs"], "verified"),
        ("bakery2_race (error)", os.path.join(a.shared, "conformance/bakery2_race.tdm"), [],
         "error"),
        ("at.1 --max-states 5000", os.path.join(beem, "at.1.dve"), ["--max-states", "5000"],
         "unknown"),
    ]
    # -q: no notice from mpirun itself when the ranks exit with a verdict's non-zero status.
    mpirun = [a.mpirun, "-q", "-np", str(a.np), "--oversubscribe"]
    for name, path, flags, verdict in cases:
        one_rc, one, _, one_err, one_s = run([a.tandem, "check", path, "--json", "--quiet"] + flags)
        rc, dist, out, err, dist_s = run(
            mpirun + [a.tandem, "check", path, "--distributed", "--json", "--quiet"] + flags,
            env=mpi_env())
        print(f"{name}: one process {one_s:.2f} s, {a.np} ranks {dist_s:.2f} s")
        check(one is not None and one.get("verdict") == verdict,
              f"{name}: one process says {verdict}", one_err.strip()[-300:])
        check(dist is not None, f"{name}: stdout is one JSON report",
              f"got {out[:300]!r}; stderr {err.strip()[-500:]!r}")
        if one is None or dist is None:
            continue
        check(rc == one_rc, f"{name}: exit status {rc} == {one_rc}")
        check(dist["verdict"] == one["verdict"], f"{name}: verdict {dist['verdict']}")
        st, d1 = dist["stats"], one["stats"]
        check(st.get("ranks") == a.np, f"{name}: {st.get('ranks')} ranks")
        ranks = dist.get("distributed", {}).get("ranks", [])
        check(len(ranks) == a.np and dist["distributed"]["transport"] == "mpi",
              f"{name}: per-rank stats over mpi")
        check(sum(r["states"] for r in ranks) == st["states"], f"{name}: the ranks' states add up")
        if verdict == "verified":
            for key in ("states", "transitions", "matched_states"):
                check(st[key] == d1[key], f"{name}: {key} {st[key]} == {d1[key]}")
            check(all(r["states"] > st["states"] // (2 * a.np) for r in ranks),
                  f"{name}: every rank holds a share ({[r['states'] for r in ranks]})")
            check(st["messages_sent"] > 0, f"{name}: the ranks exchanged batches")
        if verdict == "error":
            e, e1 = dist.get("error") or {}, one.get("error") or {}
            check(e.get("kind") == e1.get("kind"), f"{name}: error kind {e.get('kind')}")
            check(len(e.get("trace", [])) > 0, f"{name}: a trace of {len(e.get('trace', []))} steps")
        if verdict == "unknown":
            check(dist.get("reason") == one.get("reason") == "state bound (5000)",
                  f"{name}: reason {dist.get('reason')!r}")
            check(st["states"] >= 5000, f"{name}: {st['states']} states stored, at least the bound")
    # A usage error: exit 2, and the message once (rank 0 alone writes).
    pet = os.path.join(a.shared, "conformance/peterson2.tdm")
    rc, rep, out, err, _ = run(mpirun + [a.tandem, "check", pet, "--distributed", "--search",
                                         "random", "--json"], env=mpi_env())
    check(rc == 2 and rep is not None and rep.get("verdict") == "usage-error",
          "--distributed --search random: a usage error", f"rc {rc}, {out[:200]!r}")
    check(err.count("--distributed applies to") == 1, "the usage error is written once", err)
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

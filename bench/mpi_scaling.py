#!/usr/bin/env python3
"""check --distributed: one process against MPI ranks (issue #18, item 4).

Times `tandem check` on BEEM instances in one process (the sequential Explorer), with
--distributed as one rank without mpirun, and under `mpirun -np K` for each K given: wall time,
CPU of every process (user + sys of mpirun and all ranks, from the OS), states (checked against
the expected count), peak RSS of each rank (from the report), messages and bytes the ranks sent.

usage: mpi_scaling.py [--tandem build/tandem] [--instances bakery.5] [--ranks 1,2] [--repeat 1]
                      [--shared ../shared] [--markdown]
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import (children_cpu, f_int, first_line, format_table, loadavg, log,  # noqa: E402
                          machine_line)


def mpi_env():
    env = dict(os.environ)
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                "OMPI_MCA_btl_vader_single_copy_mechanism": "none"})
    return env


def measure(cmd, env=None):
    cpu0, t0 = children_cpu(), time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    try:
        rep = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"no JSON report from {' '.join(cmd)}: rc {p.returncode}\n{p.stderr[-2000:]}")
    return wall, cpu, rep


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", default=os.path.join(here, "..", "build", "tandem"))
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    ap.add_argument("--instances", default="bakery.5")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each; the least wall kept")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    expected = {}
    with open(os.path.join(a.shared, "external/beem/expected/state_counts_helena.csv")) as f:
        for row in csv.DictReader(f):
            expected[row["instance"]] = int(row["states"])
    print(machine_line())
    print(f"tandem:  {a.tandem} ({first_line([a.tandem, '--version'])})")
    print(f"mpirun:  {first_line([a.mpirun, '--version'])}")
    print(f"load:    {loadavg()} before the runs (1/5/15 min); repeat {a.repeat}, least wall kept")
    header = ["instance", "run", "wall s", "cpu s", "states", "expected", "transitions",
              "peak RSS MB per rank", "messages", "MiB sent"]
    rows = []
    for inst in a.instances.split(","):
        path = os.path.join(a.shared, "external/beem/dve", inst + ".dve")
        base = [a.tandem, "check", path, "--json", "--quiet", "--no-deadlock"]
        runs = [("one process", base, None),
                ("--distributed, no mpirun", base + ["--distributed"], None)]
        for k in a.ranks.split(","):
            runs.append((f"mpirun -np {k}", [a.mpirun, "-np", k, "--oversubscribe"] + base +
                         ["--distributed"], mpi_env()))
        for name, cmd, env in runs:
            best = None
            for _ in range(a.repeat):
                log(f"{inst}: {name} ...")
                wall, cpu, rep = measure(cmd, env)
                if best is None or wall < best[0]:
                    best = (wall, cpu, rep)
            wall, cpu, rep = best
            st = rep["stats"]
            per = rep.get("distributed", {}).get("ranks", [])
            rss = " / ".join(str(r["peak_rss_mb"]) for r in per) if per else str(
                st.get("peak_rss_mb", "?"))
            rows.append([inst, name, f"{wall:.2f}", f"{cpu:.2f}", f_int(st["states"]),
                         f_int(expected.get(inst)), f_int(st["transitions"]), rss,
                         f_int(st.get("messages_sent")) if per else "-",
                         f"{st.get('bytes_sent', 0) / 2**20:.1f}" if per else "-"])
            if rep["verdict"] != "verified" or st["states"] != expected.get(inst, st["states"]):
                log(f"{inst}: {name}: verdict {rep['verdict']}, {st['states']} states")
    numeric = {"wall s", "cpu s", "states", "expected", "transitions", "messages", "MiB sent"}
    print()
    print(format_table(header, rows, numeric, markdown=a.markdown))
    print(f"\nload:    {loadavg()} after the runs")


if __name__ == "__main__":
    main()

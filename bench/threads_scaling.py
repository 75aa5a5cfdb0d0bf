#!/usr/bin/env python3
"""check --threads 1 against --threads N on BEEM instances: wall time, CPU time, states,
transitions, peak RSS and bytes per state (peak RSS / states), and the speed-up (wall time of
one thread / wall time of N). Every run must give the expected state and transition counts.

    python3 bench/threads_scaling.py [--tandem build/tandem] [--threads 2] [--repeat 3]
        [--search dfs,bfs] [--markdown] [INSTANCE ...]

Default instances: bakery.5, bakery.7, fischer.6, lamport.6, anderson.6, peterson.4,
szymanski.4 (issue #18's bench set). Run it alone on the machine: the point is wall time.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import children_cpu, f_int, loadavg, log, machine_line  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared")
DVE = os.path.join(SHARED, "external", "beem", "dve")
COUNTS = os.path.join(SHARED, "external", "beem", "expected", "state_counts_helena.csv")
DEFAULT = ["bakery.5", "bakery.7", "fischer.6", "lamport.6", "anderson.6", "peterson.4",
           "szymanski.4"]


def expected():
    out = {}
    for line in open(COUNTS):
        parts = line.strip().split(",")
        if len(parts) >= 3 and parts[1].isdigit():
            out[parts[0]] = (int(parts[1]), int(parts[2]))
    return out


def run(tandem, instance, threads, search):
    cmd = [tandem, "check", os.path.join(DVE, instance + ".dve"), "--no-deadlock", "--json",
           "--quiet", "--search", search, "--threads", str(threads)]
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    cpu = children_cpu() - cpu0
    rep = json.loads(p.stdout)
    st = rep["stats"]
    return {"wall": wall, "cpu": cpu, "states": st["states"], "transitions": st["transitions"],
            "rss": st["peak_rss_mb"], "workers": st.get("threads", 1), "verdict": rep["verdict"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", default=os.path.join(HERE, "..", "build", "tandem"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--search", default="dfs,bfs")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("instances", nargs="*")
    a = ap.parse_args()
    want = expected()
    print(f"- {machine_line()}")
    print(f"- tandem: {a.tandem}")
    print(f"- load: average {loadavg()} before the runs; repeat {a.repeat}, least wall time kept")
    print()
    print("| instance | search | threads | states | transitions | counts | wall s | cpu s | "
          "peak RSS MB | B/state (RSS) | speed-up |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    ok = True
    for inst in a.instances or DEFAULT:
        for search in a.search.split(","):
            base = None
            for threads in (1, a.threads):
                best = None
                for _ in range(a.repeat):
                    log(f"{inst} {search} --threads {threads}")
                    r = run(a.tandem, inst, threads, search)
                    if best is None or r["wall"] < best["wall"]:
                        best = r
                exp = want.get(inst)
                counts = "ok" if exp and (best["states"], best["transitions"]) == exp else "DIFF"
                ok = ok and counts == "ok"
                if threads == 1:
                    base = best["wall"]
                speed = base / best["wall"] if best["wall"] > 0 else 0
                print(f"| {inst} | {search} | {best['workers']} | {f_int(best['states'])} | "
                      f"{f_int(best['transitions'])} | {counts} | {best['wall']:.2f} | "
                      f"{best['cpu']:.2f} | {best['rss']:,} | "
                      f"{best['rss'] * 1024 * 1024 / max(1, best['states']):.1f} | {speed:.2f} |")
                sys.stdout.flush()
    print()
    print(f"- load: average {loadavg()} after the runs")
    print("- counts: " + ("all as expected (Helena's)" if ok else "SOME DIFFER"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

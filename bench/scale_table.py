#!/usr/bin/env python3
"""Issue #18's one table: explicit search at scale, side by side in one run, one process after
the other (never two at once).

For each instance:
  SPIN      dve2pml.py X.dve; spin -a -o2; gcc -O2 -DSAFETY [-DNOREDUCE]; ./pan -E -m -w
            (NOREDUCE: every interleaving; default: SPIN's partial-order reduction), gcc's CPU
            time counted in the time to answer
  Tandem    check X.dve --no-deadlock with --threads 1, --threads 2, --threads 2 --store tree,
            --threads 1 --por, and `mpirun -np 1|2 ... --distributed` (when mpirun is there)

Columns: states, transitions, wall seconds, CPU seconds (the child and its descendants), peak
RSS (MiB: wait4 on the child; for mpirun, the largest rank's, from Tandem's own report),
bytes per state (peak RSS / states) and, for SPIN, gcc's CPU seconds. Full searches must find
Helena's state count; the script exits 1 otherwise. Run it alone on the machine.

    python3 bench/scale_table.py [--instances bakery.5,...] [--markdown] [--no-mpi]
"""
import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

from bench_common import f_int, format_table, loadavg, log, machine_line
from beem_vs_spin import MIB, default_memlim, load_expected, run
from mpi_scaling import mpi_env
from por_vs_spin import run_spin

REPO = Path(__file__).resolve().parent.parent
DEFAULT = ["bakery.5", "bakery.7", "fischer.6", "lamport.6", "anderson.6", "peterson.4",
           "szymanski.4", "pgm_protocol.7", "collision.3"]
TANDEM = [("T 1 thread", ["--threads", "1"]), ("T 2 threads", ["--threads", "2"]),
          ("T 2 threads tree", ["--threads", "2", "--store", "tree"]),
          ("T 1 thread --por", ["--threads", "1", "--por"])]
MPI = [("T mpirun -np 1", "1"), ("T mpirun -np 2", "2")]


def tandem(args, dve, tmp, extra, ranks=None):
    cmd = [str(args.tandem), "check", str(dve), "--json", "--quiet", "--no-deadlock"] + extra
    env = None
    if ranks:
        cmd = [args.mpirun, "-np", ranks, "--oversubscribe"] + cmd + ["--distributed"]
        env = mpi_env()
    r = run(cmd, cwd=tmp, timeout=args.timeout, env=env)
    res = {"cpu_s": r.cpu, "wall_s": r.wall, "maxrss_kb": r.maxrss_kb}
    try:
        js = json.loads(r.out)
    except ValueError:
        return dict(res, error=f"no JSON report (exit {r.rc}): {(r.err or r.out).strip()[:300]}")
    st = js.get("stats", {})
    res.update({"states": st.get("states"), "transitions": st.get("transitions"),
                "verdict": js.get("verdict")})
    if ranks:  # wait4 sees mpirun, not the ranks: take the report's (the largest rank's)
        res["maxrss_kb"] = (st.get("peak_rss_mb") or 0) * 1024
    if js.get("verdict") != "verified":
        res["error"] = f"verdict {js.get('verdict')} {js.get('reason') or ''}"
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--instances", help="comma-separated (default: issue #18's set)")
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--dve2pml", type=Path, default=REPO / "bench" / "dve2pml.py")
    ap.add_argument("--spin", default="spin")
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--no-mpi", action="store_true")
    ap.add_argument("--memlim", type=int, default=default_memlim())
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    insts = args.instances.split(",") if args.instances else DEFAULT
    use_mpi = not args.no_mpi and shutil.which(args.mpirun) is not None
    counts, _ = load_expected(args.shared)
    print(f"- {machine_line()}")
    print(f"- load: average {loadavg()} before the runs")
    header = ["instance", "run", "states", "transitions", "wall s", "cpu s", "gcc s",
              "peak RSS MiB", "B/state"]
    rows, problems = [], []
    for inst in insts:
        dve = args.shared / "external" / "beem" / "dve" / f"{inst}.dve"
        exp = counts.get(inst, (None, None))[0]
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            runs = [("SPIN NOREDUCE", lambda: run_spin(args, dve, tmp, False, exp)),
                    ("SPIN POR", lambda: run_spin(args, dve, tmp, True, exp))]
            runs += [(name, lambda e=extra: tandem(args, dve, tmp, e)) for name, extra in TANDEM]
            if use_mpi:
                runs += [(name, lambda k=k: tandem(args, dve, tmp, [], k)) for name, k in MPI]
            for name, fn in runs:
                log(f"{inst}: {name}")
                r = fn()
                if "error" in r:
                    problems.append(f"{inst} {name}: {r['error']}")
                full = "POR" not in name and "--por" not in name
                if full and exp is not None and r.get("states") != exp:
                    problems.append(f"{inst} {name}: {r.get('states')} states, expected {exp}")
                rss = r.get("maxrss_kb") or 0
                rows.append([inst, name, f_int(r.get("states")), f_int(r.get("transitions")),
                             f"{r['wall_s']:.2f}" if r.get("wall_s") is not None else "-",
                             f"{r['cpu_s']:.2f}" if r.get("cpu_s") is not None else "-",
                             f"{r['gcc_cpu_s']:.2f}" if r.get("gcc_cpu_s") is not None else "",
                             f"{rss / 1024:,.0f}",
                             f"{rss * 1024 / r['states']:.1f}" if r.get("states") else "-"])
                sys.stdout.flush()
    print(format_table(header, rows, set(header[2:]), markdown=args.markdown))
    print(f"\n- load: average {loadavg()} after the runs")
    for p in problems:
        print(f"- PROBLEM: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

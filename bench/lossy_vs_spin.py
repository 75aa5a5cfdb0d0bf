#!/usr/bin/env python3
"""Lossy stores: Tandem's `check --store exact|hc|bitstate` against SPIN's pan with -DHC4 and
-DBITSTATE on BEEM instances (states, CPU seconds, peak RSS).

For each instance, one run after the other (never in parallel), all on one core:

  Tandem  build/tandem check X.dve --json --quiet --no-deadlock --threads 1 --store S
          (S = exact, hc: 64-bit hash compaction, bitstate: 2^27 bits, 3 hash functions)
  SPIN    bench/dve2pml.py X.dve > model.pml; spin -a -o2 model.pml;
          gcc -O2 -DSAFETY -DNOREDUCE -DHC4 -DMEMLIM=<MB>; ./pan -E -m<depth> -w<bits>
          gcc -O2 -DSAFETY -DNOREDUCE -DBITSTATE -DMEMLIM=<MB>; ./pan -E -m<depth> -w27 (-k3)

States stored, CPU (user + sys of the child), peak RSS (wait4). Tandem's exact search must find
the expected number of states (state_counts_helena.csv), hc and bitstate at most that many;
the script exits 1 otherwise. Python 3 standard library only; reuses bench/beem_vs_spin.py's
runners. See bench/README.md and docs/performance.md.
"""
import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

from bench_common import f_int, f_sec, format_table, loadavg, log, machine_line
from beem_vs_spin import default_memlim, load_expected, parse_pan, run, translate

REPO = Path(__file__).resolve().parent.parent
INSTANCES = ["bakery.5", "peterson.4", "szymanski.4"]
BITSTATE_BITS = 27  # SPIN 6's default -w for BITSTATE, and Tandem's --bitstate-bits default


def run_tandem(args, dve, tmp, store):
    cmd = [str(args.tandem), "check", str(dve), "--json", "--quiet", "--no-deadlock",
           "--threads", "1", "--store", store]
    r = run(cmd, cwd=tmp, timeout=args.timeout)
    res = {"cmd": cmd, "cpu_s": r.cpu, "wall_s": r.wall, "rss_mb": r.maxrss_kb / 1024}
    try:
        js = json.loads(r.out)
    except ValueError:
        return dict(res, error=f"no JSON report (exit {r.rc}): {(r.err or r.out).strip()[:300]}")
    st = js.get("stats", {})
    res.update({"verdict": js.get("verdict"), "states": st.get("states"),
                "p": st.get("omission_probability")})
    want = "verified" if store == "exact" else "unknown"
    if js.get("verdict") != want:
        res["error"] = f"verdict {js.get('verdict')} {js.get('reason') or ''}"
    return res


def run_spin(args, dve, tmp, mode, expected_states):
    pml, _ = translate(args, dve, tmp)
    r = run([args.spin, "-a", "-o2", pml.name], cwd=tmp, timeout=args.timeout)
    if r.rc != 0 or not (tmp / "pan.c").exists():
        return {"error": f"spin -a failed (exit {r.rc})"}
    cc = [args.cc, "-O2", "-DSAFETY", "-DNOREDUCE", f"-D{mode}", f"-DMEMLIM={args.memlim}",
          "-o", "pan", "pan.c"]
    r = run(cc, cwd=tmp, timeout=args.timeout)
    if r.rc != 0:
        return {"error": f"gcc failed (exit {r.rc}): {r.err.strip()[:300]}"}
    n = max(expected_states or 0, 1000)
    bits = BITSTATE_BITS if mode == "BITSTATE" else max(10, math.ceil(math.log2(2 * n)))
    depth = max(100_000, n // 4)
    while True:
        cmd = ["./pan", "-E", f"-m{depth}", f"-w{bits}"]
        r = run(cmd, cwd=tmp, timeout=args.timeout)
        pan = parse_pan(r.out)
        if not pan["depth_too_small"]:
            break
        depth = max(depth * 4, n + 1000)
    res = {"cmd": cmd, "cpu_s": r.cpu, "wall_s": r.wall, "rss_mb": r.maxrss_kb / 1024,
           "states": pan["stored"]}
    if pan["stored"] is None or pan["out_of_memory"]:
        res["error"] = f"pan failed (exit {r.rc}): {r.out.strip()[-200:]}"
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--instances", help="comma-separated instances (replaces the default set)")
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--dve2pml", type=Path, default=REPO / "bench" / "dve2pml.py")
    ap.add_argument("--spin", default="spin")
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--memlim", type=int, default=default_memlim())
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    insts = args.instances.split(",") if args.instances else INSTANCES
    counts, _ = load_expected(args.shared)
    log(machine_line() + f", load {loadavg()}")
    runs = [("T exact", lambda a, d, t, e: run_tandem(a, d, t, "exact")),
            ("T hc", lambda a, d, t, e: run_tandem(a, d, t, "hc")),
            ("T bitstate", lambda a, d, t, e: run_tandem(a, d, t, "bitstate")),
            ("S HC4", lambda a, d, t, e: run_spin(a, d, t, "HC4", e)),
            ("S BITSTATE", lambda a, d, t, e: run_spin(a, d, t, "BITSTATE", e))]
    results, problems, rows = {}, [], []
    for inst in insts:
        dve = args.shared / "external" / "beem" / "dve" / f"{inst}.dve"
        exp = counts.get(inst, (None, None))[0]
        res = {}
        with tempfile.TemporaryDirectory() as d:
            for key, fn in runs:
                log(f"{inst}: {key}")
                res[key] = fn(args, dve, Path(d), exp)
                if "error" in res[key]:
                    problems.append(f"{inst} {key}: {res[key]['error']}")
        if exp is not None and res["T exact"].get("states") != exp:
            problems.append(f"{inst}: exact found {res['T exact'].get('states')}, expected {exp}")
        for key in ("T hc", "T bitstate"):
            if exp is not None and (res[key].get("states") or 0) > exp:
                problems.append(f"{inst} {key}: more states than there are")
        results[inst] = res
        for key, _ in runs:
            r = res[key]
            p = r.get("p")
            rows.append([inst, key, f_int(exp), f_int(r.get("states")), f_sec(r.get("cpu_s")),
                         f"{r['rss_mb']:.0f}" if r.get("rss_mb") is not None else "n/a",
                         f"{p:.2g}" if p is not None else ""])
    header = ["instance", "run", "expected", "states", "cpu s", "peak RSS MB", "p(omission)"]
    print(format_table(header, rows, {"expected", "states", "cpu s", "peak RSS MB"},
                       markdown=args.markdown))
    log(f"load after: {loadavg()}")
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=1))
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

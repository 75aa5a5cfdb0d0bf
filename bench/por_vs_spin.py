#!/usr/bin/env python3
"""Partial-order reduction: Tandem's `check --por` against SPIN's default reduction on BEEM.

For each instance, one run after the other (never in parallel):

  Tandem  build/tandem check X.dve --json --quiet --no-deadlock            (every interleaving)
          build/tandem check X.dve --json --quiet --no-deadlock --por      (stubborn sets)
  SPIN    bench/dve2pml.py X.dve > model.pml; spin -a -o2 model.pml;
          gcc -O2 -DSAFETY [-DNOREDUCE] -DMEMLIM=<MB> -o pan pan.c; ./pan -E -m<depth> -w<bits>
          (with -DNOREDUCE: every interleaving; without: SPIN's default partial-order reduction)

States, transitions, CPU seconds (user + sys of the child) and, for SPIN, gcc's CPU seconds.
Time to answer: Tandem's run against SPIN's gcc + pan run. The full searches must find the
expected number of states (state_counts_helena.csv); the script exits 1 otherwise, and when a
reduced search stores more states than the full one. Python 3 standard library only; reuses
bench/beem_vs_spin.py's runners. See bench/README.md.
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

MUTEX = ["bakery.5", "fischer.6", "lamport.6", "peterson.4", "szymanski.4"]
BIG = ["bakery.7", "anderson.6"]  # 29 M and 18 M states: --big
CHANNELS = ["pgm_protocol.7", "collision.3"]


def run_tandem(args, dve, tmp, por):
    cmd = [str(args.tandem), "check", str(dve), "--json", "--quiet", "--no-deadlock"]
    if por:
        cmd.append("--por")
    r = run(cmd, cwd=tmp, timeout=args.timeout)
    res = {"cmd": cmd, "cpu_s": r.cpu, "wall_s": r.wall}
    try:
        js = json.loads(r.out)
    except ValueError:
        res["error"] = f"no JSON report (exit {r.rc}): {(r.err or r.out).strip()[:300]}"
        return res
    st = js.get("stats", {})
    res.update({"verdict": js.get("verdict"), "states": st.get("states"),
                "transitions": st.get("transitions"), "por": js.get("por"),
                "reduced": st.get("por_reduced_states"), "full": st.get("por_full_states")})
    if js.get("verdict") != "verified":
        res["error"] = f"verdict {js.get('verdict')} {js.get('reason') or ''}"
    return res


def run_spin(args, dve, tmp, reduce, expected_states):
    res = {}
    pml, _ = translate(args, dve, tmp)
    r = run([args.spin, "-a", "-o2", pml.name], cwd=tmp, timeout=args.timeout)
    if r.rc != 0 or not (tmp / "pan.c").exists():
        return {"error": f"spin -a failed (exit {r.rc})"}
    cc = [args.cc, "-O2", "-DSAFETY"] + ([] if reduce else ["-DNOREDUCE"]) + \
         [f"-DMEMLIM={args.memlim}", "-o", "pan", "pan.c"]
    r = run(cc, cwd=tmp, timeout=args.timeout)
    res["gcc_cpu_s"] = r.cpu
    if r.rc != 0:
        return dict(res, error=f"gcc failed (exit {r.rc}): {r.err.strip()[:300]}")
    n = max(expected_states or 0, 1000)
    hashbits = max(10, math.ceil(math.log2(2 * n)))
    depth = max(100_000, n // 4)
    while True:
        r = run(["./pan", "-E", f"-m{depth}", f"-w{hashbits}"], cwd=tmp, timeout=args.timeout)
        pan = parse_pan(r.out)
        if not pan["depth_too_small"]:
            break
        depth = max(depth * 4, n + 1000)
    # pan counts the initial state as a transition: stored + matched = fired + 1 (its own
    # "transitions" line switches to 1.0e+08 notation on large graphs)
    fired = pan["stored"] + pan["matched"] - 1 if pan["stored"] is not None and \
        pan["matched"] is not None else None
    res.update({"cpu_s": r.cpu, "wall_s": r.wall, "maxrss_kb": r.maxrss_kb,
                "states": pan["stored"], "transitions": fired})
    if pan["stored"] is None or pan["out_of_memory"]:
        res["error"] = f"pan failed (exit {r.rc}): {r.out.strip()[-200:]}"
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--big", action="store_true", help="also bakery.7 and anderson.6")
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
    insts = args.instances.split(",") if args.instances else \
        MUTEX + (BIG if args.big else []) + CHANNELS
    counts, _ = load_expected(args.shared)
    log(machine_line() + f", load {loadavg()}")
    results, problems = {}, []
    for inst in insts:
        dve = args.shared / "external" / "beem" / "dve" / f"{inst}.dve"
        exp = counts.get(inst, (None, None))[0]
        res = {}
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            for key, fn in [("tandem_full", lambda: run_tandem(args, dve, tmp, False)),
                            ("tandem_por", lambda: run_tandem(args, dve, tmp, True)),
                            ("spin_full", lambda: run_spin(args, dve, tmp, False, exp)),
                            ("spin_por", lambda: run_spin(args, dve, tmp, True, exp))]:
                log(f"{inst}: {key}")
                res[key] = fn()
                if "error" in res[key]:
                    problems.append(f"{inst} {key}: {res[key]['error']}")
        for key in ("tandem_full", "spin_full"):
            if exp is not None and res[key].get("states") != exp:
                problems.append(f"{inst} {key}: {res[key].get('states')} states, expected {exp}")
        if (res["tandem_por"].get("states") or 0) > (res["tandem_full"].get("states") or 0):
            problems.append(f"{inst}: --por stored more states than the full search")
        results[inst] = res
    header = ["instance", "T states", "T --por", "S states", "S POR", "T trans", "T --por trans",
              "S POR trans", "T cpu s", "T --por cpu s", "S POR cpu s", "S POR gcc s",
              "T --por / S POR answer"]
    rows = []
    for inst, r in results.items():
        t, tp, s, sp = r["tandem_full"], r["tandem_por"], r["spin_full"], r["spin_por"]
        answer = (sp.get("cpu_s") or 0) + (sp.get("gcc_cpu_s") or 0)
        rows.append([inst, f_int(t.get("states")), f_int(tp.get("states")),
                     f_int(s.get("states")), f_int(sp.get("states")),
                     f_int(t.get("transitions")), f_int(tp.get("transitions")),
                     f_int(sp.get("transitions")), f_sec(t.get("cpu_s")),
                     f_sec(tp.get("cpu_s")), f_sec(sp.get("cpu_s")), f_sec(sp.get("gcc_cpu_s")),
                     f"{tp['cpu_s'] / answer:.2f}" if answer and tp.get("cpu_s") else "n/a"])
    print(format_table(header, rows, set(header[1:]), markdown=args.markdown))
    if args.json_out:
        args.json_out.write_text(json.dumps(results, indent=1))
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

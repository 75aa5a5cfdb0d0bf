#!/usr/bin/env python3
"""Tandem vs SPIN on BEEM (DVE) instances: time, speed and bytes per stored state.

For each instance, one after the other (never in parallel):

  Tandem  build/tandem check X.dve --json --quiet [--invariant prop1]
  SPIN    bench/dve2pml.py X.dve > model.pml; spin -a -o2 model.pml;
          gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=<MB> -o pan pan.c; ./pan -E -m<depth> -w<bits>

CPU time of each child is the delta of resource.getrusage(RUSAGE_CHILDREN) (user + sys) around
it; wall time is measured too. bench/dve2pml.py gives a Promela model with the DVE state graph,
channels included (its docstring); `-o2` keeps SPIN from hiding write-only variables, which
would merge DVE states. Both state counts are checked against the expected counts
(state_counts_helena.csv); the script exits 1 if any count (or --invariant verdict) is wrong,
2 if a tool failed to run. Python 3 standard library only. See bench/README.md.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_common import (children_cpu, f_int, f_sec, first_line, format_table, loadavg, log,
                          machine_line)

REPO = Path(__file__).resolve().parent.parent

QUICK = ["peterson.1", "bakery.3", "bakery.4", "lamport.2", "szymanski.1", "anderson.4",
         "fischer.2", "mcs.1"]
LARGE = ["bakery.5", "bakery.6", "bakery.7", "fischer.6", "lamport.6", "anderson.6",
         "peterson.4", "szymanski.4"]

# models with rendezvous channels, ten families, 0.3M-1.8M states
CHANNELS = ["pgm_protocol.7", "collision.3", "synapse.6", "cambridge.5", "leader_election.4",
            "extinction.3", "brp.3", "iprotocol.3", "bopdp.3", "public_subscribe.2"]

MIB = 1024 * 1024  # SPIN's "Megabytes" and Tandem's peak_rss_mb are both MiB


# ---------------------------------------------------------------------------------------------
# running a child and measuring it

class Run:
    """Result of one child process: exit code, output, CPU (user+sys) and wall seconds, peak RSS."""

    def __init__(self, rc, out, err, cpu, wall, maxrss_kb, timed_out=False):
        self.rc, self.out, self.err = rc, out, err
        self.cpu, self.wall, self.maxrss_kb, self.timed_out = cpu, wall, maxrss_kb, timed_out


def run(cmd, cwd, timeout=None, stdout_path=None, env=None):
    """Runs cmd to completion. CPU = RUSAGE_CHILDREN delta (the child and every descendant it
    waited for, e.g. gcc's cc1 and as); peak RSS from wait4 on this one child."""
    with tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        out_target = open(stdout_path, "wb") if stdout_path else fout
        try:
            cpu0, t0 = children_cpu(), time.perf_counter()
            p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out_target,
                                 stderr=ferr, env=env)
            timed_out = False
            while True:
                pid, status, ru = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                if timeout is not None and time.perf_counter() - t0 > timeout:
                    p.kill()
                    timed_out = True
                    pid, status, ru = os.wait4(p.pid, 0)
                    break
                time.sleep(0.005)
            wall = time.perf_counter() - t0
            cpu = children_cpu() - cpu0
            p.returncode = os.waitstatus_to_exitcode(status)
        finally:
            if stdout_path:
                out_target.close()
        fout.seek(0)
        ferr.seek(0)
        out = "" if stdout_path else fout.read().decode(errors="replace")
        err = ferr.read().decode(errors="replace")
    return Run(p.returncode, out, err, cpu, wall, ru.ru_maxrss, timed_out)


# ---------------------------------------------------------------------------------------------
# expected data

def load_expected(shared):
    counts = {}
    path = shared / "external/beem/expected/state_counts_helena.csv"
    with open(path) as f:
        next(f)
        for line in f:
            parts = line.strip().split(",")
            if len(parts) >= 3 and parts[1].isdigit():
                counts[parts[0]] = (int(parts[1]), int(parts[2]))
    prop1 = {}
    ppath = shared / "external/beem/expected/reachability_prop1_expected.txt"
    if ppath.exists():
        for line in open(ppath):
            m = re.match(r"\s*(\S+)\.prop1:\s*(\w+)", line)
            if m:
                prop1[m.group(1)] = m.group(2)
    return counts, prop1


def prop1_invariant(dve_text):
    """'two or more processes in CS' negated: !(A@CS && B@CS || ...) over every pair of the
    processes that have a state CS."""
    text = re.sub(r"/\*.*?\*/", "", dve_text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    procs = []
    for m in re.finditer(r"\bprocess\s+(\w+)\s*\{", text):
        st = re.search(r"\bstate\s+([^;]*);", text[m.end():])
        if st and "CS" in [s.strip() for s in st.group(1).split(",")]:
            procs.append(m.group(1))
    pairs = [f"{a}@CS && {b}@CS" for i, a in enumerate(procs) for b in procs[i + 1:]]
    if not pairs:
        return None
    return "!(" + " || ".join(pairs) + ")"


# ---------------------------------------------------------------------------------------------
# Tandem

def best_of(n, fn):
    """Runs fn() n times; keeps the run with the least CPU time (the least disturbed one)."""
    runs = [fn() for _ in range(max(1, n))]
    best = min(runs, key=lambda r: r.cpu)
    return best, [r.cpu for r in runs]


def run_tandem(args, dve, inst, tmp, invariant):
    cmd = [str(args.tandem), "check", str(dve), "--json", "--quiet", "--no-deadlock"] + args.tandem_arg
    if invariant:
        cmd += ["--invariant", invariant]
    r, cpus = best_of(args.repeat, lambda: run(cmd, cwd=tmp, timeout=args.timeout))
    res = {"cmd": cmd, "rc": r.rc, "cpu_s": r.cpu, "wall_s": r.wall,
           "maxrss_kb": r.maxrss_kb, "cpu_s_all_runs": cpus}
    if r.timed_out:
        res["error"] = f"timed out after {args.timeout} s"
        return res
    try:
        js = json.loads(r.out)
    except ValueError:
        res["error"] = f"no JSON report (exit {r.rc}): {(r.err or r.out).strip()[:300]}"
        return res
    st = js.get("stats", {})
    res.update({
        "engine": js.get("engine", "?"),
        "verdict": js.get("verdict", "?"),
        "error_kind": (js.get("error") or {}).get("kind"),
        "reason": js.get("reason"),
        "states": st.get("states"),
        "transitions": st.get("transitions"),
        "depth": st.get("depth"),
        "time_s": st.get("time_s"),
        "peak_rss_mb": st.get("peak_rss_mb"),
        "store_bytes_per_state": st.get("store_bytes_per_state"),
    })
    if r.rc not in (0, 1):
        res["error"] = f"exit {r.rc}, verdict {res['verdict']} {res['reason'] or ''}".strip()
    return res


# ---------------------------------------------------------------------------------------------
# SPIN

INIT_RE = re.compile(r"^(init \{ d_step \{ .* \}) \}$", re.M)


def translate(args, dve, tmp):
    """Runs the translator (--dve2pml). bench/dve2pml.py initialises arrays in their
    declarations and needs no patch. The older ../shared/tools/dve2pml.py (no channels) fills
    non-uniform arrays in an `init` process that then terminates; a terminated init can die at
    any point of the search, which doubles SPIN's graph (2n+1 states). For it, init is blocked
    after its d_step (`; false`), so the graph is the DVE graph plus exactly one
    pre-initialisation state and one transition. Returns (pml path, extra states)."""
    pml = tmp / "model.pml"
    r = run([sys.executable, str(args.dve2pml), str(dve)], cwd=tmp, stdout_path=pml)
    if r.rc != 0:
        raise RuntimeError(f"dve2pml.py failed (exit {r.rc}): {r.err.strip()[:300]}")
    text = pml.read_text()
    text, n = INIT_RE.subn(r"\1; false }", text)
    if "init {" in text and n == 0:
        raise RuntimeError("dve2pml.py produced an init process of an unknown shape")
    pml.write_text(text)
    return pml, n


def parse_pan(out):
    def num(pattern, conv=float):
        m = re.search(pattern, out)
        return conv(m.group(1)) if m else None

    return {
        "stored": num(r"(\d+) states, stored", int),
        "matched": num(r"(\d+) states, matched", int),
        "transitions_reported": num(r"(\d+) transitions \(= stored\+matched\)", int),
        "depth_reached": num(r"depth reached (\d+)", int),
        "elapsed_s": num(r"pan: elapsed time ([\d.e+-]+) seconds"),
        "state_vector_bytes": num(r"State-vector (\d+) byte", int),
        "mem_states_mb": num(r"([\d.]+)\s+actual memory usage for states"),
        "mem_hash_mb": num(r"([\d.]+)\s+memory used for hash table"),
        "mem_stack_mb": num(r"([\d.]+)\s+memory used for DFS stack"),
        "mem_total_mb": num(r"([\d.]+)\s+total actual memory usage"),
        "depth_too_small": "max search depth too small" in out,
        "out_of_memory": bool(re.search(r"out of memory|reached -DMEMLIM bound", out)),
    }


def run_spin(args, dve, inst, tmp, expected_states):
    res = {}
    pml, init_extra = translate(args, dve, tmp)
    res["init_extra_states"] = init_extra
    # -o2: keep write-only variables in the state vector (SPIN hides them by default, which
    # merges states that differ only in such a variable: collision.1 would have 1,869 states
    # instead of 5,593)
    spin_cmd = [args.spin, "-a", "-o2", pml.name]
    r = run(spin_cmd, cwd=tmp, timeout=args.timeout)
    res.update({"spin_cmd": spin_cmd, "spin_a_cpu_s": r.cpu})
    if r.rc != 0 or not (tmp / "pan.c").exists():
        res["error"] = f"spin -a failed (exit {r.rc}): {(r.err or r.out).strip()[:300]}"
        return res
    cc = [args.cc, "-O2", "-DSAFETY", "-DNOREDUCE", f"-DMEMLIM={args.memlim}", "-o", "pan",
          "pan.c"]
    r = run(cc, cwd=tmp, timeout=args.timeout)
    res.update({"cc_cmd": cc, "compile_cpu_s": r.cpu, "compile_wall_s": r.wall})
    if r.rc != 0:
        res["error"] = f"gcc failed (exit {r.rc}): {r.err.strip()[:300]}"
        return res
    n = max(expected_states or 0, 1000)
    hashbits = max(10, math.ceil(math.log2(2 * n)))  # smallest power of two >= 2x the states
    depth = args.spin_depth or max(100_000, n // 4)
    attempts = []
    while True:
        cmd = ["./pan", "-E", f"-m{depth}", f"-w{hashbits}"]
        r = first = run(cmd, cwd=tmp, timeout=args.timeout)
        pan = parse_pan(r.out)
        attempts.append({"cmd": cmd, "cpu_s": r.cpu, "depth_too_small": pan["depth_too_small"]})
        if r.timed_out:
            res["error"] = f"pan timed out after {args.timeout} s"
            break
        if pan["depth_too_small"]:
            new_depth = max(depth * 4, n + 1000)
            log(f"    pan -m{depth}: max search depth too small; rerunning with -m{new_depth}")
            depth = new_depth
            continue
        if args.repeat > 1 and r.rc == 0:
            r, cpus = best_of(args.repeat - 1, lambda: run(cmd, cwd=tmp, timeout=args.timeout))
            res["cpu_s_all_runs"] = [attempts[-1]["cpu_s"]] + cpus
            if r.cpu > attempts[-1]["cpu_s"]:
                r = first
            pan = parse_pan(r.out)
        break
    res.update(pan)
    res.update({"pan_cmd": cmd, "rc": r.rc, "cpu_s": r.cpu, "wall_s": r.wall,
                "maxrss_kb": r.maxrss_kb, "attempts": attempts})
    if "error" not in res:
        if pan["out_of_memory"]:
            res["error"] = "pan ran out of memory (raise --memlim)"
        elif pan["stored"] is None:
            res["error"] = f"could not parse pan output (exit {r.rc}): {r.out.strip()[-300:]}"
    if pan["stored"] is not None and pan["matched"] is not None:
        # pan counts the initial state as a transition: stored + matched = fired + 1
        res["fired"] = pan["stored"] + pan["matched"] - 1
    return res


# ---------------------------------------------------------------------------------------------
# table

def f_ratio(a, b):
    if a is None or b is None or b <= 0:
        return "n/a"
    return f"{a / b:.2f}"


def f_bytes(x):
    return "-" if x is None else f"{x:.1f}"


def check_counts(inst, exp, t, s, invariant_mode):
    """Returns a list of problems (empty = all counts right) and a short status text."""
    problems = []
    notes = []
    if exp is None:
        return [f"{inst}: no expected count in state_counts_helena.csv"], "NO-EXPECTED"
    es, et = exp
    partial = invariant_mode and t.get("verdict") == "error"
    if "error" in t:
        problems.append(f"{inst}: Tandem failed: {t['error']}")
    elif partial:
        notes.append("T partial")
    else:
        if t.get("states") != es:
            problems.append(f"{inst}: Tandem states {t.get('states')} != expected {es}")
        if t.get("transitions") != et:
            problems.append(f"{inst}: Tandem transitions {t.get('transitions')} != expected {et}")
    if "error" in s and s.get("stored") is None:
        problems.append(f"{inst}: SPIN failed: {s['error']}")
    else:
        if "error" in s:
            problems.append(f"{inst}: SPIN: {s['error']}")
        extra = s.get("init_extra_states", 0)
        if s.get("stored") != es + extra:
            problems.append(f"{inst}: SPIN states {s.get('stored')} != expected {es}"
                            + (f" + {extra} (init)" if extra else ""))
        if s.get("fired") != et + extra:
            problems.append(f"{inst}: SPIN transitions (stored+matched-1) {s.get('fired')} != "
                            f"expected {et}" + (f" + {extra} (init)" if extra else ""))
        if extra:
            notes.append(f"S +{extra} init")
    status = "MISMATCH" if problems else "ok"
    if notes:
        status += " (" + ", ".join(notes) + ")"
    return problems, status


def build_rows(results, invariant_mode):
    header = ["instance", "engine", "expected", "T states", "S states", "counts",
              "T cpu s", "S cpu s", "S gcc s", "T/S cpu", "T st/s", "S st/s",
              "T B/st store", "T B/st RSS", "S B/st states", "S B/st total", "store/states"]
    if invariant_mode:
        header += ["T prop1", "expected prop1"]
    rows = []
    for r in results:
        t, s = r["tandem"], r["spin"]
        es = r["expected"][0] if r["expected"] else None
        t_states, s_states = t.get("states"), s.get("stored")
        # stopped at the violation, or failed: no like-for-like ratios
        partial = (invariant_mode and t.get("verdict") == "error") or "error" in t
        t_cpu, s_cpu = t.get("cpu_s"), s.get("cpu_s")
        t_store = t.get("store_bytes_per_state")
        t_rss = (t["peak_rss_mb"] * MIB / t_states
                 if t.get("peak_rss_mb") is not None and t_states else None)
        s_bps = (s["mem_states_mb"] * MIB / s_states
                 if s.get("mem_states_mb") is not None and s_states else None)
        s_tot = (s["mem_total_mb"] * MIB / s_states
                 if s.get("mem_total_mb") is not None and s_states else None)
        row = [r["instance"], t.get("engine", "?"), f_int(es), f_int(t_states), f_int(s_states),
               r["status"], f_sec(t_cpu), f_sec(s_cpu), f_sec(s.get("compile_cpu_s")),
               "n/a" if partial else f_ratio(t_cpu, s_cpu),
               f_int(t_states / t_cpu) if t_states and t_cpu else "-",
               f_int(s_states / s_cpu) if s_states and s_cpu else "-",
               f_bytes(t_store), f_bytes(t_rss), f_bytes(s_bps), f_bytes(s_tot),
               "n/a" if partial else f_ratio(t_store, s_bps)]
        if invariant_mode:
            v = t.get("verdict")
            verdict = {"verified": "safe", "error": "reachable"}.get(v, v or "-")
            if v == "error" and t.get("error_kind") not in (None, "invariant"):
                verdict = f"error:{t.get('error_kind')}"
            row += [verdict, r.get("prop1_expected") or "-"]
        rows.append(row)
    return header, rows


NUMERIC = {"expected", "T states", "S states", "T cpu s", "S cpu s", "S gcc s", "T/S cpu",
           "T st/s", "S st/s", "T B/st store", "T B/st RSS", "S B/st states", "S B/st total",
           "store/states"}


def shown(path):
    """A path relative to the repository when it is inside it."""
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def machine_info(args):
    return [machine_line(),
            f"tandem:  {args.tandem} ({first_line([str(args.tandem), '--version'])})",
            f"spin:    {first_line([args.spin, '-V'])}; cc: {first_line([args.cc, '--version'])}",
            f"model:   {shown(args.dve2pml)} X.dve > model.pml; spin -a -o2 model.pml",
            f"pan:     -O2 -DSAFETY -DNOREDUCE -DMEMLIM={args.memlim}; ./pan -E -m<depth> "
            f"-w<bits>, 2^bits >= 2 x expected states"]


def default_memlim():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return max(1024, min(65536, int(line.split()[1]) * 3 // 4 // 1024))
    except OSError:
        pass
    return 4096


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description="Tandem vs SPIN on BEEM instances (CPU time, states/s, bytes per state).",
        epilog="Exit status: 0 all counts right, 1 a count (or --invariant verdict) is wrong, "
               "2 a tool failed or bad arguments.")
    ap.add_argument("--large", action="store_true",
                    help="add the large set: " + ",".join(LARGE))
    ap.add_argument("--channels", action="store_true",
                    help="run the channel set instead of the quick set: " + ",".join(CHANNELS))
    ap.add_argument("--instances", help="comma-separated instances (replaces the default set)")
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem",
                    help="tandem binary (default: %(default)s)")
    ap.add_argument("--tandem-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for `tandem check` (repeatable)")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared",
                    help="the shared folder with external/beem (default: %(default)s)")
    ap.add_argument("--dve2pml", type=Path, default=REPO / "bench" / "dve2pml.py",
                    help="the DVE -> Promela translator (default: %(default)s)")
    ap.add_argument("--spin", default="spin", help="spin command (default: %(default)s)")
    ap.add_argument("--cc", default="gcc", help="C compiler for pan.c (default: %(default)s)")
    ap.add_argument("--memlim", type=int, default=default_memlim(),
                    help="pan's -DMEMLIM in MB (default: 3/4 of RAM, %(default)s)")
    ap.add_argument("--spin-depth", type=int, default=0,
                    help="pan -m (default: max(100000, states/4), raised if too small)")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds allowed for each child process (default: none)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run Tandem and pan N times each and keep the run with the least CPU "
                         "time (default: %(default)s)")
    ap.add_argument("--invariant", action="store_true",
                    help="check prop1 (no two processes in CS) in the Tandem runs")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--json-out", type=Path, help="also write all raw measurements as JSON")
    ap.add_argument("--keep-temp", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()

    args.tandem = args.tandem.resolve()
    args.shared = args.shared.resolve()
    args.dve2pml = args.dve2pml.resolve()
    dve_dir = args.shared / "external" / "beem" / "dve"
    for what, p in (("tandem binary", args.tandem), ("dve2pml.py", args.dve2pml),
                    ("BEEM folder", dve_dir)):
        if not p.exists():
            log(f"beem_vs_spin: error: {what} not found: {p}")
            return 2
    for tool in (args.spin, args.cc):
        if shutil.which(tool) is None:
            log(f"beem_vs_spin: error: '{tool}' not found on PATH")
            return 2

    if args.instances:
        instances = [i.strip() for i in args.instances.split(",") if i.strip()]
    else:
        instances = (CHANNELS if args.channels else QUICK) + (LARGE if args.large else [])
    counts, prop1 = load_expected(args.shared)
    for inst in instances:
        if not (dve_dir / f"{inst}.dve").exists():
            log(f"beem_vs_spin: error: no {dve_dir / (inst + '.dve')}")
            return 2

    info = machine_info(args)
    load_before = loadavg()
    results = []
    tool_failed = False
    tmp_root = Path(tempfile.mkdtemp(prefix="beem_vs_spin."))
    try:
        for k, inst in enumerate(instances, 1):
            dve = dve_dir / f"{inst}.dve"
            exp = counts.get(inst)
            tmp = tmp_root / inst
            tmp.mkdir()
            invariant = prop1_invariant(dve.read_text()) if args.invariant else None
            if args.invariant and invariant is None:
                log(f"  {inst}: no process has a state CS; no invariant added")
            log(f"[{k}/{len(instances)}] {inst} (expected {f_int(exp[0]) if exp else '?'} "
                f"states)")
            t = run_tandem(args, dve, inst, tmp, invariant)
            log(f"    tandem: {f_int(t.get('states'))} states, cpu {f_sec(t.get('cpu_s'))} s, "
                f"engine {t.get('engine', '?')}, verdict {t.get('verdict', '?')}"
                + (f"  ERROR: {t['error']}" if "error" in t else ""))
            try:
                s = run_spin(args, dve, inst, tmp, exp[0] if exp else None)
            except RuntimeError as e:
                s = {"error": str(e)}
            log(f"    spin:   {f_int(s.get('stored'))} states, cpu {f_sec(s.get('cpu_s'))} s "
                f"(+ gcc {f_sec(s.get('compile_cpu_s'))} s)"
                + (f"  ERROR: {s['error']}" if "error" in s else ""))
            tool_failed |= "error" in t or "error" in s
            problems, status = check_counts(inst, exp, t, s, args.invariant)
            rec = {"instance": inst, "expected": exp, "tandem": t, "spin": s,
                   "status": status, "problems": problems}
            if args.invariant:
                rec["invariant"] = invariant
                rec["prop1_expected"] = prop1.get(inst)
                got = {"verified": "safe", "error": "reachable"}.get(t.get("verdict"))
                if t.get("verdict") == "error" and t.get("error_kind") != "invariant":
                    got = None
                want = prop1.get(inst)
                if want in ("safe", "reachable") and got != want:
                    problems.append(f"{inst}: Tandem prop1 verdict {t.get('verdict')} "
                                    f"({t.get('error_kind')}) but expected {want}")
                    rec["status"] = "MISMATCH" if "MISMATCH" not in status else status
            for p in problems:
                log(f"    *** {p}")
            if not args.keep_temp:
                shutil.rmtree(tmp, ignore_errors=True)
            results.append(rec)
    finally:
        if args.keep_temp:
            log(f"temporary files kept in {tmp_root}")
        else:
            shutil.rmtree(tmp_root, ignore_errors=True)

    info.append(f"load:    average {load_before} before the runs, {loadavg()} after "
                f"(1/5/15 min); repeat {args.repeat}, least CPU kept")
    header, rows = build_rows(results, args.invariant)
    prefix = "- " if args.markdown else ""
    print("\n".join(prefix + line for line in info))
    print()
    print(format_table(header, rows, NUMERIC, args.markdown))
    print()
    print("T = Tandem, S = SPIN pan; cpu = user+sys of the child process; st/s = states per CPU "
          "second; B/st = bytes per stored state (T store: store_bytes_per_state, T RSS: "
          "peak RSS / states, S states: 'actual memory usage for states' / stored, S total: "
          "'total actual memory usage' / stored); store/states = T B/st store / S B/st states.")
    if args.json_out:
        args.json_out.write_text(json.dumps({"machine": info, "results": results}, indent=2,
                                            default=str))
    all_problems = [p for r in results for p in r["problems"]]
    if all_problems:
        print()
        print(f"*** {len(all_problems)} PROBLEM(S): COUNT/VERDICT MISMATCH OR TOOL FAILURE ***")
        for p in all_problems:
            print(f"*** {p}")
        return 2 if tool_failed else 1
    print("all state counts match the expected counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())

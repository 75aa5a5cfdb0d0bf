#!/usr/bin/env python3
"""`tandem prove` (abstraction fabrication) against two baselines.

For each model it runs, one after the other:

  fabricate  tandem prove FILE ARGS --json               (the default engine)
  eager      tandem prove FILE ARGS --engine eager --json (one SMT query per candidate abstract
                                                          successor: Graf-Saidi style)
  z3         tandem export-chc FILE ARGS -o T.smt2, then z3 fp.engine=spacer -T:S T.smt2
             (Z3's Horn engine; sat = safe, unsat = an error is reachable)

and prints one row per model: the verdict of each tool, the SMT queries of fabricate and eager
(`stats.solver_queries`) and their ratio, the CPU time (user + sys of the child process) of each
tool, and each tool's own measure of its run (Tandem's `stats.time_s`, z3's `:time` from -st),
which leaves out the start-up. The z3 times do not include the export (its time is in
--json-out). Timeouts show as `timeout`; a construct a tool refuses shows as `n/a: why`.

Models: ../shared/conformance/bakery2*.tdm, models/bakery2.tdm, foo_fixed, foo_coarse (entry
foo), loop500 (entry main), bounded_stack_fixed (needs prove --class), and every
models/prove/*.tdm (entry from its `// RUN: tandem prove` line).

Usage: python3 bench/prove_vs_baselines.py [--tandem build/tandem] [--z3 z3] [--shared DIR]
           [--timeout S] [--cutpoints loops|all] [--solver z3|cvc5] [--repeat N]
           [--only SUBSTR] [--markdown] [--json-out FILE]
Python 3 standard library only. Exit status 2 if a tool fails in an unexpected way.
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLUMNS = ["model", "fabricate", "eager", "z3 spacer", "q fabricate", "q eager", "eager/fab",
           "fabricate s", "eager s", "z3 s", "fab own s", "eager own s", "z3 own s"]


def models(shared):
    conf = shared / "conformance"
    out = [("bakery2 (models/)", REPO / "models" / "bakery2.tdm", [])]
    for name in ["bakery2", "bakery2_anyinit", "bakery2_rules", "bakery2_race"]:
        out.append((name, conf / f"{name}.tdm", []))
    out += [
        ("foo_fixed", conf / "foo_fixed.tdm", ["--entry", "foo"]),
        ("foo_coarse", conf / "foo_coarse.tdm", ["--entry", "foo"]),
        ("loop500", conf / "loop500.tdm", ["--entry", "main"]),
        ("bounded_stack_fixed", conf / "bounded_stack_fixed.tdm",
         ["--class", "BoundedStack", "--check", "index-out-of-bounds"]),
    ]
    for f in sorted((REPO / "models" / "prove").glob("*.tdm")):
        run = re.search(r"^// RUN: tandem prove(.*)$", f.read_text(), re.M)
        entry = re.search(r"--entry (\S+)", run.group(1)) if run else None
        out.append((f.stem, f, ["--entry", entry.group(1)] if entry else []))
    return out


def timed(cmd, timeout):
    """Runs cmd; returns (returncode or None on timeout, stdout, stderr, cpu s, wall s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, e.stdout or "", e.stderr or ""
        out = out.decode() if isinstance(out, bytes) else out
        err = err.decode() if isinstance(err, bytes) else err
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return rc, out, err, cpu, wall


def refused(err):
    first = err.strip().splitlines()[0] if err.strip() else "exit 2"
    if "export-chc --class" in first and "not implemented" in first:
        return "n/a: export-chc --class not implemented"
    return "n/a: " + first.replace("tandem: error: ", "")


def run_prove(args, model, extra, engine):
    cmd = [str(args.tandem), "prove", str(model), "--json", "--quiet", "--solver", args.solver,
           "--cutpoints", args.cutpoints, "--timeout", str(args.timeout)] + extra
    if engine != "fabricate":
        cmd += ["--engine", engine]
    best = None
    for _ in range(args.repeat):
        rc, out, err, cpu, wall = timed(cmd, args.timeout + 30)
        r = {"cmd": cmd, "rc": rc, "cpu": cpu, "wall": wall}
        if rc is None:
            r["verdict"] = "timeout"
        elif rc == 2:
            r["verdict"] = refused(err)
        else:
            try:
                rep = json.loads(out)
            except json.JSONDecodeError:
                raise RuntimeError(f"{' '.join(cmd)} exited {rc} without a report: {err}")
            r["verdict"] = rep["verdict"]
            if rep["verdict"] == "unknown" and "timeout" in rep.get("reason", ""):
                r["verdict"] = "timeout"
            r["queries"] = rep["stats"]["solver_queries"]
            r["time_s"] = rep["stats"]["time_s"]
            r["abstract_states"] = rep["stats"]["abstract_states"]
        if best is None or r["cpu"] < best["cpu"]:
            best = r
    return best


def run_z3(args, model, extra, tmp):
    out_file = Path(tmp) / (model.stem + ".smt2")
    cmd = [str(args.tandem), "export-chc", str(model), "--json", "--cutpoints", args.cutpoints,
           "-o", str(out_file)] + extra
    rc, out, err, cpu, wall = timed(cmd, args.timeout)
    r = {"export_cmd": cmd, "export_cpu": cpu, "export_wall": wall}
    if rc != 0:
        r["verdict"] = refused(err) if rc == 2 else f"export failed ({rc})"
        return r
    rep = json.loads(out)
    r["predicates"] = rep["stats"]["predicates"]
    r["clauses"] = rep["stats"]["clauses"]
    zcmd = [args.z3, "fp.engine=spacer", "-st", f"-T:{int(args.timeout)}", str(out_file)]
    best = None
    for _ in range(args.repeat):
        rc, out, err, cpu, wall = timed(zcmd, args.timeout + 10)
        answer = out.strip().splitlines()[0] if out.strip() else ""
        z = {"cmd": zcmd, "rc": rc, "cpu": cpu, "wall": wall, "answer": answer}
        own = re.search(r"^ :time\s+([0-9.]+)", out, re.M)
        if own:
            z["time_s"] = float(own.group(1))
        if rc is None or answer == "timeout":
            z["verdict"] = "timeout"
        elif answer == "sat":
            z["verdict"] = "safe (sat)"
        elif answer == "unsat":
            z["verdict"] = "unsafe (unsat)"
        else:
            z["verdict"] = f"{answer or 'no answer'} ({err.strip()[:60]})"
        if best is None or z["cpu"] < best["cpu"]:
            best = z
    r.update(best)
    return r


def fmt_time(r, timeout):
    if r["verdict"].startswith("n/a"):
        return "n/a"
    if r["verdict"] == "timeout":
        return f">{timeout:g} (timeout)"
    return f"{r['cpu']:.3f}"


def fmt_own(r):
    return f"{r['time_s']:.3f}" if "time_s" in r and r["verdict"] != "timeout" else "n/a"


def row(name, fab, eager, z3, timeout):
    qf, qe = fab.get("queries"), eager.get("queries")
    ratio = f"{qe / qf:.2f}" if qf and qe is not None else "n/a"
    return {
        "model": name, "fabricate": fab["verdict"], "eager": eager["verdict"],
        "z3 spacer": z3["verdict"],
        "q fabricate": qf if qf is not None else "n/a",
        "q eager": qe if qe is not None else "n/a", "eager/fab": ratio,
        "fabricate s": fmt_time(fab, timeout), "eager s": fmt_time(eager, timeout),
        "z3 s": fmt_time(z3, timeout), "fab own s": fmt_own(fab),
        "eager own s": fmt_own(eager), "z3 own s": fmt_own(z3),
    }


def print_table(rows, markdown):
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("---" for _ in COLUMNS) + "|")
        for r in rows:
            print("| " + " | ".join(str(r[c]) for c in COLUMNS) + " |")
        return
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in COLUMNS}
    print("  ".join(c.ljust(widths[c]) for c in COLUMNS))
    for r in rows:
        print("  ".join(str(r[c]).ljust(widths[c]) for c in COLUMNS))


def summary(results):
    """The two goals of the issue, counted over the models every tool answered."""
    both = [x for x in results if "queries" in x["fabricate"] and "queries" in x["eager"]]
    ratios = [x["eager"]["queries"] / x["fabricate"]["queries"] for x in both
              if x["fabricate"]["queries"]]
    lines = []
    if ratios:
        ten = sum(1 for q in ratios if q >= 10)
        lines.append(f"queries: eager/fabricate from {min(ratios):.2f} to {max(ratios):.2f}; "
                     f">= 10x fewer queries on {ten} of {len(ratios)} models")
    timed_rows = [x for x in results if "queries" in x["fabricate"]
                  and not x["z3"]["verdict"].startswith(("n/a", "export"))]
    faster = sum(1 for x in timed_rows
                 if x["z3"]["verdict"] == "timeout" or x["fabricate"]["cpu"] < x["z3"]["cpu"])
    lines.append(f"time (CPU of the process): fabricate faster than z3 spacer on {faster} of "
                 f"{len(timed_rows)} models both could run (a z3 timeout counts as slower)")
    own = [x for x in timed_rows if "time_s" in x["z3"] or x["z3"]["verdict"] == "timeout"]
    faster = sum(1 for x in own if x["z3"]["verdict"] == "timeout"
                 or x["fabricate"]["time_s"] < x["z3"]["time_s"])
    lines.append(f"time (own measure, no start-up): fabricate faster on {faster} of {len(own)}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", type=Path, default=REPO / "build" / "tandem")
    ap.add_argument("--z3", default="z3")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--timeout", type=float, default=60.0, help="per run, seconds")
    ap.add_argument("--cutpoints", choices=["loops", "all"], default="loops")
    ap.add_argument("--solver", choices=["z3", "cvc5"], default="z3", help="tandem's back end")
    ap.add_argument("--repeat", type=int, default=1, help="keep the least CPU time of N runs")
    ap.add_argument("--only", default="", help="models whose name contains this")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    if not args.tandem.exists():
        print(f"bench: no tandem binary at {args.tandem}", file=sys.stderr)
        return 2
    z3v = subprocess.run([args.z3, "--version"], capture_output=True, text=True).stdout.strip()
    load0 = os.getloadavg()
    print(f"tandem: {args.tandem}; {z3v}; cutpoints {args.cutpoints}; tandem solver "
          f"{args.solver}; timeout {args.timeout:g} s; repeat {args.repeat}")
    print(f"machine: {os.cpu_count()} cores; load average before: "
          + " ".join(f"{x:.2f}" for x in load0))
    results, rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, model, extra in models(args.shared):
            if args.only not in name:
                continue
            print(f"  {name} ...", file=sys.stderr, flush=True)
            try:
                fab = run_prove(args, model, extra, "fabricate")
                eager = run_prove(args, model, extra, "eager")
                z3 = run_z3(args, model, extra, tmp)
            except (RuntimeError, OSError, json.JSONDecodeError) as e:
                print(f"*** {name}: {e}", file=sys.stderr)
                return 2
            results.append({"model": name, "file": str(model), "args": extra,
                            "fabricate": fab, "eager": eager, "z3": z3})
            rows.append(row(name, fab, eager, z3, args.timeout))
    load1 = os.getloadavg()
    print_table(rows, args.markdown)
    print("load average after: " + " ".join(f"{x:.2f}" for x in load1))
    for line in summary(results):
        print(line)
    if args.json_out:
        args.json_out.write_text(json.dumps({"load_before": load0, "load_after": load1,
                                             "z3": z3v, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

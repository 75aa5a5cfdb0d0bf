#!/usr/bin/env python3
"""`tandem testgen --compositional` against its whole-program baseline `--dse`, on the three
programs of Anand, Godefroid and Tillmann's evaluation (TACAS'08, Sect. 5) written in the Tandem
language (models/tacas08/: HWM, and Parser-like and IncDec-like programs of our own), next to the
paper's figures.

Every (model, mode, solver) runs once, one at a time, as

  tandem testgen models/tacas08/M.tdm --entry E --MODE --target BUG --max-executions N
         --solver S --json --quiet [--timeout T]

(N = 20,000 by default, the paper's bound). The table has one row per run: executions, whether
the assertion was reached, lazy and relevant queries, mispredictions, divergences, Tandem's own
time (stats.time_s) and the wall-clock time of the process; then the paper's executions for the
same program (compositional / Pex without summaries). A run whose exit status does not match its
verdict, or whose report has a misprediction or a divergence, is a problem (exit 1).

Usage: bench/compositional_table.py [--tandem PATH] [--solvers z3,cvc5] [--max-executions N]
                                    [--timeout S] [--models hwm,parser,incdec]
Python 3 standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = {  # name: (file, entry, the paper's executions: compositional, non-compositional)
    "hwm": ("models/tacas08/hwm.tdm", "hwm", "37", "maxed (20,000)"),
    "parser": ("models/tacas08/parser.tdm", "parse", "144", "maxed (20,000)"),
    "incdec": ("models/tacas08/incdec.tdm", "incdec", "74", "1,207"),
}
EXIT = {"completed": 0, "error": 1, "unknown": 4}


def run(tandem, model, mode, solver, max_exec, timeout):
    path, entry, _, _ = MODELS[model]
    cmd = [tandem, "testgen", os.path.join(ROOT, path), "--entry", entry, "--" + mode,
           "--target", "BUG", "--max-executions", str(max_exec), "--solver", solver, "--json",
           "--quiet"]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    start = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - start
    try:
        rep = json.loads(p.stdout)
    except json.JSONDecodeError:
        return None, wall, "no JSON report: " + " ".join(cmd) + "\n" + p.stderr
    problem = ""
    if EXIT.get(rep.get("verdict")) != p.returncode:
        problem = "exit %d for verdict %s: %s" % (p.returncode, rep.get("verdict"), " ".join(cmd))
    st = rep.get("stats", {})
    if st.get("mispredictions") or st.get("divergences"):
        problem = "mispredictions or divergences: " + " ".join(cmd)
    return rep, wall, problem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tandem", default=os.path.join(ROOT, "build", "tandem"))
    ap.add_argument("--solvers", default="z3,cvc5")
    ap.add_argument("--max-executions", type=int, default=20000)
    ap.add_argument("--timeout", type=float, default=0)
    ap.add_argument("--models", default="hwm,parser,incdec")
    a = ap.parse_args()
    rows, problems = [], []
    for model in a.models.split(","):
        for solver in a.solvers.split(","):
            for mode in ("compositional", "dse"):
                rep, wall, problem = run(a.tandem, model, mode, solver, a.max_executions, a.timeout)
                if problem:
                    problems.append(problem)
                if rep is None:
                    continue
                st = rep["stats"]
                reached = "yes" if rep.get("target_reached") else (
                    "unreachable" if any("label" in u for u in rep.get("unreachable_targets", []))
                    else "no")
                paper = MODELS[model][2] if mode == "compositional" else MODELS[model][3]
                rows.append([model, mode, solver, str(st["executions"]), reached,
                             str(st["lazy_queries"]), str(st["relevant_queries"]),
                             str(st["mispredictions"]), str(st["divergences"]),
                             "%.2f" % st["time_s"], "%.2f" % wall, rep.get("reason", ""), paper])
    head = ["model", "mode", "solver", "executions", "reached", "lazy q", "relevant q",
            "mispred.", "diverg.", "time s", "wall s", "reason", "paper: executions"]
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    for p in problems:
        print("problem: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""CHC-COMP's LIA-Lin tasks: `tandem prove --format chc-comp` next to Z3's Spacer.

Each task of ../shared/external/chc/lia-lin/tasks.set (a .yml naming its .smt2 and the expected
verdict: true = sat, false = unsat; tasks without one count as unknown) runs under both tools,
one process at a time, with the same time limit:

  tandem prove --format chc-comp --quiet --timeout S FILE     (subprocess limit S + 5)
  z3 -T:S fp.engine=spacer FILE                               (subprocess limit S + 5)

The first line of each tool's stdout is its answer (sat, unsat, anything else: unknown). A
task is *solved* when the answer is the expected verdict, *wrong* when it is the opposite (a
soundness bug), and its time counts toward the tool's total either way. Tandem also writes its
invariant (`--certificate`); each `sat` answer's certificate is checked by z3 and cvc5
(scripts/validate-certificate; not timed) and counted as *certified* when both validate it. The
table gives solved / wrong / time per tool (and tandem's certified), overall and per source
folder (the first part of the task's path), and each wrong answer and failed certificate is
listed after it.

usage: chc_comp.py [--tandem PATH] [--z3 PATH] [--timeout S] [--limit N] [--sample]
                   [--tandem-flag=--refine] [--only tandem|z3-spacer]
                   [--seed N] [--tasks FILE] [--markdown]
  --limit N   only N tasks: the first N of the set, or with --sample N drawn at random (--seed)
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import log  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VALIDATE = os.path.join(HERE, "..", "scripts", "validate-certificate")
DEFAULT_TASKS = os.path.join(HERE, "..", "..", "shared", "external", "chc", "lia-lin",
                             "tasks.set")


def expected(yml):
    """'sat', 'unsat' or None (no verdict, or an inconsistent one) from a task's .yml."""
    text = open(yml, encoding="utf-8").read()
    m = re.search(r"expected_verdict:\s*(\w+)", text)
    return {"true": "sat", "false": "unsat"}.get(m.group(1)) if m else None


def smt2_of(yml):
    text = open(yml, encoding="utf-8").read()
    m = re.search(r"input_files:\s*'?([^'\s]+)'?", text)
    return os.path.join(os.path.dirname(yml), m.group(1))


def answer(cmd, limit):
    """The first stdout line (sat/unsat/unknown) and the wall time of `cmd`."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 5)
        out = p.stdout.strip().splitlines()
        first = out[0].strip() if out else ""
    except subprocess.TimeoutExpired:
        first = "timeout"
    elapsed = time.monotonic() - start
    return (first if first in ("sat", "unsat") else "unknown"), elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tandem", default=os.path.join(HERE, "..", "build", "tandem"))
    ap.add_argument("--z3", default="z3")
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--sample", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tasks", default=DEFAULT_TASKS)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--tandem-flag", action="append", default=[],
                    help="one more flag for tandem prove (repeatable), e.g. --tandem-flag=--refine")
    ap.add_argument("--only", choices=["tandem", "z3-spacer"],
                    help="run one tool (the other's columns are then empty)")
    a = ap.parse_args()

    base = os.path.dirname(os.path.abspath(a.tasks))
    tasks = [l.strip() for l in open(a.tasks, encoding="utf-8") if l.strip()]
    if a.limit and a.sample:
        tasks = sorted(random.Random(a.seed).sample(tasks, min(a.limit, len(tasks))))
    elif a.limit:
        tasks = tasks[:a.limit]
    t = str(int(a.timeout)) if a.timeout == int(a.timeout) else str(a.timeout)
    cert = os.path.join(tempfile.mkdtemp(prefix="chc_comp_"), "certificate.smt2")
    tools = {
        "tandem": lambda f: [a.tandem, "prove", "--format", "chc-comp", "--quiet", "--timeout", t,
                             "--certificate", cert] + a.tandem_flag + [f],
        "z3-spacer": lambda f: [a.z3, f"-T:{t}", "fp.engine=spacer", f],
    }
    if a.only:
        tools = {a.only: tools[a.only]}
    # (tool, folder) -> [tasks, solved, wrong, seconds, certified]
    rows = collections.defaultdict(lambda: [0, 0, 0, 0.0, 0])
    wrong, uncertified = [], []
    for i, task in enumerate(tasks, 1):
        yml = os.path.join(base, task)
        exp, smt2 = expected(yml), smt2_of(yml)
        folder = task.split("/")[0]
        for tool, cmd in tools.items():
            if os.path.exists(cert):
                os.remove(cert)
            got, secs = answer(cmd(smt2), a.timeout)
            certified = False
            if tool == "tandem" and got == "sat":
                v = subprocess.run([sys.executable, VALIDATE, smt2, cert], capture_output=True,
                                   text=True)
                certified = v.returncode == 0
                if not certified:
                    uncertified.append((task, (v.stdout + v.stderr).strip().replace("\n", "; ")))
            for key in ((tool, folder), (tool, "all")):
                r = rows[key]
                r[0] += 1
                r[1] += exp is not None and got == exp
                r[2] += exp is not None and got in ("sat", "unsat") and got != exp
                r[3] += secs
                r[4] += certified
            if exp is not None and got in ("sat", "unsat") and got != exp:
                wrong.append((tool, task, exp, got))
            log(f"[{i}/{len(tasks)}] {tool:9} {task}: expected {exp}, got {got} ({secs:.2f} s)")

    folders = sorted({f for (_, f) in rows if f != "all"}) + ["all"]
    def columns(tool):
        return ("solved", "wrong", "time (s)") + (("sat certified",) if tool == "tandem" else ())

    head = ["folder", "tasks"] + [f"{tool} {c}" for tool in tools for c in columns(tool)]
    lines = []
    for f in folders:
        cells = [f, str(rows[(next(iter(tools)), f)][0])]
        for tool in tools:
            n, s, w, secs, c = rows[(tool, f)]
            cells += [str(s), str(w), f"{secs:.1f}"] + ([str(c)] if tool == "tandem" else [])
        lines.append(cells)
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for c in lines:
            print("| " + " | ".join(c) + " |")
    else:
        widths = [max(len(r[i]) for r in [head] + lines) for i in range(len(head))]
        for r in [head] + lines:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))
    for tool, task, exp, got in wrong:
        print(f"WRONG: {tool} answered {got} on {task} (expected {exp})")
    for task, why in uncertified:
        print(f"CERTIFICATE NOT VALIDATED: {task}: {why}")
    return 1 if wrong or uncertified else 0


if __name__ == "__main__":
    sys.exit(main())

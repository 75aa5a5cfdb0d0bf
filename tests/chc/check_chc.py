#!/usr/bin/env python3
"""The CHC-COMP front end's answers and refusals, beyond what the RUN/EXPECT lines check.

For each .smt2 file under tests/chc (the folder of this script):
  `; CHC-COMP: sat|unsat|unknown`  tandem prove --format chc-comp prints exactly that line, under
                                   each --solver
  `; ERROR: FILE:LINE:COL: ...`    the first line of stderr ends with it (the file's own path
                                   precedes it)
Then: commands that do not apply to Horn clauses (testgen, cover, --invariant, prove
--annotate) exit 2 with a message; --format chc-comp is refused with --json and by other
commands; export-chc of the lowered clauses gives z3's Horn engine the same answer (when a z3
binary is on PATH).

usage: check_chc.py --tandem PATH [--solvers z3,cvc5]     (exit 1 on any failure)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def directive(text, key):
    m = re.search(r"^;+\s*" + key + r":\s*(.*?)\s*$", text, re.M)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--solvers", default="z3,cvc5")
    a = ap.parse_args()
    failures = []
    checked = 0

    def check(ok, what):
        nonlocal checked
        checked += 1
        if not ok:
            failures.append(what)

    files = sorted(glob.glob(os.path.join(HERE, "**", "*.smt2"), recursive=True))
    for f in files:
        text = open(f, encoding="utf-8").read()
        want = directive(text, "CHC-COMP")
        error = directive(text, "ERROR")
        for solver in a.solvers.split(","):
            code, out, err = run([a.tandem, "prove", "--format", "chc-comp", "--quiet",
                                  "--solver", solver, f])
            if want:
                check(out == want + "\n", f"{f} --solver {solver}: stdout {out!r}, want {want!r}")
            if error:
                first = err.splitlines()[0] if err else ""
                check(code == 2 and first.startswith(f) and first.endswith(error),
                      f"{f}: exit {code}, stderr {first!r}, want ...{error!r}")

    base = os.path.join(HERE, "safe_counter.smt2")
    refusals = [
        (["testgen", base], "testgen needs --entry"),
        (["testgen", base, "--entry", "chc"], "no procedure 'chc'"),
        (["cover", base, "--entry", "chc"], "is a closed system"),
        (["prove", base, "--invariant", "inv_0 > 0"], "--invariant does not apply to Horn"),
        (["prove", base, "--annotate", os.devnull], "--annotate writes .tdm files"),
        (["prove", base, "--format", "chc-comp", "--json"], "--format chc-comp and --json"),
        (["check", base, "--format", "chc-comp"], "--format"),
    ]
    for args, message in refusals:
        code, out, err = run([a.tandem] + args)
        check(code == 2 and message in err, f"tandem {' '.join(args)}: exit {code}, {err!r}")

    z3 = shutil.which("z3")
    if z3:
        for name, want in (("safe_counter", "sat"), ("unsafe_loop", "unsat"),
                           ("booleans", "unsat"), ("repeated_vars_safe", "sat")):
            with tempfile.TemporaryDirectory() as tmp:
                out_file = os.path.join(tmp, name + ".out.smt2")
                code, _, err = run([a.tandem, "export-chc", os.path.join(HERE, name + ".smt2"),
                                    "-o", out_file])
                check(code == 0, f"export-chc {name}: exit {code}, {err!r}")
                _, out, _ = run([z3, "-T:60", out_file])
                check(out.strip().startswith(want), f"z3 on export-chc {name}: {out!r}, want {want}")

    for f in failures:
        print("FAIL " + f)
    print(f"check_chc: {len(files)} files, {checked} checks, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

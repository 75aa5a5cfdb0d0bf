#!/usr/bin/env python3
"""Programs as large as a user may generate: no crash, no recursion per statement or term (issue 39).

Generates two models and runs commands on them; each must end with its usual exit status, never
a signal (a stack overflow was SIGSEGV):
  - a procedure of N straight-line statements (200,000 at --scale 1: `ir` and `check --entry
    main` died in the recursive walk of the lowering);
  - chains of N/10 terms of `+`, `||` and `&&` (`1 + 1 + ...` of 256 terms was refused as nesting
    too deep), through `ir`, `check` with both solvers (verified, or unknown at --timeout 10)
    and `run`.

usage: check_program_size.py --tandem PATH [--scale F]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def straight_line(n):
    lines = ["proc main(x: int) {", "  var s: int = 0;"]
    lines += ["  s := s + %d;" % (i % 7) for i in range(n)]
    lines += ["  assert s != 5;", "}"]
    return "\n".join(lines) + "\n"


def chains(n):
    # Easy for the solvers (each query has a bound that settles it), long for every walk.
    total = " + ".join(["1"] * n)
    ors = " || ".join(["x == %d" % i for i in range(n - 1)] + ["x >= 0"])
    ands = " && ".join("x != %d" % -i for i in range(1, n + 1))
    return (f"proc main(x: int) {{\n  assume x >= 0 && x < {n};\n  var s: int = {total};\n"
            f"  assert s == {n};\n  assert {ors};\n  assert {ands};\n}}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    statements = int(200000 * a.scale)
    terms = int(20000 * a.scale)
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        line_model = os.path.join(d, "straight_line.tdm")
        chain_model = os.path.join(d, "chains.tdm")
        with open(line_model, "w") as f:
            f.write(straight_line(statements))
        with open(chain_model, "w") as f:
            f.write(chains(terms))
        runs = [
            (f"{statements} statements", ["ir", line_model], (0,)),
            (f"{statements} statements", ["check", line_model, "--entry", "main"], (0,)),
            (f"chains of {terms} terms", ["ir", chain_model], (0,)),
            # The solvers may take long on 20,000 disjuncts: verified or unknown (exit 4) by
            # --timeout, never a crash.
            (f"chains of {terms} terms",
             ["check", chain_model, "--entry", "main", "--timeout", "10"], (0, 4)),
            (f"chains of {terms} terms",
             ["check", chain_model, "--entry", "main", "--solver", "cvc5", "--timeout", "10"],
             (0, 4)),
            (f"chains of {terms} terms",
             ["run", chain_model, "--entry", "main", "--args", str(terms - 1)], (0,)),
        ]
        for what, args, want in runs:
            start = time.monotonic()
            p = subprocess.run([a.tandem] + args + ["--quiet"] * (args[0] != "ir"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, check=False)
            elapsed = time.monotonic() - start
            ok = p.returncode in want
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {what}: tandem {args[0]} "
                  f"{' '.join(args[2:])} exit {p.returncode} (want {want}), {elapsed:.1f} s",
                  flush=True)
            if not ok:
                print("     " + p.stderr.decode("utf-8", "replace").strip()[-400:])
    print(f"{len(runs) - failed} of {len(runs)} runs ended as they should")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

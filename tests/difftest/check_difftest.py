#!/usr/bin/env python3
"""The differential driver catches a wrong engine (ctest `difftest_driver`).

Runs scripts/difftest through a wrapper that forwards to the real tandem but answers one
command with a lie (`prove` always `proved`; `check --search bfs` always `verified`), on the
first generated closed model with an error, and checks that the driver exits 1, names the lying configuration,
and writes a minimised regression case whose expectation is the reference's verdict. Then the
honest binary on the same seeds must give exit 0.

    check_difftest.py --tandem PATH
"""
import argparse
import os
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DIFFTEST = os.path.join(HERE, "..", "..", "scripts", "difftest")

WRAPPER = """#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
lie = {lie!r}
if args and args[0] == lie[0] and all(a in args for a in lie[1:]):
    print(json.dumps({{"verdict": "{verdict}", "stats": {{"states": 1, "transitions": 0}}}}))
    sys.exit(0)
os.execv({tandem!r}, [{tandem!r}] + args)
"""


def first_error_seed(tandem, tmp):
    """The first even (closed) seed whose model explicit check finds an error in."""
    sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
    import genmodel
    for seed in range(2, 200, 2):
        path = os.path.join(tmp, "probe-%d.tdm" % seed)
        with open(path, "w") as f:
            f.write(genmodel.generate(seed, genmodel.CLOSED))
        rc, _ = run([tandem, "check", path, "--max-states", "100000", "--quiet"])
        if rc == 1:
            return seed
    return None


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    a = ap.parse_args()
    tandem = os.path.abspath(a.tandem)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        seed = first_error_seed(tandem, tmp)
        if seed is None:
            print("FAIL: no closed model among the first seeds has an error")
            return 1
        for lie, verdict, key in ((["prove"], "proved", "unsound:prove"),
                                  (["check", "--search", "bfs"], "verified", "verdict:check-bfs")):
            liar = os.path.join(tmp, "liar-%s" % lie[0])
            with open(liar, "w") as f:
                f.write(WRAPPER.format(lie=lie, verdict=verdict, tandem=tandem))
            os.chmod(liar, os.stat(liar).st_mode | stat.S_IEXEC)
            regress = os.path.join(tmp, "regress-" + lie[0])
            rc, out = run([sys.executable, DIFFTEST, "--tandem", liar, "--count", "1", "--seed", str(seed),
                           "--kind", "closed", "--quick", "--timeout", "10",
                           "--regress-dir", regress, "--minimise-seconds", "120",
                           "--keep", os.path.join(tmp, "models-" + lie[0])])
            if rc != 1:
                failures.append("a lying %s: difftest exited %d, not 1:\n%s" % (lie, rc, out))
            if "DISAGREEMENT" not in out or "difftest: 1 models" not in out.splitlines()[-1]:
                failures.append("a lying %s: no disagreement or no summary line last:\n%s" % (lie, out))
            cases = os.listdir(regress) if os.path.isdir(regress) else []
            if not cases:
                failures.append("a lying %s: no regression case written:\n%s" % (lie, out))
            for c in cases:
                text = open(os.path.join(regress, c)).read()
                if "// EXPECT: verdict=error" not in text or "// RUN: tandem check --search dfs" not in text:
                    failures.append("a lying %s: case %s lacks the reference's run or verdict:\n%s"
                                    % (lie, c, text))
                if key.replace(":", "_").replace("-", "_") not in c:
                    failures.append("a lying %s: case %s does not name %s" % (lie, c, key))
        rc, out = run([sys.executable, DIFFTEST, "--tandem", tandem, "--count", "4", "--seed", "1",
                       "--quick", "--timeout", "10", "--no-minimise"])
        if rc != 0:
            failures.append("the honest binary: difftest exited %d:\n%s" % (rc, out))
    for f in failures:
        print("FAIL: " + f)
    print("difftest driver: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""prove --certificate: every certificate the runs below produce is validated by z3 and cvc5.

For each model (the CHC-COMP files of tests/chc whose answer is sat, one of them with --refine;
the .tdm models of models/, models/prove and bench/models/filter2.tdm (arrays); the refinement
cases, with --refine), `tandem prove --certificate`
runs, and when the verdict is `proved` the certificate is checked by scripts/validate-certificate
against the clauses it speaks of: the .smt2 file itself, or `tandem export-chc` of the model with
the same options. A model whose certificate the export refuses (exit 2, "not implemented yet")
is listed, not failed. Then two controls: a certificate whose definitions are all `false` is
rejected by both solvers (the validation can fail), and a run that does not prove writes no
certificate.

usage: check_certificates.py --tandem PATH [--shared DIR]      (exit 1 on any failure)
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VALIDATE = os.path.join(ROOT, "scripts", "validate-certificate")


def run(cmd, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def cases():
    """(file, extra prove flags)."""
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "tests", "chc", "*.smt2"))):
        if re.search(r"^; CHC-COMP: sat\s*$", open(f).read(), re.M):
            out.append((f, ["--refine"] if f.endswith("safe_counter.smt2") else []))
    for pattern in ("models/*.tdm", "models/prove/*.tdm", "bench/models/filter2.tdm"):
        out += [(f, []) for f in sorted(glob.glob(os.path.join(ROOT, pattern)))]
    for f in sorted(glob.glob(os.path.join(ROOT, "tests", "conformance", "cases",
                                           "prove_refine_*.tdm"))):
        out.append((f, ["--refine"]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    a = ap.parse_args()
    for tool in ("z3", "cvc5"):
        if not shutil.which(tool):
            print("check_certificates: no %s binary on PATH" % tool)
            return 1
    tmp = tempfile.mkdtemp(prefix="certificates_")
    cert, clauses = os.path.join(tmp, "cert.smt2"), os.path.join(tmp, "clauses.smt2")
    failures, validated, refused = [], 0, []
    last_valid = None
    for f, flags in cases():
        name = os.path.relpath(f, ROOT) + (" " + " ".join(flags) if flags else "")
        for path in (cert, clauses):
            if os.path.exists(path):
                os.remove(path)
        rc, out, err = run([a.tandem, "prove", f, "--json", "--timeout", "30", "--certificate",
                            cert] + flags)
        if rc == 2 and "not implemented yet" in err:
            refused.append(name)
            continue
        try:
            verdict = json.loads(out)["verdict"]
        except (ValueError, KeyError):
            failures.append("%s: no JSON report (exit %d): %s" % (name, rc, err.strip()[:200]))
            continue
        if verdict != "proved":
            if os.path.exists(cert):
                failures.append("%s: %s, yet a certificate was written" % (name, verdict))
            continue
        if not os.path.exists(cert):
            failures.append("%s: proved, but no certificate" % name)
            continue
        target = f
        if not f.endswith(".smt2"):
            rc, _, err = run([a.tandem, "export-chc", f, "-o", clauses])
            if rc != 0:
                failures.append("%s: export-chc failed (exit %d): %s" % (name, rc, err.strip()))
                continue
            target = clauses
        rc, vout, verr = run([sys.executable, VALIDATE, target, cert])
        if rc != 0:
            failures.append("%s: certificate not validated: %s" % (name, (vout + verr).strip()))
            continue
        validated += 1
        last_valid = (target, open(cert).read())
        print("validated: " + name)
    # The controls.
    if last_valid is None:
        failures.append("no certificate was validated")
    else:
        target, text = last_valid
        bad = os.path.join(tmp, "false.smt2")
        with open(bad, "w") as fh:
            fh.write(re.sub(r"\) Bool\n(.|\n)*?(?=\n; |\Z)", ") Bool false)", text))
        rc, vout, _ = run([sys.executable, VALIDATE, target, bad])
        if rc != 1 or vout.count("INVALID") != 2:
            failures.append("the all-false certificate was not rejected by both solvers: " + vout)
    print("%d certificates validated by z3 and cvc5; refused (not implemented): %s" %
          (validated, ", ".join(refused) or "none"))
    for x in failures:
        print("FAIL: " + x)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

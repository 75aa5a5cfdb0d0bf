#!/usr/bin/env python3
"""Runs tandem with --sarif and --junit on models with an error, a potential error, failing
tests and a proof, and checks the files: the SARIF against the schema beside this script (the
SARIF 2.1.0 objects tandem writes, from the OASIS standard) with a JSON-schema validator, its
results and code flows against the JSON report, and the JUnit XML for its counts.

Usage: check_sarif.py --tandem PATH --shared DIR --source DIR
Exit status: 0 when every check holds, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import jsonschema
except ImportError:  # the check must not pass without its validator
    sys.exit("check_sarif: python3-jsonschema is missing (scripts/install-deps.sh installs it)")

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    schema = json.load(open(os.path.join(HERE, "sarif_subset.schema.json")))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    conf = os.path.join(a.shared, "conformance")
    cases = [
        # (arguments, verdict, SARIF results at least, a code flow on the first result)
        (["check", os.path.join(conf, "bakery2_race.tdm"), "--search", "bfs"], "error", 1, True),
        (["prove", os.path.join(conf, "foo_coarse.tdm"), "--entry", "foo", "--cutpoints", "all"],
         "potential-error", 1, False),
        (["testgen", os.path.join(a.source, "examples", "off_by_one.tdm"), "--entry", "fill"],
         "error", 2, True),
        (["prove", os.path.join(conf, "bakery2.tdm")], "proved", 0, False),
        (["check", os.path.join(a.source, "examples", "avg_overflow.tdm"), "--entry", "main",
          "--check", "assert,overflow"], "error", 1, True),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (args, verdict, results, flow) in enumerate(cases):
            sarif, junit = os.path.join(tmp, "%d.sarif" % i), os.path.join(tmp, "%d.xml" % i)
            p = subprocess.run([a.tandem] + args + ["--json", "--sarif", sarif, "--junit", junit],
                               capture_output=True, text=True)
            what = " ".join(args)
            try:
                report = json.loads(p.stdout)
                log = json.load(open(sarif))
                tree = ET.parse(junit)
            except (ValueError, OSError, ET.ParseError) as e:
                print("FAIL %s: %s (stderr: %s)" % (what, e, p.stderr.strip()))
                failures += 1
                continue
            problems = [e.message for e in validator.iter_errors(log)]
            run = log["runs"][0]
            res = run.get("results", [])
            if verdict and report["verdict"] != verdict:
                problems.append("verdict %s, expected %s" % (report["verdict"], verdict))
            if len(res) < results:
                problems.append("%d SARIF results, expected at least %d" % (len(res), results))
            if report["verdict"] in ("error", "potential-error") and not res:
                problems.append("an %s verdict without a SARIF result" % report["verdict"])
            if report.get("error") and res and res[0]["ruleId"] != report["error"]["kind"]:
                problems.append("first result %s, report error %s" % (res[0]["ruleId"],
                                                                     report["error"]["kind"]))
            if flow:
                steps = res[0].get("codeFlows", [{}])[0].get("threadFlows", [{}])[0] \
                    .get("locations", []) if res else []
                if len(steps) != len(report["error"]["trace"]):
                    problems.append("code flow of %d steps, trace of %d" % (
                        len(steps), len(report["error"]["trace"])))
            if run["properties"]["verdict"] != report["verdict"]:
                problems.append("SARIF run verdict %s" % run["properties"]["verdict"])
            suite = tree.getroot().find("testsuite")
            cases_ = suite.findall("testcase")
            if int(suite.get("tests")) != len(cases_):
                problems.append("JUnit tests=%s for %d cases" % (suite.get("tests"), len(cases_)))
            failed = sum(1 for c in cases_ if c.find("failure") is not None)
            if int(suite.get("failures")) != failed:
                problems.append("JUnit failures=%s for %d" % (suite.get("failures"), failed))
            if (report["verdict"] in ("error", "potential-error")) != (failed > 0):
                problems.append("JUnit has %d failures for verdict %s" % (failed,
                                                                        report["verdict"]))
            print("%s %s: %d results" % ("FAIL" if problems else "PASS", what, len(res)))
            for m in problems:
                print("    " + m)
            failures += bool(problems)
        # The validator itself rejects what the standard forbids.
        bad = {"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": [
            {"level": "fatal", "message": {"text": "x"}}]}]}
        if validator.is_valid(bad):
            print("FAIL the schema accepts a driver without a name and level 'fatal'")
            failures += 1
    print("%s" % ("check_sarif: %d failed" % failures if failures else "check_sarif: all passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

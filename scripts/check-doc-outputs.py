#!/usr/bin/env python3
"""Re-runs the `$ tandem ...` examples of README.md and docs/*.md and compares their output.

Each fenced block whose first line is `$ tandem ARGS` is one example: the lines after it (up to
the next `$ ` line or the end of the block) are the output the docs show. The command runs from
the top of the repository with TANDEM (default build/tandem) in place of `tandem`. Timings, peak
memory and `...` elisions are not compared. Examples whose files are not in the repository (they
name files the text defines inline, or /tmp) are skipped and listed.

Usage: scripts/check-doc-outputs.py [--tandem PATH] [--shared DIR] [--stable-only] [--update]
                                    [FILE.md ...]
  --update       rewrite the shown outputs with what the commands print now
  --stable-only  skip examples cut by --timeout/--memory-limit (the ctest `docs_outputs` does)
Exit status: 0 when every example matches, 1 otherwise.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Numbers that change from run to run: seconds, MB, rates.
VOLATILE = [
    (re.compile(r"\d+(\.\d+)?(e-?\d+)? s\b"), "<T> s"),
    (re.compile(r'"time_s": [0-9.e-]+'), '"time_s": <T>'),
    (re.compile(r'"explore_s": [0-9.e-]+'), '"explore_s": <T>'),
    (re.compile(r'"peak_rss_mb": [0-9.]+'), '"peak_rss_mb": <M>'),
    (re.compile(r"\d+(\.\d+)? MB\b"), "<M> MB"),
    (re.compile(r"\d+(\.\d+)?(e-?\d+)?s\b"), "<T>s"),
    (re.compile(r"[0-9.]+ states/s"), "<R> states/s"),
    (re.compile(r'"states_per_s": [0-9.]+'), '"states_per_s": <R>'),
]
SHARED_ROOT = os.path.join(os.path.dirname(ROOT), "shared")


def normalise(lines, all_numbers=False):
    out = []
    for line in lines:
        for pat, rep in VOLATILE:
            line = pat.sub(rep, line)
        if all_numbers:  # a run cut by --timeout: how far it got varies
            line = re.sub(r"\d+", "<N>", line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def examples(text):
    """(command, first output line index, end index) for each example in `text`'s lines."""
    lines = text.split("\n")
    i, found = 0, []
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = i + 1
            while k < j:
                if lines[k].startswith("$ tandem "):
                    e = k + 1
                    while e < j and not lines[e].startswith("$ "):
                        e += 1
                    found.append((lines[k][2:], k + 1, e))
                    k = e
                else:
                    k += 1
            i = j + 1
        else:
            i += 1
    return lines, found


def resolve(args):
    """The arguments with bare names of shared conformance files made paths; None if a file is
    missing (the docs define it inline) or the command writes under /tmp."""
    out = []
    conformance = os.path.join(SHARED_ROOT, "conformance")
    for a in args:
        if a.startswith("/tmp/"):
            return None
        if a.startswith("../shared/") and not os.path.exists(os.path.join(ROOT, a)):
            a = os.path.join(SHARED_ROOT, a[len("../shared/"):])
        if re.search(r"\.(tdm|dve)$", a) and not os.path.exists(os.path.join(ROOT, a)):
            if "/" in a or not os.path.exists(os.path.join(conformance, a)):
                return None
            a = os.path.join(conformance, a)
        out.append(a)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tandem", default=os.path.join(ROOT, "build", "tandem"))
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--shared", help="the shared folder (default: ../shared beside the repo)")
    ap.add_argument("--stable-only", action="store_true",
                    help="skip examples cut by --timeout or --memory-limit (machine-dependent)")
    ap.add_argument("files", nargs="*")
    o = ap.parse_args()
    global SHARED_ROOT
    if o.shared:
        SHARED_ROOT = os.path.abspath(o.shared)
    files = o.files or [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
        if f.endswith(".md"))
    failed = skipped = passed = 0
    for path in files:
        text = open(path).read()
        lines, found = examples(text)
        replacements = []
        for cmd, start, end in found:
            args = shlex.split(cmd)
            where = f"{os.path.relpath(path, ROOT)}:{start}"
            args = resolve(args)
            if o.stable_only and args and ("--timeout" in args or "--memory-limit" in args):
                args = None
            if args is None:
                skipped += 1
                print(f"SKIP {where}  {cmd}")
                continue
            shown = lines[start:end]
            try:
                r = subprocess.run([o.tandem] + args[1:], cwd=ROOT, capture_output=True,
                                   text=True, timeout=120)
                got = (r.stderr + r.stdout).split("\n")
            except subprocess.TimeoutExpired:
                got = ["(timed out)"]
            cut = "--timeout" in args
            if any(l.strip() == "..." for l in shown):
                # An elided example: every shown line must appear, in order.
                it = iter(normalise(got, cut))
                ok = all(any(g == s for g in it) for s in normalise(shown, cut)
                         if s.strip() != "...")
            else:
                ok = normalise(got, cut) == normalise(shown, cut)
            if ok:
                passed += 1
                continue
            failed += 1
            print(f"DIFF {where}  {cmd}")
            for l in normalise(shown):
                print(f"  - {l}")
            for l in normalise(got):
                print(f"  + {l}")
            if o.update and not any(l.strip() == "..." for l in shown):
                while got and not got[-1].strip():
                    got.pop()
                replacements.append((start, end, got))
        if replacements:
            for start, end, got in sorted(replacements, reverse=True):
                lines[start:end] = got
            open(path, "w").write("\n".join(lines))
    print(f"{passed} match, {failed} differ, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

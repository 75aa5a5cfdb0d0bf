#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (clang, ASan + UBSan, in build-fuzz/) and runs each for
# a while on a corpus seeded from the repository and ../shared (docs/testing.md).
#
#   scripts/fuzz.sh [--seconds N] [--only NAME] [--build DIR] [--jobs J]
#
#   --seconds N   run time of each fuzzer (default: $FUZZ_SECONDS, else 60)
#   --only NAME   one fuzzer: tdm_fuzzer, dve_fuzzer, expr_fuzzer or replay_fuzzer
#   --build DIR   the build tree (default build-fuzz); its corpus/ grows from run to run
#   --jobs J      ninja's parallelism for the build (default: the number of cores)
#
# Crashes, hangs (10 s per input), leaks and sanitizer reports end the fuzzer; the input is kept
# in DIR/artifacts/ and the script exits 1. A table of executions, corpus and coverage is last.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
only=""
build=build-fuzz
jobs=$(nproc 2>/dev/null || echo 2)
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds must be a number, not '$seconds'" >&2; exit 2; }
cd "$here"
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (apt-get install clang)" >&2; exit 2; }

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTANDEM_FUZZ=ON >/dev/null
fi
ninja -C "$build" -j "$jobs" fuzzers | tail -1

shared="$here/../shared"
seeds="$build/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"/{tdm_fuzzer,dve_fuzzer,expr_fuzzer,replay_fuzzer,horn_fuzzer}
# .tdm: every model the project and the shared suite hold.
find "$shared/conformance" "$shared/conformance-next" tests/conformance/cases tests/regress \
  examples models bench/models tests/golden -name '*.tdm' 2>/dev/null |
  while read -r f; do cp "$f" "$seeds/tdm_fuzzer/$(echo "$f" | tr '/' '_')"; done
# DVE: the BEEM instances (each family once is enough to seed; the fuzzer finds the rest).
find "$shared/external/beem/dve" -name '*.1.dve' 2>/dev/null | while read -r f; do
  cp "$f" "$seeds/dve_fuzzer/"
done
# Horn clauses: the front end's tests (the unsupported and malformed ones too) and CHC-COMP's
# samples.
find tests/chc "$shared/external/chc/lia-lin-samples" -name '*.smt2' 2>/dev/null |
  while read -r f; do cp "$f" "$seeds/horn_fuzzer/$(echo "$f" | tr '/' '_')"; done
# Expressions: the invariants and predicates of the .tdm files and the --invariant arguments
# of the RUN lines and BEEM properties.
python3 - "$seeds/tdm_fuzzer" "$seeds/expr_fuzzer" <<'EOF'
import os, re, sys
src, out = sys.argv[1], sys.argv[2]
exprs = set()
for name in os.listdir(src):
    text = open(os.path.join(src, name), errors="replace").read()
    exprs.update(m.strip() for m in re.findall(r"^\s*(?:invariant|predicate)\s+\w+\s*:\s*(.*);", text, re.M))
    exprs.update(m for m in re.findall(r"--invariant\s+[\"']([^\"']+)[\"']", text))
exprs.update(["P[0]@CS && P[1]@CS", "turn == 0 || flag[1]", "count <= 1", "w + 1 < w",
              "a[turn] % 2 == 0", "P[1].v >= 0", "not (P_0.CS and P_1.CS)", "t >= -3 && pos[0] <= 1"])
for i, e in enumerate(sorted(exprs)):
    with open(os.path.join(out, "e%04d" % i), "w") as f:
        f.write(e)
EOF
# Replay reports: saved reports of the harness's two models (fuzz/replay_seeds/) and the
# malformed ones of ../shared/reported/replay/.
cp fuzz/replay_seeds/*.json "$seeds/replay_fuzzer/"
cp "$shared"/reported/replay/*.json "$seeds/replay_fuzzer/" 2>/dev/null || true

status=0
rows=()
for f in tdm_fuzzer dve_fuzzer expr_fuzzer replay_fuzzer horn_fuzzer; do
  [[ -n "$only" && "$only" != "$f" ]] && continue
  corpus="$build/corpus/$f" arts="$build/artifacts"
  mkdir -p "$corpus" "$arts"
  dict=""
  case "$f" in
    tdm_fuzzer|expr_fuzzer) dict="-dict=fuzz/tdm.dict" ;;
    dve_fuzzer) dict="-dict=fuzz/dve.dict" ;;
    replay_fuzzer) dict="-dict=fuzz/replay.dict" ;;
  esac
  log="$build/$f.log"
  echo "fuzz.sh: $f for $seconds s (log: $log)"
  rc=0
  # replay_fuzzer links cvc5, whose libcln keeps 26 bytes until exit (scripts/lsan.supp).
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$here/scripts/lsan.supp":print_suppressions=0 \
    "$build/fuzz/$f" "$corpus" "$seeds/$f" $dict -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 -artifact_prefix="$arts/$f-" \
    >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(find "$corpus" -type f | wc -l)
  verdict=ok
  if ((rc != 0)); then
    verdict="FAILED (exit $rc; $(grep -m1 -E 'ERROR|runtime error|Timeout|out-of-memory|deadly signal' "$log" | cut -c1-100))"
    status=1
    tail -40 "$log" >&2
  fi
  rows+=("$(printf '%-12s %8ss %12s %8s %8s %8s  %s' "$f" "$seconds" "${execs:-?}" "$corp" "${cov:-?}" "${ft:-?}" "$verdict")")
done
printf '%-12s %9s %12s %8s %8s %8s  %s\n' fuzzer time execs corpus cov ft result
printf '%s\n' "${rows[@]}"
exit $status

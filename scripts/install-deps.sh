#!/usr/bin/env bash
# Installs the Debian packages Tandem needs to build, test and run its anchors (Debian 12).
# Idempotent: when every package is installed it only asks dpkg and exits (well under a second);
# `apt-get update` runs only when something is missing. apt's output goes to a log file
# ($TANDEM_DEPS_LOG, default /tmp/tandem-install-deps.log), whose tail is shown on failure.
#
#   scripts/install-deps.sh           install what is missing
#   scripts/install-deps.sh --check   only report; exit 1 if something is missing
#   scripts/install-deps.sh --list    print the package names, one a line
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config g++  # toolchain
  libz3-dev z3 libcvc5-dev cvc5                     # SMT back ends (and their command lines)
  libboost-dev libboost-program-options-dev         # Boost headers, options parsing
  doctest-dev nlohmann-json3-dev libfmt-dev         # unit tests, JSON reports, formatting
  libxxhash-dev libgmp-dev                          # state hashing, big numbers
  clang-format                                      # format check
  clang libclang-rt-14-dev                          # libFuzzer harnesses (make fuzz)
  spin graphviz python3 python3-jsonschema         # anchors, DOT rendering, tools, SARIF check
  libopenmpi-dev openmpi-bin                        # check --distributed (mpirun)
)

say() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: error: %s\n' "$*" >&2; exit 1; }

mode=install
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  --list) printf '%s\n' "${PACKAGES[@]}"; exit 0 ;;
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (try --help)" ;;
esac

command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script needs Debian (12) or a derivative"

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == installed ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  say "all ${#PACKAGES[@]} packages present"
  exit 0
fi
say "missing ${#missing[@]} package(s): ${missing[*]}"
[[ "$mode" == check ]] && exit 1

# Root runs apt-get directly; anyone else goes through sudo when it is there.
apt_cmd=(env DEBIAN_FRONTEND=noninteractive apt-get)
if ((EUID != 0)); then
  if command -v sudo >/dev/null 2>&1; then
    apt_cmd=(sudo DEBIAN_FRONTEND=noninteractive apt-get)
  else
    say "not root and no sudo; as root, run:"
    printf '  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends %s\n' \
      "${missing[*]}"
    exit 1
  fi
fi
command -v apt-get >/dev/null 2>&1 || die "apt-get not found"

log="${TANDEM_DEPS_LOG:-${TMPDIR:-/tmp}/tandem-install-deps.log}"
{ : >"$log"; } 2>/dev/null || log=$(mktemp "${TMPDIR:-/tmp}/tandem-install-deps.XXXXXX.log")
apt_opts=(-q -y -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300)

run() {  # run DESCRIPTION COMMAND...: one line on the terminal, the rest in the log
  local what=$1 start=$SECONDS
  shift
  printf '\n==> %s\n' "$*" >>"$log"
  if "$@" </dev/null >>"$log" 2>&1; then
    say "$what: ok ($((SECONDS - start))s)"
  else
    say "$what: FAILED; last lines of $log:" >&2
    tail -n 25 "$log" >&2
    exit 1
  fi
}

run "apt-get update" "${apt_cmd[@]}" "${apt_opts[@]}" update
run "apt-get install ${missing[*]}" \
  "${apt_cmd[@]}" "${apt_opts[@]}" install --no-install-recommends "${missing[@]}"

still=()
for pkg in "${missing[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == installed ]] || still+=("$pkg")
done
((${#still[@]} == 0)) || die "still not installed after apt-get: ${still[*]} (see $log)"
say "all ${#PACKAGES[@]} packages present (log: $log)"

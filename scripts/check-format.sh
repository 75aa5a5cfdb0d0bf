#!/usr/bin/env bash
# Checks the project's C++ files (*.h, *.cpp under mc/ engine/ report/ abstraction/ fabricate/ chc/ cover/ testgen/ tests/ bench/)
# against .clang-format, printing each file that differs; exit 1 if any does.
#
#   scripts/check-format.sh          check (clang-format --dry-run -Werror)
#   scripts/check-format.sh --fix    reformat the files in place (clang-format -i)
#   scripts/check-format.sh --list   print the files that are checked
#
# $CLANG_FORMAT picks the binary (default: clang-format).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
DIRS=(mc engine report abstraction fabricate chc cover testgen tests bench)

mode=check
case "${1:-}" in
  "") ;;
  --fix) mode=fix ;;
  --list) mode=list ;;
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "check-format: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

dirs=()
for d in "${DIRS[@]}"; do [[ -d "$d" ]] && dirs+=("$d"); done
files=()
if ((${#dirs[@]})); then
  # Build trees (build/, build-asan/, ...) and hidden folders are never the project's sources.
  mapfile -d '' -t files < <(find "${dirs[@]}" \( -name 'build' -o -name 'build-*' -o -name '.*' \) \
    -prune -o -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)
fi

if [[ "$mode" == list ]]; then
  ((${#files[@]} == 0)) || printf '%s\n' "${files[@]}"
  exit 0
fi
if ((${#files[@]} == 0)); then
  echo "check-format: no C++ files found"
  exit 0
fi
command -v "$CLANG_FORMAT" >/dev/null 2>&1 ||
  { echo "check-format: $CLANG_FORMAT not found (make deps installs clang-format)" >&2; exit 2; }

if [[ "$mode" == fix ]]; then
  "$CLANG_FORMAT" -i --style=file "${files[@]}"
  echo "check-format: formatted ${#files[@]} file(s)"
  exit 0
fi

bad=()
for f in "${files[@]}"; do
  if ! out=$("$CLANG_FORMAT" --dry-run -Werror --style=file "$f" 2>&1); then
    # A violation is reported per line; anything else (bad .clang-format, unreadable file) is
    # shown as is.
    grep -q 'clang-format-violations' <<<"$out" || printf '%s\n' "$out" >&2
    bad+=("$f")
  fi
done

if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} of ${#files[@]} file(s) differ from .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "check-format: run 'make format' to fix them (see the diff with: $CLANG_FORMAT --style=file FILE | diff FILE -)"
  exit 1
fi
echo "check-format: ${#files[@]} file(s) ok"

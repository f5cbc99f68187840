#!/usr/bin/env bash
# suites.sh OUT FILE...: writes OUT, the C file that registers the unit binary's Check suites
# (make writes build/tests/suites.c with it; grader/tests/tests.mk).
#
# FILE... are the test files make found by wildcard (grader/tests/test_*.c, tests/test_*.c,
# assignments/*/tests/test_*.c). A suite is a function defined at the start of a line as
#   Suite *NAME_suite(void) {
# OUT declares each and lists them, in the order of FILE..., in `unit_suites` (NULL-ended),
# which grader/tests/unit_main.c runs. A test file of an assignment must define exactly
# one suite (the contract of assignments/NN/tests/); a file elsewhere may define none (its
# cases join a suite of another file, as tests/test_teaching.c gathers its subjects). Two
# files defining one name is an error naming both. OUT is rewritten only when its text
# changes, so that make relinks only then.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: suites.sh OUT FILE..." >&2; exit 2; }
out=$1
shift

decls=""
list=""
declare -A where
for f in "$@"; do
  [ -f "$f" ] || { echo "suites.sh: $f: no such test file" >&2; exit 2; }
  names=$(sed -n 's/^Suite \*\([A-Za-z_][A-Za-z0-9_]*_suite\)(void) *{.*/\1/p' "$f")
  count=$(printf '%s' "$names" | grep -c . || true)
  case $f in
    assignments/*)
      if [ "$count" -ne 1 ]; then
        echo "$f:1: an assignment's test file defines exactly one 'Suite *NAME_suite(void) {' at the start of a line; it defines $count" >&2
        exit 1
      fi
      ;;
  esac
  for n in $names; do
    if [ -n "${where[$n]+x}" ]; then
      line=$(grep -n "^Suite \*$n(void)" "$f" | head -1 | cut -d: -f1)
      echo "$f:$line: suite $n is already defined in ${where[$n]}: name it after the file" >&2
      exit 1
    fi
    where[$n]=$f
    decls+="Suite *$n(void); /* $f */"$'\n'
    list+="    $n,"$'\n'
  done
done

tmp=$out.tmp$$
mkdir -p "$(dirname "$out")"
{
  echo "/* Written by grader/tests/suites.sh from the test files make found: do not edit. */"
  echo "#include <stddef.h>"
  echo
  echo "#include \"tests.h\""
  echo
  printf '%s' "$decls"
  echo
  echo "Suite *(*const unit_suites[])(void) = {"
  printf '%s' "$list"
  echo "    NULL,"
  echo "};"
} > "$tmp"
if cmp -s "$tmp" "$out"; then rm -f "$tmp"; else mv -f "$tmp" "$out"; fi

#!/usr/bin/env bash
# template-assignment.sh [--break case|runner] [--keep]: adding an assignment, shown (issue 41).
#
# make test runs it. It copies the course (the files git lists, as they are in the working
# tree) into a scratch folder under /tmp, adds the template assignment of
# tests/fixtures/template/ (assignments/99-reduce, starter/99-reduce, solutions/99-reduce:
# a block sum; docs/instructor-guide.md, "Adding an assignment", walks through its files)
# and, in that copy, with its own Makefile and nothing of this checkout's build/:
#   1. builds the grader, the judge and spec-check (ARCH=sm_90, or $ARCH);
#   2. spec-check 99-reduce: the template's spec is in the judge's table, grade.conf's
#      variant and cases are rows of it, its cases open and check right (on the CPU);
#   3. builds the starter's and the solution's runners (grade --build-only: the student's
#      file compiled alone, inspected, the runner linked, runner.ptx);
#   4. grades both with no GPU: exit 3; results.json and results.tsv score the ptx checks
#      (the starter's missing barrier fails ptx-barrier, the solution passes it; both pass
#      ptx-no-atomics) and mark the three GPU checks "ungraded: no GPU"; and grade --expect
#      agrees (the starter earns what grade.conf's expect_starter says, the solution all);
#   5. no file outside the three folders was changed or added (build/ and grade-results/
#      aside): the course took a sixth assignment without an edit;
#   6. the test can fail: the same copy with the spec's case n257 renamed makes spec-check
#      fail, naming grade.conf's line; with a runner that does not compile, the build fails.
# --break case|runner breaks the template that way before step 1, to see the whole script
# fail where it should (exit 1). --keep keeps the scratch folder. Prints one line per step;
# exits 0 when all passed, 1 when a step failed, 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TEMPLATE=tests/fixtures/template
NAME=99-reduce
ARCH=${ARCH:-sm_90}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
BREAK=""
KEEP=0
while [ $# -gt 0 ]; do
  case $1 in
    --break)
      [ $# -ge 2 ] || { echo "template-assignment: --break needs case or runner" >&2; exit 2; }
      BREAK=$2
      shift
      ;;
    --keep) KEEP=1 ;;
    *) echo "template-assignment: unknown argument '$1' (--break case|runner, --keep)" >&2; exit 2 ;;
  esac
  shift
done
case $BREAK in "" | case | runner) ;; *) echo "template-assignment: --break $BREAK: want case or runner" >&2; exit 2 ;; esac
for d in assignments starter solutions; do
  [ -d "$TEMPLATE/$d/$NAME" ] || { echo "template-assignment: $TEMPLATE/$d/$NAME is missing" >&2; exit 2; }
done

S=$(mktemp -d /tmp/scanlab-template-XXXXXX)
if [ $KEEP = 0 ]; then trap 'rm -rf "$S" "$S.files" "$S.present" "$S.log"' EXIT; else echo "template-assignment: the scratch copy is $S"; fi
LOG=$S.log
fail() {
  echo "FAIL  $*"
  [ ! -s "$LOG" ] || sed 's/^/      /' "$LOG" | tail -20
  exit 1
}
ok() { echo "ok    $*"; }

# break_template WHAT: the template in the scratch copy, broken one way.
break_template() {
  case $1 in
    case) # the spec's case n257 renamed: grade.conf still names n257
      sed -i 's/{"n257", 257,/{"n258", 257,/' "$S/assignments/$NAME/judge/spec.c" &&
        grep -q '"n258"' "$S/assignments/$NAME/judge/spec.c" ;;
    runner) # a runner that does not compile
      printf '\nthis line is not C++;\n' >> "$S/assignments/$NAME/runner/runner.cu" ;;
  esac
}

# The course, as git lists it (tracked files as they are in the working tree, and new files
# not ignored), without the template's fixture; then the template's three folders.
git ls-files -z --cached --others --exclude-standard | grep -zv "^$TEMPLATE/" > "$S.files" ||
  { echo "template-assignment: git ls-files failed (a git checkout is needed)" >&2; exit 2; }
(while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done < "$S.files") > "$S.present"
xargs -0 cp --parents -p -t "$S" < "$S.present" || fail "copying the course into $S"
for d in assignments starter solutions; do
  [ ! -e "$S/$d/$NAME" ] || fail "the course already has $d/$NAME"
  cp -rp "$TEMPLATE/$d/$NAME" "$S/$d/$NAME"
done
ok "course copied into $S ($(tr -cd '\0' < "$S.present" | wc -c) files) with $TEMPLATE's three folders"
[ -z "$BREAK" ] || { break_template "$BREAK" || fail "--break $BREAK did not apply"; echo "NOTE  the template broken: --break $BREAK"; }

# 1. The tools, built by the copy's own Makefile (what `make tools` and the grader's build need).
TOOLS=(build/grader/grade build/grader/judge build/tools/gpuinfo build/tests/spec-check build/runner/librunner.a build/runner/sandbox.o
  build/runner/guard.o build/lib/libcourse.a build/.gencode)
make -C "$S" -j2 "ARCH=$ARCH" "${TOOLS[@]}" > "$LOG" 2>&1 || fail "1. make ${TOOLS[*]} in the copy"
ok "1. grader, judge and spec-check built by the copy's Makefile (ARCH=$ARCH)"

# 2. The spec, on the CPU.
(cd "$S" && build/tests/spec-check "$NAME") > "$LOG" 2>&1 || fail "2. spec-check $NAME"
(cd "$S" && build/grader/judge --assignment "$NAME" --list) > "$LOG" 2>&1 && grep -q "^case n2^24 " "$LOG" ||
  fail "2. judge --assignment $NAME --list does not list the template's cases"
ok "2. spec-check $NAME: the judge has its spec; grade.conf's names are rows of it; its cases check right"

# 3. The runners.
for src in starter solutions; do
  (cd "$S" && build/grader/grade --build-only --src "$src" --nvcc "$NVCC" --gencode "-arch=$ARCH" "$NAME") > "$LOG" 2>&1 ||
    fail "3. grade --build-only --src $src $NAME"
  for f in runner runner.ptx student.o; do [ -s "$S/build/$src/$NAME/$f" ] || fail "3. build/$src/$NAME/$f is missing"; done
done
ok "3. starter and solution built: compiled alone, inspected, runner linked, runner.ptx"

# 4. Grading with no GPU: the ptx checks scored, the others ungraded.
# verdict SRC CHECK: the check's verdict and reason in SRC's results.tsv, tab-separated.
verdict() { awk -F'\t' -v c="$2" '$2 == c {print $4 "\t" $NF}' "$S/results-$1/latest/results.tsv"; }
for src in starter solutions; do
  (cd "$S" && build/grader/grade --src "$src" --results "results-$src" "$NAME") > "$LOG" 2>&1
  rc=$?
  [ $rc -eq 3 ] || fail "4. grade --src $src $NAME exits $rc, want 3 (no CUDA device: the checks that need one ungraded)"
  json=$S/results-$src/latest/results.json
  [ -s "$json" ] || fail "4. $src: no results.json"
  for c in correct-sum memcheck-sum perf-sum; do
    [ "$(verdict "$src" "$c")" = $'ungraded\tungraded: no GPU' ] || fail "4. $src: $c is '$(verdict "$src" "$c")', want ungraded: no GPU"
  done
  [ "$(grep -c '"reason": "ungraded: no GPU"' "$json")" -eq 3 ] || fail "4. $src: results.json does not mark exactly 3 checks ungraded: no GPU"
  [ "$(verdict "$src" ptx-no-atomics | cut -f1)" = pass ] || fail "4. $src: ptx-no-atomics is '$(verdict "$src" ptx-no-atomics)', want pass"
done
[ "$(verdict starter ptx-barrier | cut -f1)" = fail ] || fail "4. starter: ptx-barrier is '$(verdict starter ptx-barrier)', want fail (its tree has no barrier)"
[ "$(verdict solutions ptx-barrier | cut -f1)" = pass ] || fail "4. solutions: ptx-barrier is '$(verdict solutions ptx-barrier)', want pass"
# the whole run's score: the first "score" of results.json
score() { grep -m1 -o '"score": [0-9.]*' "$S/results-$1/latest/results.json" | grep -o '[0-9.]*$'; }
[ "$(score solutions)" = 20 ] && [ "$(score starter)" = 10 ] ||
  fail "4. the scores in results.json are not 20 (solution) and 10 (starter) of the 20 the ptx checks give"
# --expect: every check graded here earns what grade.conf's expect_starter says (solutions: full marks).
for src in starter solutions; do
  (cd "$S" && build/grader/grade --no-build --expect --src "$src" --results "results-$src-expect" "$NAME") > "$LOG" 2>&1 ||
    fail "4. grade --expect --src $src $NAME: the verdicts differ from what grade.conf expects"
done
ok "4. graded with no GPU (exit 3): ptx-barrier fails the starter and passes the solution, ptx-no-atomics passes both, 3 checks ungraded: no GPU"

# 5. Nothing outside the three folders changed: every listed file is as it is here, and
# every other file of the copy is under build/, results-*/, or the three folders.
changed=$(while IFS= read -r -d '' f; do cmp -s "$ROOT/$f" "$S/$f" || echo "$f"; done < "$S.present")
[ -z "$changed" ] || { echo "$changed" > "$LOG"; fail "5. files outside the three folders changed in the copy"; }
added=$( (cd "$S" && find . -type f ! -path './build/*' ! -path './results-*' ! -path "./assignments/$NAME/*" \
  ! -path "./starter/$NAME/*" ! -path "./solutions/$NAME/*" -printf '%P\n') | sort |
  comm -23 - <(tr '\0' '\n' < "$S.present" | sort))
[ -z "$added" ] || { echo "$added" > "$LOG"; fail "5. files appeared outside the three folders"; }
ok "5. no file outside assignments/$NAME, starter/$NAME and solutions/$NAME was changed or added"

# 6. The test fails when the template is broken (skipped under --break: it is broken already).
if [ -z "$BREAK" ]; then
  break_template case || fail "6. could not break the spec's case name"
  make -C "$S" "ARCH=$ARCH" build/tests/spec-check > "$LOG" 2>&1 || fail "6. spec-check did not rebuild"
  (cd "$S" && build/tests/spec-check "$NAME") > "$LOG" 2>&1 && fail "6. spec-check passed a spec without grade.conf's case n257"
  grep -q "grade.conf:[0-9]*: \[correct-sum\]: case 'n257' is not a case of the spec" "$LOG" || fail "6. spec-check failed without naming the case"
  break_template runner
  (cd "$S" && build/grader/grade --build-only --src solutions --nvcc "$NVCC" --gencode "-arch=$ARCH" "$NAME") > "$LOG" 2>&1 &&
    fail "6. a runner that does not compile was built"
  grep -q 'does not compile' "$LOG" || fail "6. the failed build does not say 'does not compile'"
  ok "6. a spec without grade.conf's case fails spec-check (grade.conf:line named); a runner that does not compile fails the build"
fi
rm -f "$LOG" "$S.files" "$S.present"
echo "template-assignment: passed"

#!/usr/bin/env bash
# build-hostile.sh [NN-name]: the student's build against hostile folders, with the real nvcc,
# on a copy of the course as a student has it (no solutions/), through `make grade A=NN`
# without a GPU and the grader's build-only mode, for one assignment read from the folders:
# the first assignments/NN-name/grade.conf with a check that needs no GPU and fails the
# starter (kind = ptx, expect_starter = fail; PTX below), or NN-name's, its student file
# STUDENT.cu (its grade.conf's student). Each case asserts what results.tsv says (every check's reason) and
# what is on disk:
#   1. the student's file deleted after a build: "missing file", no runner left;
#   2. the solution put back with an old time (cp -p, touch -d): rebuilt, graded as it
#      (PTX passes, no check fails);
#   3. a file name with a space: refused with one line naming it (not "No rule to make target");
#   4. file names that are make and shell code ($(shell id >x).txt, `id>x`.cu): nothing
#      runs (no file x), under make help, make grade and grade --build-only;
#   5. a helper .cu and a .cuh the student's file #includes: the named file is compiled;
#   6. a decoy: STUDENT.cu uses CUB beside a clean a.cu: refused (the named file is the
#      one built and inspected);
#   7. the student's file a symbolic link: refused.
# (grader/tests/faults_build.c covers every outcome with a fake nvcc.) Needs nvcc,
# binutils and the build of make build/grader/grade build/runner/librunner.a. Exit 1 on a failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=${ARCH:-sm_90}
W=$(mktemp -d /tmp/scanlab-build-hostile-XXXXXX)
trap 'rm -rf "$W"' EXIT
C=$W/course
passed=0 failed=0
ok() { echo "PASS  $*"; passed=$((passed + 1)); }
bad() { echo "FAIL  $*"; failed=$((failed + 1)); }

# ptx_fails_starter CONF: the first section of CONF with kind = ptx and expect_starter = fail.
ptx_fails_starter() {
  awk 'function done() { if (ptx && fails && !found) { print sec; found = 1 } }
    /^\[/ { done(); sec = $0; gsub(/^\[|\].*$/, "", sec); ptx = fails = 0; next }
    /^kind *= *ptx *$/ { ptx = 1 }
    /^expect_starter *= *fail *$/ { fails = 1 }
    END { done() }' "$1"
}
A="" PTX=""
for conf in "$ROOT"/assignments/${1:-*}/grade.conf; do
  [ -f "$conf" ] || { echo "build-hostile: no $conf" >&2; exit 2; }
  PTX=$(ptx_fails_starter "$conf")
  [ -z "$PTX" ] || { A=$(basename "$(dirname "$conf")"); break; }
done
[ -n "$A" ] || { echo "build-hostile: no assignments/${1:-*}/grade.conf has a check with kind = ptx and expect_starter = fail" >&2; exit 1; }
NN=${A%%-*}
STUDENT=$(sed -n 's/^student *= *//p' "$ROOT/assignments/$A/grade.conf")
[ -n "$STUDENT" ] && [ -f "$ROOT/solutions/$A/$STUDENT" ] && [ -f "$ROOT/starter/$A/$STUDENT" ] ||
  { echo "build-hostile: assignments/$A/grade.conf: student '$STUDENT' is not a file of starter/$A and solutions/$A" >&2; exit 1; }
S=$C/starter/$A
echo "build-hostile: $A ($STUDENT; $PTX needs no GPU and fails the starter)"

mkdir -p "$C/build"
cp -a "$ROOT/Makefile" "$ROOT/mk" "$ROOT/tools" "$ROOT/grader" "$ROOT/assignments" "$ROOT/starter" "$C/"
rm -rf "$C"/assignments/*/ref
for d in lib assignments protocol runner grader tools judge .gencode inspect-libs; do
  [ -e "$ROOT/build/$d" ] && cp -a "$ROOT/build/$d" "$C/build/"
done
cp "$ROOT/solutions/$A/$STUDENT" "$W/solution.cu"
cp "$S/$STUDENT" "$W/starter.cu"

# grade_nn NAME: make grade A=NN without a GPU in the copy; its output in $W/NAME.log.
grade_nn() {
  (cd "$C" && SCANLAB_NO_GPU=1 NO_COLOR=1 make grade A="$NN" ARCH="$ARCH" < /dev/null > "$W/$1.log" 2>&1)
  return 0
}
# reason CHECK: that check's reason in the latest results.tsv.
reason() { awk -F'\t' -v c="$1" '$2 == c { print $10 }' "$C/grade-results/latest/results.tsv" 2> /dev/null; }
verdict() { awk -F'\t' -v c="$1" '$2 == c { print $4 }' "$C/grade-results/latest/results.tsv" 2> /dev/null; }
# every_check TEXT: every check of the assignment fails and its reason holds TEXT.
# none_fails: no check fails (those that need a GPU are ungraded) and PTX passes.
none_fails() {
  [ "$(verdict "$PTX")" = pass ] &&
    awk -F'\t' 'NR > 1 && $4 == "fail" { n++ } END { exit (n > 0) }' "$C/grade-results/latest/results.tsv" 2> /dev/null
}
# first_fail: the first failing check and its reason, for a message.
first_fail() { awk -F'\t' 'NR > 1 && $4 == "fail" { print $2 ": " $10; exit }' "$C/grade-results/latest/results.tsv" 2> /dev/null; }
every_check() {
  local n
  n=$(awk -F'\t' -v t="$1" 'NR > 1 && !($4 == "fail" && index($10, t)) { n++ } END { print n + 0 }' "$C/grade-results/latest/results.tsv" 2> /dev/null)
  [ -s "$C/grade-results/latest/results.tsv" ] && [ "$n" = 0 ]
}
no_x() { [ -z "$(find "$W" -name x -print -quit)" ]; }

grade_nn baseline
if [ "$(verdict "$PTX")" = fail ] && [ -x "$C/build/starter/$A/runner" ]; then ok "the starter builds and its $PTX fails ($(reason "$PTX"))"
else bad "baseline: the starter's build or grading failed: $(tail -3 "$W/baseline.log")"; fi

# 1. deleted after a build
rm "$S/$STUDENT"
grade_nn deleted
if every_check "missing file $STUDENT" && [ ! -e "$C/build/starter/$A/runner" ] && [ ! -e "$C/build/starter/$A/runner.ptx" ]; then
  ok "deleted: every check fails with '$(reason "$PTX")', and no runner or PTX of the earlier build is left"
else bad "deleted: $PTX is $(verdict "$PTX"): '$(reason "$PTX")'; runner left: $(ls "$C/build/starter/$A" 2> /dev/null | tr '\n' ' ')"; fi

# 2. the solution back (its whole folder: the student's file may include others) with a time older than the build
cp -p "$ROOT/solutions/$A/"* "$S/"
touch -d '2001-01-01' "$S"/*
grade_nn restored
if none_fails; then ok "restored with an old time: rebuilt and graded as the new content ($PTX: $(reason "$PTX"))"
else bad "restored with an old time: not graded as the solution: $PTX is $(verdict "$PTX") ('$(reason "$PTX")'); first failing check: $(first_fail)"; fi

# 3. a file name with a space
echo "my notes" > "$S/notes 1.txt"
grade_nn space
if every_check "refused: starter/$A/notes 1.txt: a file name may hold only"; then ok "a name with a space: '$(reason "$PTX")'"
else bad "a name with a space: $PTX is $(verdict "$PTX"): '$(reason "$PTX")' ($(grep -m1 'No rule' "$W/space.log"))"; fi
rm "$S/notes 1.txt"

# 4. names that are make and shell code
touch "$S/\$(shell id >x).txt" "$S/\`id>x\`.cu"
(cd "$C" && make help > "$W/help.log" 2>&1)
no_x && ok "injection names: make help runs nothing" || bad "injection names: make help made a file x: $(find "$W" -name x)"
grade_nn injection
if no_x && every_check "refused: starter/$A/\$(shell id >x).txt: a file name may hold only"; then ok "injection names: make grade runs nothing and says '$(reason "$PTX")'"
else bad "injection names: x: $(find "$W" -name x | head -1); $PTX '$(reason "$PTX")'"; fi
(cd "$C" && build/grader/grade --build-only --dir "starter/$A" --out "$W/evil-out" "$NN" > "$W/build-only.log" 2>&1)
rc=$?
if [ $rc -eq 1 ] && no_x && grep -qF "build starter/$A: refused: starter/$A/\$(shell id >x).txt" "$W/build-only.log"; then
  ok "injection names: grade --build-only runs nothing and refuses: $(grep -m1 '^build ' "$W/build-only.log")"
else bad "injection names: grade --build-only exit $rc: $(head -3 "$W/build-only.log")"; fi
rm -f "$S/\$(shell id >x).txt" "$S/\`id>x\`.cu"

# 5. a helper .cu and a .cuh that the student's file includes
{ echo '#define STUDENT_FILE_CU 1'; echo '#include "a_helpers.cu"'; cat "$W/solution.cu"; } > "$S/$STUDENT"
printf '#ifndef STUDENT_FILE_CU\n#error "a_helpers.cu is included by %s, never compiled alone"\n#endif\n#include "helpers.cuh"\n' "$STUDENT" > "$S/a_helpers.cu"
printf '// a header of the student'"'"'s own\nstatic __device__ __forceinline__ int own_helper(int x) { return x; }\n' > "$S/helpers.cuh"
grade_nn helpers
if none_fails; then ok "a helper .cu and .cuh included by $STUDENT: built and graded ($PTX: $(reason "$PTX"))"
else bad "helpers: not graded as the solution: $PTX is $(verdict "$PTX") ('$(reason "$PTX")'); first failing check: $(first_fail)"; fi
rm "$S/a_helpers.cu" "$S/helpers.cuh"

# 6. the decoy: CUB in the student's file, a clean a.cu beside it
cp "$W/starter.cu" "$S/a.cu"
{ echo '#include <cub/cub.cuh>'; cat "$W/starter.cu"; } > "$S/$STUDENT"
grade_nn decoy
if every_check "refused: $STUDENT uses CUB"; then ok "decoy: '$(reason "$PTX")'"
else bad "decoy: $PTX is $(verdict "$PTX"): '$(reason "$PTX")'"; fi
rm "$S/a.cu"

# 7. the student's file a symbolic link (to the solution)
rm "$S/$STUDENT"
ln -s "$W/solution.cu" "$S/$STUDENT"
grade_nn symlink
if every_check "refused: starter/$A/$STUDENT is a symbolic link"; then ok "a symbolic link: '$(reason "$PTX")'"
else bad "a symbolic link: $PTX is $(verdict "$PTX"): '$(reason "$PTX")'"; fi

echo "build-hostile: $passed passed, $failed failed"
[ $failed -eq 0 ]

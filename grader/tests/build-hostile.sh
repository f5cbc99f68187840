#!/usr/bin/env bash
# build-hostile.sh: the student's build against hostile folders, with the real nvcc,
# on a copy of the course as a student has it (no solutions/), through `make grade A=01`
# without a GPU and the grader's build-only mode. Each case asserts what results.tsv
# says (every check's reason) and what is on disk:
#   1. the student's file deleted after a build: "missing file", no runner left;
#   2. the solution put back with an old time (cp -p, touch -d): rebuilt, graded as it;
#   3. a file name with a space: refused with one line naming it (not "No rule to make target");
#   4. file names that are make and shell code ($(shell id >x).txt, `id>x`.cu): nothing
#      runs (no file x), under make help, make grade and grade --build-only;
#   5. a helper .cu and a .cuh the student's file #includes: the named file is compiled;
#   6. a decoy: warp_scan.cu uses CUB beside a clean a.cu: refused (the file the runner
#      includes is the one inspected);
#   7. the student's file a symbolic link: refused.
# (grader/tests/faults_build.c covers every outcome with a fake nvcc.) Needs nvcc,
# binutils and the build of make build/grader/grade build/runner/librunner.a. Exit 1 on a failure.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=${ARCH:-sm_90}
W=$(mktemp -d /tmp/scanlab-build-hostile-XXXXXX)
trap 'rm -rf "$W"' EXIT
C=$W/course A=01-warp-scan
S=$C/starter/$A
passed=0 failed=0
ok() { echo "PASS  $*"; passed=$((passed + 1)); }
bad() { echo "FAIL  $*"; failed=$((failed + 1)); }

mkdir -p "$C/build"
cp -a "$ROOT/Makefile" "$ROOT/mk" "$ROOT/tools" "$ROOT/grader" "$ROOT/assignments" "$ROOT/starter" "$C/"
rm -rf "$C"/assignments/*/ref
for d in lib assignments protocol runner grader tools judge .gencode inspect-libs; do
  [ -e "$ROOT/build/$d" ] && cp -a "$ROOT/build/$d" "$C/build/"
done
cp "$ROOT/solutions/$A/warp_scan.cu" "$W/solution.cu"
cp "$S/warp_scan.cu" "$W/starter.cu"

# grade_01 NAME: make grade A=01 without a GPU in the copy; its output in $W/NAME.log.
grade_01() {
  (cd "$C" && SCANLAB_NO_GPU=1 NO_COLOR=1 make grade A=01 ARCH="$ARCH" < /dev/null > "$W/$1.log" 2>&1)
  return 0
}
# reason CHECK: that check's reason in the latest results.tsv.
reason() { awk -F'\t' -v c="$1" '$2 == c { print $10 }' "$C/grade-results/latest/results.tsv" 2> /dev/null; }
verdict() { awk -F'\t' -v c="$1" '$2 == c { print $4 }' "$C/grade-results/latest/results.tsv" 2> /dev/null; }
# every_check TEXT: every check of 01 fails and its reason holds TEXT.
every_check() {
  local n
  n=$(awk -F'\t' -v t="$1" 'NR > 1 && !($4 == "fail" && index($10, t)) { n++ } END { print n + 0 }' "$C/grade-results/latest/results.tsv" 2> /dev/null)
  [ -s "$C/grade-results/latest/results.tsv" ] && [ "$n" = 0 ]
}
no_x() { [ -z "$(find "$W" -name x -print -quit)" ]; }

grade_01 baseline
if [ "$(verdict ptx-scratch)" = fail ] && [ -x "$C/build/starter/$A/runner" ]; then ok "the starter builds and its ptx-scratch fails ($(reason ptx-scratch))"
else bad "baseline: the starter's build or grading failed: $(tail -3 "$W/baseline.log")"; fi

# 1. deleted after a build
rm "$S/warp_scan.cu"
grade_01 deleted
if every_check "missing file warp_scan.cu" && [ ! -e "$C/build/starter/$A/runner" ] && [ ! -e "$C/build/starter/$A/runner.ptx" ]; then
  ok "deleted: every check fails with '$(reason ptx-scratch)', and no runner or PTX of the earlier build is left"
else bad "deleted: ptx-scratch is $(verdict ptx-scratch): '$(reason ptx-scratch)'; runner left: $(ls "$C/build/starter/$A" 2> /dev/null | tr '\n' ' ')"; fi

# 2. the solution back with a time older than the build
cp -p "$W/solution.cu" "$S/warp_scan.cu"
touch -d '2001-01-01' "$S/warp_scan.cu"
grade_01 restored
if [ "$(verdict ptx-scratch)" = pass ] && [ "$(verdict ptx-shfl)" = pass ]; then ok "restored with an old time: rebuilt and graded as the new content (ptx-scratch: $(reason ptx-scratch))"
else bad "restored with an old time: ptx-scratch is $(verdict ptx-scratch) ('$(reason ptx-scratch)'), want pass"; fi

# 3. a file name with a space
echo "my notes" > "$S/notes 1.txt"
grade_01 space
if every_check "refused: starter/$A/notes 1.txt: a file name may hold only"; then ok "a name with a space: '$(reason ptx-scratch)'"
else bad "a name with a space: ptx-scratch is $(verdict ptx-scratch): '$(reason ptx-scratch)' ($(grep -m1 'No rule' "$W/space.log"))"; fi
rm "$S/notes 1.txt"

# 4. names that are make and shell code
touch "$S/\$(shell id >x).txt" "$S/\`id>x\`.cu"
(cd "$C" && make help > "$W/help.log" 2>&1)
no_x && ok "injection names: make help runs nothing" || bad "injection names: make help made a file x: $(find "$W" -name x)"
grade_01 injection
if no_x && every_check "refused: starter/$A/\$(shell id >x).txt: a file name may hold only"; then ok "injection names: make grade runs nothing and says '$(reason ptx-scratch)'"
else bad "injection names: x: $(find "$W" -name x | head -1); ptx-scratch '$(reason ptx-scratch)'"; fi
(cd "$C" && build/grader/grade --build-only --dir "starter/$A" --out "$W/evil-out" 01 > "$W/build-only.log" 2>&1)
rc=$?
if [ $rc -eq 1 ] && no_x && grep -qF "build starter/$A: refused: starter/$A/\$(shell id >x).txt" "$W/build-only.log"; then
  ok "injection names: grade --build-only runs nothing and refuses: $(grep -m1 '^build ' "$W/build-only.log")"
else bad "injection names: grade --build-only exit $rc: $(head -3 "$W/build-only.log")"; fi
rm -f "$S/\$(shell id >x).txt" "$S/\`id>x\`.cu"

# 5. a helper .cu and a .cuh that the student's file includes
{ echo '#define WARP_SCAN_CU 1'; echo '#include "a_helpers.cu"'; cat "$W/solution.cu"; } > "$S/warp_scan.cu"
printf '#ifndef WARP_SCAN_CU\n#error "a_helpers.cu is included by warp_scan.cu, never compiled alone"\n#endif\n#include "helpers.cuh"\n' > "$S/a_helpers.cu"
printf '// a header of the student'"'"'s own\nstatic __device__ __forceinline__ int own_helper(int x) { return x; }\n' > "$S/helpers.cuh"
grade_01 helpers
if [ "$(verdict ptx-scratch)" = pass ] && [ "$(verdict ptx-shfl)" = pass ]; then ok "a helper .cu and .cuh included by warp_scan.cu: built and graded ($(reason ptx-scratch))"
else bad "helpers: ptx-scratch is $(verdict ptx-scratch): '$(reason ptx-scratch)'"; fi
rm "$S/a_helpers.cu" "$S/helpers.cuh"

# 6. the decoy: CUB in warp_scan.cu, a clean a.cu beside it
cp "$W/starter.cu" "$S/a.cu"
{ echo '#include <cub/cub.cuh>'; cat "$W/starter.cu"; } > "$S/warp_scan.cu"
grade_01 decoy
if every_check "refused: warp_scan.cu uses CUB"; then ok "decoy: '$(reason ptx-scratch)'"
else bad "decoy: ptx-scratch is $(verdict ptx-scratch): '$(reason ptx-scratch)'"; fi
rm "$S/a.cu"

# 7. the student's file a symbolic link (to the solution)
rm "$S/warp_scan.cu"
ln -s "$W/solution.cu" "$S/warp_scan.cu"
grade_01 symlink
if every_check "refused: starter/$A/warp_scan.cu is a symbolic link"; then ok "a symbolic link: '$(reason ptx-scratch)'"
else bad "a symbolic link: ptx-scratch is $(verdict ptx-scratch): '$(reason ptx-scratch)'"; fi

echo "build-hostile: $passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# adversarial.sh [--run] [--no-build] [--build-dir DIR] [--jobs N] [NAME...]: the adversarial suite.
#
# Each assignment may keep attempts in assignments/NN-name/tests/adversarial/<attempt>/: a
# student's file (the one .cu of the folder, named as grade.conf's `student`) that tries to
# get points without the work; its header says how, and why it must fail. The attempt's name
# in this suite is NN-<attempt> (04-memoize). The verdict each must get is a row of the
# file `verdicts` beside the attempts (below); a folder without a row, or a row without a
# folder, stops the script. For each attempt this script assembles the folder a student
# would hand in, BUILD/<name>/src: the attempt's file, the shared headers beside it (this
# folder's common/ and the assignment's adversarial/common/; its `#include "../common/X"`
# read as "X"), the course files a line `// adversarial.sh copies: PATH` names (as a student
# may copy a course header into their own folder), and, for an attempt that includes a
# solution's file (`#include ".../solutions/NN-name/FILE.cu"`, a control row), that
# folder's files with the file renamed solution.cu; any other `#include "../..."` is given
# as the absolute path it reaches from the attempt's folder (an attempt that includes the
# course's CPU reference). Then the grader's own build does the rest, as for any student
# (grade --build-only --dir BUILD/<name>/src --out BUILD/<name>: the file compiled alone,
# inspected by grader/inspect/inspect-student.sh, the runner linked): one recipe, grader/src/build.c.
# With --run (on a machine with a CUDA GPU) it then runs the judge on the runner, case by
# case (the `cases` row of the verdicts file):
#   build/grader/judge --assignment NN --runner BIN [--variant V] --case C --reps 3 --result-fd 3 3>results
# Each run starts in a folder of its own under the build
# dir (assignments/ linked in, an empty grade-results/latest/), in a session of its
# own (setsid), so that an attempt that got through the sandbox damages nothing
# but shows: a line "ADVERSARIAL-BREACH" on stderr, a file in that grade-results/,
# or a process of the runner still alive after the judge ends fails the row
# whatever the verdict.
#
# A verdicts file: lines of columns separated by " | " (spaces around it: an ERE may hold a
# '|' of its own, never with spaces around it); '#' starts a comment line. One row
#   cases | VARIANT CASE | VARIANT CASE ...
# names the judge runs; every other row is ATTEMPT | BUILD | one verdict per case:
#   build column: built | refused:ERE (inspect-student.sh's line) | link:ERE (the link's messages)
#   case columns: pass (judge exit 0, one result line, ok=1, no call wrong)
#                 wrong-all (judge exit 0, one result line, ok=0, every call wrong: bad_reps ==
#                   verified; "wrong in 5 of 5 calls" on stderr for a case of one call)
#                 wrong-but-first (the same, every call but the first: bad_reps == verified - 1;
#                   "wrong in 4 of 5 calls" for a case of one call, 2 warm-ups + 3 samples)
#                 slow:MS (pass, and the result line's min_ms at least MS: work the attempt
#                   left running after its call returned was timed)
#                 exit5:ERE (judge exit 5, no result line, ERE on stderr)
#                 stopped:ERE (judge exit 3: the runner stopped with a CUDA error, no result
#                   line, ERE on stderr; a probe whose trick the runner's sealed state or
#                   sandbox made impossible ends so: it returns an error rather than fall
#                   back to honest work, and earns nothing)
#                 nogain:R (a perf duel, as a perf check runs it: judge --versus
#                   assignments/NN/ref/reference --floor 0.8, the case's own samples;
#                   the attempt earns no more than an honest run R times as slow as
#                   the reference: the judge ends the run with no line of the
#                   student's (exit 5: killed or broke the protocol; exit 6: the
#                   reference was disturbed), or the student's line is right and
#                   either under the floor (too_fast) or its median at least R x
#                   the reference's)
#                 none (not run in this row: its trick is timed on another case)
#                 - (not run: the build decided it)
# The counts come from the result line, since a case's calls per sample (spec.c's
# batch) may change.
# Prints one line per attempt, "PASS name: verdict", "FAIL name: got ... want ..."
# or (without --run, for rows that need a GPU) "SKIP name: needs a GPU", then
# "N passed, M failed". Exit status: 0 all passed, 1 a row failed, 2 bad usage or
# a missing tool.
#
# Without --run it needs nvcc, binutils, build/grader/grade and build/runner/librunner.a
# (made with `make build/grader/grade build/runner/librunner.a ARCH=$ARCH` when missing); with --run also
# build/grader/judge (`make build/grader/judge`) and a GPU. --no-build reuses the
# build dir as it is (a build carried to the GPU host). ARCH (default sm_90) is the
# nvcc -arch of the student's object and the runner; every artifact goes under the
# build dir (default build/adversarial of the repository). JUDGE=PATH runs another
# judge binary (relative to the repository root).
set -euo pipefail
START=$PWD
cd "$(dirname "$0")/../.."
ROOT=$PWD

usage() {
  sed -n '2p' "$0" | sed 's/^# /usage: /' >&2
  exit 2
}

RUN=0
NO_BUILD=0
BUILD=$ROOT/build/adversarial
JOBS=$(nproc 2> /dev/null || echo 2)
ONLY=()
while [ $# -gt 0 ]; do
  case $1 in
    --run) RUN=1 ;;
    --no-build) NO_BUILD=1 ;;
    --build-dir)
      [ $# -ge 2 ] || usage
      BUILD=$2
      shift
      ;;
    --build-dir=*) BUILD=${1#--build-dir=} ;;
    --jobs)
      [ $# -ge 2 ] || usage
      JOBS=$2
      shift
      ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ; exit 0 ;;
    -*) echo "adversarial: unknown option '$1'" >&2; usage ;;
    *) ONLY+=("$1") ;;
  esac
  shift
done
case $BUILD in /*) ;; *) BUILD=$START/$BUILD ;; esac # a --build-dir is relative to where it was typed

ARCH=${ARCH:-sm_90}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
LIBRUNNER=build/runner/librunner.a
GRADE=build/grader/grade
JUDGE=${JUDGE:-build/grader/judge}
INSPECT=grader/inspect/inspect-student.sh
ADV=grader/tests/adversarial

# ------------------------------------------------------------------ the table
trim() {
  local s=$1
  s=${s#"${s%%[![:space:]]*}"}
  s=${s%"${s##*[![:space:]]}"}
  printf '%s' "$s"
}

# Every assignment's verdicts file: NAMES (NN-attempt, in the files' order), and for each
# name its folder, assignment, build verdict and case verdicts; each assignment's cases.
NAMES=()
declare -A WANT_BUILD WANT_CASES DIR_OF ASG_OF CASES_OF
for table in assignments/*/tests/adversarial/verdicts; do
  [ -f "$table" ] || continue
  adir=${table%/verdicts}
  a=${table#assignments/}
  a=${a%%/*}
  line=0
  while IFS= read -r row || [ -n "$row" ]; do
    line=$((line + 1))
    [ -n "$(trim "$row")" ] || continue
    case $row in '#'*) continue ;; esac
    row=${row// | /$'\x1f'}
    IFS=$'\x1f' read -r -a cols <<< "$row"
    attempt=$(trim "${cols[0]}")
    if [ "$attempt" = cases ]; then
      CASES_OF[$a]=""
      for ((i = 1; i < ${#cols[@]}; i++)); do CASES_OF[$a]+="$(trim "${cols[i]}")"$'\n'; done
      continue
    fi
    name=${a%%-*}-$attempt
    [ -d "$adir/$attempt" ] || { echo "adversarial: $table:$line: no folder $adir/$attempt for row '$attempt'" >&2; exit 2; }
    [ -z "${WANT_BUILD[$name]+x}" ] || { echo "adversarial: $table:$line: a second row for '$attempt'" >&2; exit 2; }
    NAMES+=("$name")
    DIR_OF[$name]=$adir/$attempt
    ASG_OF[$name]=$a
    WANT_BUILD[$name]=$(trim "${cols[1]:-}")
    wants=""
    for ((i = 2; i < ${#cols[@]}; i++)); do wants+="$(trim "${cols[i]}")"$'\n'; done
    WANT_CASES[$name]=$wants
  done < "$table"
  [ -n "${CASES_OF[$a]+x}" ] || { echo "adversarial: $table has no 'cases | VARIANT CASE | ...' row" >&2; exit 2; }
  # Every attempt in the folder has its verdict (common/ holds shared headers).
  for d in "$adir"/*/; do
    n=$(basename "$d")
    [ "$n" = common ] || [ -n "${WANT_BUILD[${a%%-*}-$n]+x}" ] || { echo "adversarial: $adir/$n has no row in $table" >&2; exit 2; }
  done
done
# An assignment with attempts and no verdicts file.
for d in assignments/*/tests/adversarial/; do
  [ -f "$d/verdicts" ] || { echo "adversarial: ${d%/} has no verdicts file" >&2; exit 2; }
done

if [ ${#ONLY[@]} -gt 0 ]; then
  for n in "${ONLY[@]}"; do
    [ -n "${WANT_BUILD[$n]+x}" ] || { echo "adversarial: no attempt '$n' in any verdicts file" >&2; exit 2; }
  done
  NAMES=("${ONLY[@]}")
fi
# The attempt's student file: the one .cu of its folder.
src_of() {
  local f
  for f in "${DIR_OF[$1]}"/*.cu; do
    if [ -f "$f" ]; then
      printf '%s\n' "$f"
      return 0
    fi
  done
  return 0
}
assignment_of() { printf '%s\n' "${ASG_OF[$1]}"; }
# The file grade.conf's `student` names for the attempt's assignment.
student_of() { sed -n 's/^student *= *//p' "assignments/$(assignment_of "$1")/grade.conf" | head -1; }

for n in "${NAMES[@]}"; do
  [ -n "$(src_of "$n")" ] || { echo "adversarial: ${DIR_OF[$n]} has no .cu file" >&2; exit 2; }
done

# ------------------------------------------------------------------ building
# copy_course_files NAME DIR: the course files NAME's file asks for (`// adversarial.sh copies: PATH`) into DIR.
copy_course_files() {
  local path
  rm -rf "$2"
  mkdir -p "$2"
  sed -n 's|^// adversarial.sh copies: *||p' "$(src_of "$1")" | while IFS= read -r path; do
    cp "$path" "$2/" || return 1
  done
}

# assemble NAME DIR: the folder a student would hand in for NAME, into DIR (above).
assemble() {
  local name=$1 dir=$2 src base sol sa sf rel
  src=$(src_of "$name")
  base=$(basename "$src")
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$ADV"/common/* "$dir/"
  [ ! -d "${DIR_OF[$name]%/*}/common" ] || cp "${DIR_OF[$name]%/*}"/common/* "$dir/"
  copy_course_files "$name" "$dir.copied" || return 1
  cp "$dir.copied"/. "$dir/" -r && rm -rf "$dir.copied"
  sol=$(sed -n 's|^#include "[./]*solutions/\([0-9a-z-]*\)/\([a-z_]*\.cu\)".*|\1 \2|p' "$src" | head -1)
  if [ -n "$sol" ]; then
    read -r sa sf <<< "$sol"
    cp solutions/"$sa"/* "$dir/" && mv "$dir/$sf" "$dir/solution.cu" || return 1
  fi
  # "../common/X" -> "X"; solutions/NN/FILE -> "solution.cu"; any other "../..." -> the absolute path it reaches
  sed -e 's|^#include "\.\./common/|#include "|' -e 's|^#include "[./]*solutions/[0-9a-z-]*/[a-z_]*\.cu"|#include "solution.cu"|' "$src" |
    while IFS= read -r line || [ -n "$line" ]; do
      if [[ $line =~ ^#include\ \"(\.\./[^\"]*)\" ]]; then
        rel=${BASH_REMATCH[1]}
        printf '#include "%s"\n' "$(realpath -m -- "${DIR_OF[$name]}/$rel")"
      else
        printf '%s\n' "$line"
      fi
    done > "$dir/$base"
}

# build_one NAME: $BUILD/NAME/verdict gets one line: "built", "refused: ...",
# "link fails: ...", "does not compile: ..." or "inspect error: ..." (the grader's
# build's outcome: ok, refused, does not link, does not compile, not built).
build_one() {
  local name=$1 a out why
  a=$(assignment_of "$name")
  out=$BUILD/$name
  mkdir -p "$out"
  rm -f "$out/verdict"
  if [ "$(basename "$(src_of "$name")")" != "$(student_of "$name")" ]; then
    echo "does not compile: $(src_of "$name") is not assignments/$a/grade.conf's student file ($(student_of "$name"))" > "$out/verdict.tmp"
  elif ! assemble "$name" "$out/src" 2> "$out/assemble.log"; then
    echo "does not compile: the course file it copies is missing: $(head -1 "$out/assemble.log")" > "$out/verdict.tmp"
  else
    # A probe (its folder has a file no-inspect saying why): an attempt on the layer behind
    # the inspection. The inspection must refuse it as it is; then it is built past it
    # (grade --no-inspect) so that --run shows what the sandbox and the judge's clock do.
    local noinspect=() probe_why=""
    if [ -f "${DIR_OF[$name]}/no-inspect" ]; then
      "$GRADE" --build-only --dir "$out/src" --out "$out" --nvcc "$NVCC" --gencode "-arch=$ARCH" "$a" > "$out/grade.log" 2>&1 || [ $? -eq 1 ]
      probe_why=$(sed -n "s|^build $out/src: ||p" "$out/grade.log" | tail -1)
      noinspect=(--no-inspect)
    fi
    # exit 1 is a build that failed: its outcome is the line read below
    "$GRADE" --build-only "${noinspect[@]}" --dir "$out/src" --out "$out" --nvcc "$NVCC" --gencode "-arch=$ARCH" "$a" > "$out/grade.log" 2>&1 || [ $? -eq 1 ]
    why=$(sed -n "s|^build $out/src: ||p" "$out/grade.log" | tail -1)
    if [ -n "${noinspect[*]}" ] && [[ $probe_why != "refused: "* ]]; then
      why="a probe the inspection did not refuse: ${probe_why:-no outcome}"
    fi
    case $why in
      ok) echo built ;;
      "refused: "*) printf '%s\n' "$why" ;;
      "does not link: "*) printf 'link fails: %s\n' "${why#does not link: }" ;;
      "does not compile: "*) printf '%s\n' "$why" ;;
      *) printf 'inspect error: %s\n' "${why:-no outcome from grade --build-only: $(tail -1 "$out/grade.log")}" ;;
    esac > "$out/verdict.tmp"
  fi
  mv -f "$out/verdict.tmp" "$out/verdict"
}

mkdir -p "$BUILD"
if [ $NO_BUILD -eq 0 ]; then
  for tool in "$NVCC" nm readelf objdump c++filt; do
    command -v "$tool" > /dev/null || { echo "adversarial: $tool is not available" >&2; exit 2; }
  done
  [ -f "$INSPECT" ] || { echo "adversarial: $INSPECT is missing: the build's inspection cannot run" >&2; exit 2; }
  if [ ! -f "$LIBRUNNER" ] || [ ! -x "$GRADE" ] || [ ! -f build/runner/sandbox.o ]; then
    echo "adversarial: $GRADE or $LIBRUNNER is missing; making them (ARCH=$ARCH)" >&2
    make "$GRADE" "$LIBRUNNER" build/runner/sandbox.o "ARCH=$ARCH" > "$BUILD/librunner.log" 2>&1 || { cat "$BUILD/librunner.log" >&2; exit 2; }
  fi
  # every attempt, every time: the grader's build reuses one whose files did not change
  todo=("${NAMES[@]}")
  if [ ${#todo[@]} -gt 0 ]; then
    echo "adversarial: building ${#todo[@]} attempts (nvcc -arch=$ARCH, $JOBS at a time) into ${BUILD#"$ROOT"/}" >&2
    running=0
    for n in "${todo[@]}"; do
      if [ $running -ge "$JOBS" ]; then
        wait -n || true
        running=$((running - 1))
      fi
      build_one "$n" &
      running=$((running + 1))
    done
    wait || true
  fi
fi

# ------------------------------------------------------------------ running
# run_case NAME VARIANT CASE WANT: one judge run; sets GOT (what happened, one
# line) and returns 0 when it is what WANT says.
GOT=""
run_case() {
  local name=$1 variant=$2 kase=$3 want=$4 a bin dir rc lines ok why err kind pat extra pids
  a=$(assignment_of "$name")
  bin=$BUILD/$name/runner
  dir=$BUILD/run/$name/${kase//[^A-Za-z0-9_.-]/_}
  rm -rf "$dir"
  mkdir -p "$dir/grade-results/latest"
  ln -s "$ROOT/assignments" "$dir/assignments"
  local cmd=("$ROOT/$JUDGE" --assignment "$a" --runner "$bin" --variant "$variant" --case "$kase" --reps 3 --result-fd 3)
  case $want in nogain:*) # a perf duel against the reference, with the case's own samples
    cmd=("$ROOT/$JUDGE" --assignment "$a" --runner "$bin" --versus "$ROOT/assignments/$a/ref/reference" --floor 0.8
      --variant "$variant" --case "$kase" --result-fd 3) ;;
  esac
  case $JUDGE in /*) cmd[0]=$JUDGE ;; esac
  local wrap=()
  command -v setsid > /dev/null && wrap+=(setsid -w)
  command -v timeout > /dev/null && wrap+=(timeout -s KILL 600)
  rc=0
  (cd "$dir" && exec "${wrap[@]}" "${cmd[@]}" 3> results > stdout 2> stderr) || rc=$?
  lines=$(grep -c '^result ' "$dir/results" || true)
  field() { grep -m1 -o " $1=[^ ]*" "$dir/results" | cut -d= -f2 || true; }
  ok=$(field ok)
  verified=$(field verified)
  bad_reps=$(field bad_reps)
  err=$dir/stderr
  why=$(grep -m1 -E 'wrong in|judge: ' "$err" | sed -E 's/^[0-9]{2}-[a-z-]+ judge: //' || true)
  [ -n "$why" ] || why=$(grep -v '^adv \|^result ' "$err" | tail -1 || true)
  if [[ $want == nogain:* ]]; then
    duel_got "$dir" "$rc" "$lines" "$why"
  elif [ "$lines" -eq 1 ]; then
    GOT="exit $rc, ok=$ok, wrong in $bad_reps of $verified calls"
    [ "$ok" = 1 ] || GOT+=" (${why:-no reason on stderr})"
  else
    GOT="exit $rc, $lines result lines${why:+: $why}"
  fi
  # Whatever the verdict: nothing may have got out of the sandbox.
  extra=""
  if grep -q 'ADVERSARIAL-BREACH' "$err"; then extra+="; $(grep -m1 'ADVERSARIAL-BREACH' "$err")"; fi
  if [ -n "$(find "$dir/grade-results" -mindepth 1 ! -path "$dir/grade-results/latest" -print -quit)" ]; then
    extra+="; files appeared in grade-results/: $(cd "$dir" && find grade-results -mindepth 1 -type f | tr '\n' ' ')"
  fi
  pids=$(pgrep -f -- "$bin" || true)
  if [ -n "$pids" ]; then
    extra+="; a runner process outlived the judge (pid ${pids//$'\n'/ })"
    for p in $pids; do kill -KILL "$p" 2> /dev/null || true; done
  fi
  GOT+=$extra
  [ -z "$extra" ] || return 1
  kind=${want%%:*}
  pat=${want#*:}
  case $kind in
    pass) [ "$rc" -eq 0 ] && [ "$lines" -eq 1 ] && [ "$ok" = 1 ] && [ "$bad_reps" = 0 ] ;;
    slow)
      GOT+=", fastest sample $(field min_ms) ms a call"
      [ "$rc" -eq 0 ] && [ "$lines" -eq 1 ] && [ "$ok" = 1 ] && [ "$bad_reps" = 0 ] &&
        awk -v t="$(field min_ms)" -v lo="$pat" 'BEGIN { exit !(t + 0 >= lo + 0) }'
      ;;
    wrong-all | wrong-but-first)
      [ "$rc" -eq 0 ] && [ "$lines" -eq 1 ] && [ "$ok" = 0 ] && grep -q 'wrong in' "$err" || return 1
      [ -n "$verified" ] && [ "$verified" -gt 1 ] || return 1
      if [ "$kind" = wrong-all ]; then [ "$bad_reps" = "$verified" ]; else [ "$bad_reps" = $((verified - 1)) ]; fi
      ;;
    exit5) [ "$rc" -eq 5 ] && [ "$lines" -eq 0 ] && grep -Eq -- "$pat" "$err" ;;
    stopped) [ "$rc" -eq 3 ] && [ "$lines" -eq 0 ] && grep -Eq -- "$pat" "$err" ;;
    nogain) duel_nogain "$dir" "$rc" "$pat" ;;
    *) GOT+=" (the table's '$want' is not a verdict)"; return 1 ;;
  esac
}

# A duel's result lines: the reference's first, then the student's (judge --versus).
duel_field() { grep '^result ' "$1/results" | sed -n "$2p" | grep -o " $3=[^ ]*" | cut -d= -f2 || true; }

# duel_got DIR RC LINES WHY: what a duel gave, into GOT.
duel_got() {
  local dir=$1 rc=$2 lines=$3 why=$4 ref st
  if [ "$lines" -eq 2 ]; then
    ref=$(duel_field "$dir" 1 median_ms)
    st=$(duel_field "$dir" 2 median_ms)
    GOT="exit $rc, the student's ok=$(duel_field "$dir" 2 ok) median $st ms (charged $(duel_field "$dir" 2 charged_ms)), "
    GOT+="too_fast=$(duel_field "$dir" 2 too_fast), the reference's $ref ms (alone $(duel_field "$dir" 1 solo_ms)): "
    GOT+="$(awk -v s="$st" -v r="$ref" 'BEGIN { printf "%.2f", r > 0 ? s / r : 0 }')x"
  else
    GOT="exit $rc, $lines result lines${why:+: $why}"
  fi
}

# duel_nogain DIR RC R: 0 when the attempt earned no more than an honest run R x the reference.
duel_nogain() {
  local dir=$1 rc=$2 r=$3 lines
  lines=$(grep -c '^result ' "$dir/results" || true)
  if [ "$rc" -eq 5 ] || [ "$rc" -eq 6 ]; then [ "$(duel_field "$dir" 2 ok)" = "" ]; return; fi
  [ "$rc" -eq 0 ] && [ "$lines" -eq 2 ] || return 1
  [ "$(duel_field "$dir" 2 ok)" = 1 ] || return 0 # wrong: no points
  [ "$(duel_field "$dir" 2 too_fast)" = 0 ] || return 0 # under the floor: no points
  awk -v s="$(duel_field "$dir" 2 median_ms)" -v ref="$(duel_field "$dir" 1 median_ms)" -v r="$r" 'BEGIN { exit !(s + 0 >= r * ref) }'
}

# What a verdict of the table means, for a FAIL line.
describe() {
  case $1 in
    pass) echo "exit 0, ok=1, wrong in 0 calls" ;;
    slow:*) echo "exit 0, ok=1, and its fastest sample at least ${1#slow:} ms a call (the work it left running counted)" ;;
    wrong-all) echo "exit 0, ok=0, wrong in every call ('wrong in' on stderr)" ;;
    wrong-but-first) echo "exit 0, ok=0, wrong in every call but the first ('wrong in' on stderr)" ;;
    exit5:*) echo "exit 5, no result line, stderr matching /${1#exit5:}/" ;;
    stopped:*) echo "exit 3 (the runner stopped with a CUDA error), no result line, stderr matching /${1#stopped:}/" ;;
    nogain:*) echo "in a duel with the reference, no more than an honest run ${1#nogain:} x the reference: exit 5 or 6 with no line of the student's, or its line wrong, under the floor, or its median at least ${1#nogain:} x the reference's" ;;
    built) echo "built: compiled, accepted by the inspection, linked" ;;
    refused:*) echo "refused, the inspection's line matching /${1#refused:}/" ;;
    link:*) echo "the runner's link fails, its messages matching /${1#link:}/" ;;
    *) echo "$1" ;;
  esac
}

if [ $RUN -eq 1 ]; then
  [ -x "$JUDGE" ] || { echo "adversarial: $JUDGE is missing: make $JUDGE" >&2; exit 2; }
fi

passed=0
failed=0
skipped=0
for name in "${NAMES[@]}"; do
  want=${WANT_BUILD[$name]}
  got=$(cat "$BUILD/$name/verdict" 2> /dev/null || echo "not built (run without --no-build)")
  # The build's verdict.
  build_ok=0
  case $want in
    built) [ "$got" = built ] && build_ok=1 ;;
    refused:*) [[ $got == refused:* ]] && printf '%s\n' "$got" | grep -Eq -- "${want#refused:}" && build_ok=1 ;;
    link:*) [[ $got == "link fails:"* ]] && grep -Eq -- "${want#link:}" <<< "$got" && build_ok=1 ;;
  esac
  if [ $build_ok -eq 0 ]; then
    echo "FAIL $name: got $got want $(describe "$want")"
    failed=$((failed + 1))
    continue
  fi
  if [ "$want" != built ]; then
    echo "PASS $name: $got"
    passed=$((passed + 1))
    continue
  fi
  if [ $RUN -eq 0 ]; then
    echo "SKIP $name: needs a GPU (built; the judge's verdict is decided by --run)"
    skipped=$((skipped + 1))
    continue
  fi
  mapfile -t cases < <(printf '%s' "${CASES_OF[$(assignment_of "$name")]}")
  mapfile -t wants <<< "${WANT_CASES[$name]}"
  summary=""
  bad=""
  for i in "${!cases[@]}"; do
    read -r variant kase <<< "${cases[i]}"
    w=${wants[i]:-}
    if [ "$w" = none ]; then
      summary+="${summary:+; }$kase: not run"
      continue
    fi
    if [ -z "$w" ] || [ "$w" = - ]; then
      bad+="${bad:+; }$kase: the table has no verdict for it"
      continue
    fi
    if run_case "$name" "$variant" "$kase" "$w"; then
      summary+="${summary:+; }$kase: $GOT"
    else
      bad+="${bad:+; }$kase: got $GOT want $(describe "$w")"
    fi
  done
  if [ -z "$bad" ]; then
    echo "PASS $name: $summary"
    passed=$((passed + 1))
  else
    echo "FAIL $name: $bad"
    failed=$((failed + 1))
  fi
done
[ $skipped -eq 0 ] || echo "($skipped skipped: they need a GPU; run with --run on a GPU machine)"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# adversarial.sh [--run] [--no-build] [--build-dir DIR] [--jobs N] [NAME...]: the adversarial suite.
#
# Each attempt in grader/tests/adversarial/<name>/ is a student's file (large_scan.cu
# for 04, renderer.cu for 05) that tries to get points without the work; its header
# says how, and why it must fail. For each attempt this script does what the runner
# build does (the Makefile's "runner builds"): compiles the file alone into
# student.o with the student rule's flags (STUDENT_NVCCFLAGS, -Iassignments/NN and
# its own folder), inspects it (mk/inspect-student.sh, with the folders it may
# include from: assignments/NN, its own, common/, and solutions/NN, which
# 04-control includes), and links the runner (assignments/NN/runner.cu + student.o
# + build/runner/librunner.a -lpthread). A line `// adversarial.sh copies: PATH`
# in the attempt's file copies that course file into a folder of the build dir on
# its include path, as a student may copy a course header into their own folder
# (04-run-reference: grader/protocol/wire.h). With --run (on a machine with a CUDA GPU)
# it then runs the judge on the runner, case by case:
#   build/grader/judge --assignment NN --runner BIN [--variant V] --case C --reps 3 --result-fd 3 3>results
# 04: decoupled_lookback on n1025 and n2^24, find_repeats on rep-few; 05: render on
# rgb-256x256 and pattern. Each run starts in a folder of its own under the build
# dir (assignments/ linked in, an empty grade-results/latest/), in a session of its
# own (setsid), so that an attempt that got through the sandbox damages nothing
# but shows: a line "ADVERSARIAL-BREACH" on stderr, a file in that grade-results/,
# or a process of the runner still alive after the judge ends fails the row
# whatever the verdict.
#
# The verdict each attempt must get is in the table below:
#   build column: built | refused:ERE (inspect-student.sh's line) | link:ERE (the link's messages)
#   case columns: pass (judge exit 0, one result line, ok=1, no call wrong)
#                 wrong-all (judge exit 0, one result line, ok=0, every call wrong: bad_reps ==
#                   verified; "wrong in 5 of 5 calls" on stderr for n1025)
#                 wrong-but-first (the same, every call but the first: bad_reps == verified - 1;
#                   "wrong in 4 of 5 calls" for n1025, 2 warm-ups + 3 samples of one call)
#                 slow:MS (pass, and the result line's min_ms at least MS: work the attempt
#                   left running after its call returned was timed)
#                 exit5:ERE (judge exit 5, no result line, ERE on stderr)
#                 - (not run: the build decided it)
# The counts come from the result line, since a case's calls per sample (spec.c's
# batch) may change: n1025 makes 5 calls, n2^24 5 x its batch, 05's cases 5 x 16.
# Prints one line per attempt, "PASS name: verdict", "FAIL name: got ... want ..."
# or (without --run, for rows that need a GPU) "SKIP name: needs a GPU", then
# "N passed, M failed". Exit status: 0 all passed, 1 a row failed, 2 bad usage or
# a missing tool.
#
# Without --run it needs nvcc, binutils and build/runner/librunner.a (made with
# `make build/runner/librunner.a ARCH=$ARCH` when missing); with --run also
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
JUDGE=${JUDGE:-build/grader/judge}
INSPECT=mk/inspect-student.sh
PREFIXES=mk/course-prefixes.txt
ADV=grader/tests/adversarial
# The Makefile's STUDENT_NVCCFLAGS and NVCCFLAGS with GENCODE = -arch=$(ARCH); NVCC_STRICT for the course's runner.cu only.
STUDENT_NVCCFLAGS=(-O3 -std=c++17 "-arch=$ARCH")
NVCCFLAGS=("${STUDENT_NVCCFLAGS[@]}" -Igrader/protocol -Igrader/runner)
NVCC_STRICT=(-Werror all-warnings -Xcompiler "-Wall,-Wextra,-Werror")

# ------------------------------------------------------------------ the table
# name | build | 04: n1025 | n2^24 | rep-few (find_repeats)   05: rgb-256x256 | pattern
PROTOCOL='case [^ ]+: the runner (broke the protocol|exited with status 0|was killed by signal)'
SANDBOX_KILL='case [^ ]+: the runner was killed by the sandbox'
ATTEMPTS="
04-control               | built | pass            | pass            | pass
04-forge-lines           | refused:^refused: large_scan.cu calls write, | - | - | -
04-forge-exit            | refused:^refused: large_scan.cu calls (_exit|write), | - | - | -
04-read-secrets          | refused:^refused: large_scan.cu calls (__ctype_toupper_loc|close|environ|fclose|fopen|fread|getppid|open|openat|syscall), | - | - | -
04-run-reference         | refused:^refused: large_scan.cu calls (_exit|close|environ|execv|fgets|fork|ftruncate|mmap|munmap|pclose|pipe|popen|posix_spawn[a-z_]*|syscall|system|waitpid|wire_recv|wire_send), | - | - | -
04-daemon                | refused:^refused: large_scan.cu calls (_exit|close|daemon|fork|open|setsid|sleep|write), | - | - | -
04-forge-results-json    | refused:^refused: large_scan.cu calls (close|creat|mkdir|open|rename|write), | - | - | -
04-memoize               | built | wrong-but-first | wrong-but-first | wrong-but-first
04-stale-workspace       | built | wrong-but-first | wrong-but-first | wrong-but-first
04-gpu-memory-hunt       | refused:^refused: large_scan.cu calls cudaGetDriverEntryPointByVersion, | - | - | -
04-kill-judge            | refused:^refused: large_scan.cu calls (getppid|kill|syscall), | - | - | -
04-late-stream           | built | slow:0.45       | slow:0.45       | slow:0.45
04-late-per-thread       | built | slow:0.45       | slow:0.45       | slow:0.45
04-late-graph            | built | slow:0.45       | slow:0.45       | slow:0.45
04-late-callback         | refused:^refused: large_scan.cu calls (clock_gettime|cudaLaunchHostFunc), | - | - | -
04-thread-precompute     | refused:^refused: large_scan.cu calls pthread_create, | - | - | -
04-forge-done            | refused:^refused: large_scan.cu calls write, | - | - | -
04-patch-timer           | refused:^refused: large_scan.cu defines cudaEventElapsedTime, a symbol of the CUDA runtime | - | - | -
04-extern-cpu-reference  | refused:^refused: large_scan.cu calls (hx_scan_cpu|scan_cpu_i32|compact_cpu_repeats), | - | - | -
04-cub-disguised         | refused:^refused: large_scan.cu uses CUB \(it includes cub/ | - | - | -
04-thrust-alias          | refused:^refused: large_scan.cu uses Thrust \(it includes thrust/ | - | - | -
04-static-ctor           | refused:^refused: large_scan.cu defines a static constructor \(adv_before_sandbox\) | - | - | -
04-global-ctor           | refused:^refused: large_scan.cu (defines a global object with a constructor|initializes a global at load time) | - | - | -
04-include-cpu-reference | refused:^refused: large_scan.cu includes a course file \(grader/lib/scan_cpu.c\) | - | - | -
04-interpose-syscall     | refused:^refused: large_scan.cu defines syscall, a symbol of the C library | - | - | -
04-interpose-readwrite   | refused:^refused: large_scan.cu defines read, a symbol of the C library | - | - | -
04-interpose-prctl       | refused:^refused: large_scan.cu defines prctl, a symbol of the C library | - | - | -
05-forge-lines           | refused:^refused: renderer.cu calls write, | - | -
05-memoize-frame         | built | wrong-but-first | wrong-but-first
05-background-only       | built | wrong-all       | wrong-all
"
CASES_04=("decoupled_lookback n1025" "decoupled_lookback n2^24" "find_repeats rep-few")
CASES_05=("render rgb-256x256" "render pattern")

trim() {
  local s=$1
  s=${s#"${s%%[![:space:]]*}"}
  s=${s%"${s##*[![:space:]]}"}
  printf '%s' "$s"
}

NAMES=()
declare -A WANT_BUILD WANT_CASES
while IFS= read -r row; do
  [ -n "$(trim "$row")" ] || continue
  row=${row// | /$'\x1f'} # columns: " | " (an ERE may hold a '|' of its own, never with spaces around it)
  IFS=$'\x1f' read -r -a cols <<< "$row"
  name=$(trim "${cols[0]}")
  NAMES+=("$name")
  WANT_BUILD[$name]=$(trim "${cols[1]}")
  wants=""
  for ((i = 2; i < ${#cols[@]}; i++)); do wants+="$(trim "${cols[i]}")"$'\n'; done
  WANT_CASES[$name]=$wants
done <<< "$ATTEMPTS"

if [ ${#ONLY[@]} -gt 0 ]; then
  for n in "${ONLY[@]}"; do
    [ -n "${WANT_BUILD[$n]+x}" ] || { echo "adversarial: no attempt '$n' in the table" >&2; exit 2; }
  done
  NAMES=("${ONLY[@]}")
fi
# The attempt's student file: the first .cu of its folder, as the Makefile's student_cu picks it.
src_of() {
  local f
  for f in "$ADV/$1"/*.cu; do
    if [ -f "$f" ]; then
      printf '%s\n' "$f"
      return 0
    fi
  done
  return 0
}
assignment_of() {
  case $(basename "$(src_of "$1")") in
    large_scan.cu) echo 04-large-scan ;;
    renderer.cu) echo 05-renderer ;;
    *) echo unknown ;;
  esac
}

for n in "${NAMES[@]}"; do
  [ -n "$(src_of "$n")" ] || { echo "adversarial: $ADV/$n has no .cu file" >&2; exit 2; }
done
# Every attempt in the folder has its verdict here (common/ holds shared headers).
for d in "$ADV"/*/; do
  n=$(basename "$d")
  [ "$n" = common ] || [ -n "${WANT_BUILD[$n]+x}" ] || { echo "adversarial: $ADV/$n has no row in the table" >&2; exit 2; }
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

# build_one NAME: $BUILD/NAME/verdict gets one line: "built", "refused: ...",
# "link fails: ...", "does not compile: ..." or "inspect error: ...".
build_one() {
  local name=$1 src base a out t rc
  src=$(src_of "$name")
  base=$(basename "$src")
  a=$(assignment_of "$name")
  out=$BUILD/$name
  mkdir -p "$out"
  rm -f "$out"/{student.o,student.d,runner,refused,inspect.err,build.log,link.log,verdict}
  t=$out/verdict.tmp
  # the folders the attempt may include from (solutions/NN only where the tree has it)
  local folders=("assignments/$a" "$ADV/$name" "$ADV/common" "$out/copied")
  [ ! -d "solutions/$a" ] || folders+=("solutions/$a")
  if [ "$a" = unknown ]; then
    echo "does not compile: $base is neither large_scan.cu (04) nor renderer.cu (05)" > "$t"
  elif ! copy_course_files "$name" "$out/copied" 2> "$out/build.log"; then
    echo "does not compile: the course file it copies is missing: $(head -1 "$out/build.log")" > "$t"
  elif ! "$NVCC" "${STUDENT_NVCCFLAGS[@]}" "-Iassignments/$a" "-I$ADV/$name" "-I$out/copied" -MD -MF "$out/student.d" -c "$src" \
    -o "$out/student.o" > "$out/build.log" 2>&1; then
    echo "does not compile: $(grep -m1 -i 'error' "$out/build.log" || tail -1 "$out/build.log")" > "$t"
  else
    rc=0
    bash "$INSPECT" "$out/student.o" "$out/student.d" "$base" "$CUDA_HOME/bin" "${folders[@]}" > "$out/refused" 2> "$out/inspect.err" || rc=$?
    if [ $rc -eq 1 ]; then
      head -1 "$out/refused" > "$t"
    elif [ $rc -ne 0 ]; then
      echo "inspect error (exit $rc): $(head -1 "$out/inspect.err")" > "$t"
    elif ! "$NVCC" "${NVCCFLAGS[@]}" "${NVCC_STRICT[@]}" "-Iassignments/$a" "assignments/$a/runner.cu" "$out/student.o" \
      "$LIBRUNNER" -lpthread -o "$out/runner" > "$out/link.log" 2>&1; then
      echo "link fails: the runner does not link: $({ grep -m1 'undefined reference\|multiple definition' "$out/link.log" || grep -m1 'error' "$out/link.log"; } | sed 's/.*: \(undefined reference\|multiple definition\)/\1/' || tail -1 "$out/link.log")" > "$t"
    else
      rm -f "$out/refused"
      echo built > "$t"
    fi
  fi
  flags > "$out/flags"
  mv -f "$t" "$out/verdict"
}

# The flags of today's build, one line.
flags() { printf '%s | %s\n' "${STUDENT_NVCCFLAGS[*]}" "${NVCCFLAGS[*]}"; }

# Whether NAME's verdict is newer than everything it was made from, with today's flags.
up_to_date() {
  local name=$1 out=$BUILD/$1 a
  a=$(assignment_of "$name")
  [ -f "$out/verdict" ] && [ -f "$out/flags" ] || return 1
  [ "$(cat "$out/flags")" = "$(flags)" ] || return 1
  if [ "$(cat "$out/verdict")" = built ]; then [ -x "$out/runner" ] || return 1; fi
  [ -z "$(find "$ADV/$name" "$ADV/common" "$INSPECT" "$PREFIXES" mk/inspect-links.sh mk/student-calls.txt mk/header-decls.awk \
    "assignments/$a" grader/protocol grader/lib grader/runner -maxdepth 1 \
    \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' -o -name '*.c' -o -name '*.sh' -o -name '*.txt' -o -name '*.awk' \) -newer "$out/verdict" -print -quit)" ] || return 1
  [ "$LIBRUNNER" -ot "$out/verdict" ] || return 1
}

mkdir -p "$BUILD"
if [ $NO_BUILD -eq 0 ]; then
  for tool in "$NVCC" nm readelf objdump c++filt; do
    command -v "$tool" > /dev/null || { echo "adversarial: $tool is not available" >&2; exit 2; }
  done
  [ -f "$INSPECT" ] || { echo "adversarial: $INSPECT is missing: the build's inspection cannot run" >&2; exit 2; }
  if [ ! -f "$LIBRUNNER" ]; then
    echo "adversarial: $LIBRUNNER is missing; making it (ARCH=$ARCH)" >&2
    make "$LIBRUNNER" "ARCH=$ARCH" > "$BUILD/librunner.log" 2>&1 || { cat "$BUILD/librunner.log" >&2; exit 2; }
  fi
  todo=()
  for n in "${NAMES[@]}"; do up_to_date "$n" || todo+=("$n"); done
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
  if [ "$lines" -eq 1 ]; then
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
    *) GOT+=" (the table's '$want' is not a verdict)"; return 1 ;;
  esac
}

# What a verdict of the table means, for a FAIL line.
describe() {
  case $1 in
    pass) echo "exit 0, ok=1, wrong in 0 calls" ;;
    slow:*) echo "exit 0, ok=1, and its fastest sample at least ${1#slow:} ms a call (the work it left running counted)" ;;
    wrong-all) echo "exit 0, ok=0, wrong in every call ('wrong in' on stderr)" ;;
    wrong-but-first) echo "exit 0, ok=0, wrong in every call but the first ('wrong in' on stderr)" ;;
    exit5:*) echo "exit 5, no result line, stderr matching /${1#exit5:}/" ;;
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
  if [ "$(assignment_of "$name")" = 04-large-scan ]; then cases=("${CASES_04[@]}"); else cases=("${CASES_05[@]}"); fi
  mapfile -t wants <<< "${WANT_CASES[$name]}"
  summary=""
  bad=""
  for i in "${!cases[@]}"; do
    read -r variant kase <<< "${cases[i]}"
    w=${wants[i]:-}
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

#!/usr/bin/env bash
# grade-all-hostile.sh COURSE: make grade-all against hostile submissions and bad settings, on
# a copy of the course whose tools are built (test_instructor.c's test_grade_all), without a GPU.
# Each step prints PASS or FAIL; exit 0 when every step passed. Steps:
#   1. bad SCANLAB_SEED (text, 2^53), GPUS, BACKEND: refused with one line, no run folder made;
#   2. hostile submissions (subs3/), all to the first assignment (the first assignments/*/grade.conf,
#      A below, and its `student =` file, F): an assignment folder that links to the course's
#      solutions/A, a relative and an absolute #include of the solution, students named
#      like the run's own files (rows, students, gradebook.csv) holding a symbolic link
#      named with a comma and quotes or a FIFO: each rejected (or 0 points) with the reason
#      in its row, the run's own files intact (COURSE/hostile-book.csv is the gradebook, for
#      the C test to parse as RFC 4180);
#   3. a damaged roster on RUN= (a blank line, ../../victim, a name twice, x/y) in copies of a
#      run of one student: refused, nothing removed;
#   4. Ctrl-C while two students' builds hang (GPUS=0,1): every process of them ends, the work
#      copies are removed, and RUN= grades both afterwards.
set -u
cd "${1:?usage: grade-all-hostile.sh COURSE}" || exit 2
course=$(pwd -P)
export SCANLAB_NO_GPU=1 ARCH=sm_75
unset SCANLAB_SEED GRADE_SEED GPUS BACKEND RUN
failed=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }
runs() { ls -d grade-results/all-* 2> /dev/null | wc -l; }
latest() { ls -d grade-results/all-* | sort | tail -1; }
# The assignment every submission here is to, from the folders: its name, number and student file.
conf=$(ls assignments/*/grade.conf | head -1)
A=${conf#assignments/} && A=${A%%/*}
N=${A:0:2}
F=$(sed -n 's/^student *= *//p' "$conf")
[ -n "$F" ] || { echo "FAIL $conf: no 'student =' file"; exit 1; }
mkdir -p "subs0/alice/$A" && cp "starter/$A/$F" "subs0/alice/$A/"

# 1. Settings are checked before anything is built or a run folder made.
check_refused() { # ENV... -- WANT
  local env=() before log=refused.log
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  before=$(runs)
  env "${env[@]}" make grade-all SUBMISSIONS=subs0/ A=$N > "$log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$2" "$log" && [ "$(runs)" = "$before" ] && ! grep -q '^\[' "$log"; then
    pass "${env[*]}: refused before a run folder ($2)"
  else
    fail "${env[*]}: exit $rc, $(($(runs) - before)) new run folder(s): $(tr '\n' ' ' < "$log" | cut -c1-300)"
  fi
}
check_refused SCANLAB_SEED=abc -- "make grade-all: SCANLAB_SEED=abc: not an unsigned integer below 2^53"
check_refused SCANLAB_SEED=9007199254740992 -- "SCANLAB_SEED=9007199254740992: not an unsigned integer below 2^53"
check_refused GRADE_SEED=-1 -- "SCANLAB_SEED=-1: not an unsigned integer below 2^53"
check_refused GPUS=0,x -- "GPUS=0,x: 'x' is not a GPU number"
check_refused BACKEND=frob -- "BACKEND=frob: not local or slurm"
check_refused GPUS=0 BACKEND=slurm -- "GPUS= is for BACKEND=local"

# 2. Hostile submissions.
mkdir -p subs3/mallory/$A subs3/trudy/$A subs3/eve subs3/rows/$A subs3/students/$A \
  subs3/gradebook.csv/$A
ln -s "$course/solutions/$A" subs3/eve/$A
printf '#include "../../../../solutions/%s/%s"\n' "$A" "$F" > "subs3/mallory/$A/$F"
printf '#include "%s/solutions/%s/%s"\n' "$course" "$A" "$F" > "subs3/trudy/$A/$F"
ln -s ../../x "subs3/rows/$A/a,\"b\".cu"
mkfifo subs3/students/$A/$F
ln -s /etc/passwd subs3/gradebook.csv/$A/$F
make grade-all SUBMISSIONS=subs3/ A=$N STUDENT_TIMEOUT=120 > hostile.log 2>&1
rc=$?
run=$(latest)
cp "$run/gradebook.csv" hostile-book.csv 2> /dev/null
expect_row() { # STUDENT TEXT: the student's row holds TEXT
  if grep -q "^$1,.*$(printf '%s' "$2" | sed 's/[]\/$*.^[]/\\&/g')" "$run/gradebook.csv" 2> /dev/null; then pass "$1: $2"
  else fail "$1: no '$2' in its row: $(grep "^$1," "$run/gradebook.csv" 2> /dev/null)"; fi
}
[ $rc -eq 0 ] && [ -f "$run/plan" ] && [ -f "$run/students" ] && [ -d "$run/rows" ] && [ -f "$run/gradebook.csv" ] &&
  [ "$(wc -l < "$run/gradebook.csv")" -eq 7 ] && pass "hostile run: exit 0, its own files intact, 6 rows" ||
  fail "hostile run: exit $rc; $(ls -F "$run" | tr '\n' ' '); $(tail -3 hostile.log | tr '\n' ' ')"
expect_row eve "rejected: a symbolic link in the submission: $A -> $course/solutions/$A"
expect_row mallory "0.00,0.00,100.00"
expect_row mallory "$A: does not compile"
expect_row trudy "rejected: $A: its build read $course/solutions/$A/$F, a file outside the submission"
expect_row students "rejected: not a plain file or folder in the submission: $A/$F"
expect_row gradebook.csv "rejected: a symbolic link in the submission: $A/$F -> /etc/passwd"
RUN=$run make grade-all A=$N > resume0.log 2>&1 && grep -q "resuming $run (0 of 6 student(s) without a result" resume0.log &&
  cmp -s hostile-book.csv "$run/gradebook.csv" && pass "RUN= of the hostile run: nothing to grade, the same gradebook" ||
  fail "RUN= of the hostile run: $(tr '\n' ' ' < resume0.log | cut -c1-300)"

# 3. A damaged roster is refused on RUN= before anything is graded or removed: copies of a
# run of one student (alice, the starter), each with its roster rewritten.
mkdir -p victim && touch victim/keep
make grade-all SUBMISSIONS=subs0/ A=$N STUDENT_TIMEOUT=120 > clean.log 2>&1 || fail "a run of alice alone: exit $? ($(tail -1 clean.log))"
run=$(latest)
damaged() { # NAME AWK-PROGRAM WANT: a copy of the run with its roster rewritten by the program
  local copy=grade-results/all-damaged-$1
  rm -rf "$copy" && cp -r "$run" "$copy" && awk "$2" "$run/students" > "$copy/students"
  local n_rows n_results
  n_rows=$(ls "$copy/rows" | wc -l) n_results=$(ls "$copy/results" | wc -l)
  RUN=$copy make grade-all A=$N > "damaged-$1.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$3" "damaged-$1.log" && [ -f victim/keep ] && [ "$(ls "$copy/rows" | wc -l)" = "$n_rows" ] &&
    [ "$(ls "$copy/results" | wc -l)" = "$n_results" ] && cmp -s "$copy/gradebook.csv" "$run/gradebook.csv"; then
    pass "roster with $1: refused, nothing removed"
  else
    fail "roster with $1: exit $rc; $(tr '\n' ' ' < "damaged-$1.log" | cut -c1-300)"
  fi
}
damaged blank 'NR == 1 { print "" } { print }' "/students:1: '' is not a student's name"
damaged dotdot '{ print } END { print "../../victim" }' "/students:2: '../../victim' is not a student's name"
damaged twice '{ print } NR == 1 { print }' "/students:2: alice is listed twice (line 1 too)"
damaged slash '{ print } END { print "x/y" }' "/students:2: 'x/y' is not a student's name"
rm -rf grade-results/all-damaged-*

# 4. Ctrl-C (SIGINT to the make's process group, as a terminal sends it) while carol's and
# dave's builds hang on a FIFO, one worker per GPU number (GPUS=0,1: the workers are
# background jobs, which a plain SIGINT does not reach): no process is left working in a copy
# of the course (none whose current folder is under COURSE/build, where the work copies once
# were, or under the work folder), the work copies are gone, and RUN= grades both once their
# files are fixed.
leftover() {
  local p c
  for p in /proc/[0-9]*; do
    c=$(readlink "$p/cwd" 2> /dev/null) || continue
    case $c in "$course"/build/* | "$work" | "$work"/*) printf '%s(%s) ' "${p#/proc/}" "$(tr '\0' ' ' < "$p/cmdline" | cut -c1-60)" ;; esac
  done
}
work=$(mktemp -d "${TMPDIR:-/tmp}/grade-all-int.XXXXXX")
mkdir -p subs4/carol/$A subs4/dave/$A && mkfifo int.fifo
printf '#include "%s/int.fifo"\n' "$course" > subs4/carol/$A/$F
cp subs4/carol/$A/$F subs4/dave/$A/
set -m
TMPDIR=$work GPUS=0,1 make grade-all SUBMISSIONS=subs4/ A=$N STUDENT_TIMEOUT=300 > int.log 2>&1 &
pg=$!
set +m
# Until the gradings have begun (make grade runs in the copies).
for _ in $(seq 240); do [ "$(leftover | grep -o "make grade A=$N" | wc -l)" -ge 2 ] && break; sleep 0.5; done
sleep 5 # the compilers are now blocked opening the FIFO
kill -INT -- "-$pg"
wait "$pg"
rc=$?
sleep 2
int_run=$(latest)
left=$(leftover)
for _ in 1 2; do timeout 3 sh -c 'echo > int.fifo' 2> /dev/null; done # frees a compiler left blocked on the FIFO
if [ -z "$left" ]; then
  pass "Ctrl-C: every process of both gradings ended with the run (exit $rc)"
else
  fail "Ctrl-C: still running after the interrupt: $left"
fi
[ $rc -ne 0 ] && grep -q "grade-all: interrupted (SIGINT): RUN=$int_run grades the students without a result" int.log &&
  [ -z "$(ls -A "$work")" ] && [ ! -e "$int_run/rows/carol.csv" ] && [ ! -e "$int_run/rows/dave.csv" ] &&
  pass "Ctrl-C: says how to resume, no row, no work copy left" ||
  fail "Ctrl-C: $(ls -A "$work" | tr '\n' ' '); $(tr '\n' ' ' < int.log | cut -c1-300)"
cp starter/$A/$F subs4/carol/$A/$F
cp starter/$A/$F subs4/dave/$A/$F
RUN=$int_run make grade-all A=$N > int2.log 2>&1 && grep -q '^carol,0.00,' "$int_run/gradebook.csv" &&
  grep -q '^dave,0.00,' "$int_run/gradebook.csv" && grep -q "resuming $int_run (2 of 2 student(s) without a result" int2.log &&
  pass "Ctrl-C: RUN= graded carol and dave afterwards" || fail "Ctrl-C, resumed: $(tr '\n' ' ' < int2.log | cut -c1-300)"
rm -rf "$work"
exit $failed

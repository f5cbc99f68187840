#!/usr/bin/env bash
# grade-all-backends.sh COURSE: make grade-all's backends on a copy of the course (made by
# test_instructor.c's test_grade_all, whose COURSE/subs2/ holds three students: alice the
# solution, bob a file that does not compile, dave the starter), without a GPU: they are graded
# one after another (the gradebook every backend must give, but for its seconds column),
# then with GPUS=0,1 (one worker per GPU number: both used, the same gradebook), then
# through a real single-node Slurm cluster (tests/slurm-cluster.sh): submitted
# with WAIT=0, one task cancelled while it waits, the run waited for and merged (that
# student's row says it never ran, or CANCELLED where Slurm keeps accounting), then resumed with RUN= (only that student is graded)
# to the same gradebook. The daemons are stopped however it ends. Prints one line per
# step, PASS or FAIL; exit 0 when every step passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "${1:?usage: grade-all-backends.sh COURSE}" || exit 2
export SCANLAB_NO_GPU=1 ARCH=sm_75 POLL=1
failed=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failed=1; }
# The gradebook without its seconds column (the next to last), for comparing runs.
book() { awk -F, 'BEGIN { OFS = "," } { $(NF - 1) = ""; print }' "$1"; }
latest() { ls -d grade-results/all-* | sort | tail -1; }
# The assignment subs2/ holds (test_grade_all's): the first assignments/*/grade.conf's.
conf=$(ls assignments/*/grade.conf | head -1)
a=${conf#assignments/} && a=${a%%/*}

# 1. One after another.
make grade-all SUBMISSIONS=subs2/ A=${a:0:2} STUDENT_TIMEOUT=120 > seq.log 2>&1 || { fail "sequential: exit $? ($(tail -1 seq.log))"; exit 1; }
seq_run=$(latest)
book "$seq_run/gradebook.csv" > want.csv
[ "$(wc -l < want.csv)" -eq 4 ] && pass "sequential: 3 rows" || fail "sequential: $(cat want.csv)"

# 2. One worker per GPU number.
make grade-all SUBMISSIONS=subs2/ A=${a:0:2} STUDENT_TIMEOUT=120 GPUS=0,1 > gpus.log 2>&1 || fail "GPUS=0,1: exit $? ($(tail -1 gpus.log))"
gpus_run=$(latest)
if [ "$gpus_run" != "$seq_run" ] && cmp -s want.csv <(book "$gpus_run/gradebook.csv"); then pass "GPUS=0,1: the same gradebook"; else fail "GPUS=0,1: gradebook differs: $(diff want.csv <(book "$gpus_run/gradebook.csv") | tr '\n' ' ')"; fi
used=$(cat "$gpus_run"/results/*/gpu 2> /dev/null | sort -u | tr '\n' ' ')
[ "$used" = "0 1 " ] && pass "GPUS=0,1: both workers graded ($used)" || fail "GPUS=0,1: GPUs used '$used', want '0 1 '"
grep -q '^grade-all: 3 student(s) on GPUs 0 1' gpus.log && pass "GPUS=0,1: says so" || fail "GPUS=0,1: no plan line: $(head -3 gpus.log | tr '\n' ' ')"

# 3. Slurm.
cluster=$PWD/slurm-cluster
conf=$(bash "$here/slurm-cluster.sh" start "$cluster" 2> cluster.err) || { fail "slurm: the cluster did not start: $(cat cluster.err)"; exit 1; }
trap 'bash "$here/slurm-cluster.sh" stop "$cluster"' EXIT
export SLURM_CONF=$conf
cores=$(nproc)
make grade-all SUBMISSIONS=subs2/ A=${a:0:2} STUDENT_TIMEOUT=120 BACKEND=slurm SLURM_GRES= SLURM_CPUS="$cores" WAIT=0 > slurm1.log 2>&1 ||
  fail "slurm, WAIT=0: exit $? ($(tail -1 slurm1.log))"
job=$(sed -n 's/^grade-all: Slurm job \([0-9]*\):.*/\1/p' slurm1.log | head -1)
slurm_run=$(latest)
if [ -n "$job" ] && [ "$slurm_run" != "$gpus_run" ]; then
  scancel "${job}_2" && pass "slurm: array $job submitted, task 2 cancelled" || fail "slurm: scancel ${job}_2"
else
  fail "slurm: no job id: $(cat slurm1.log | tr '\n' ' ')"
fi
# The same A= as on the first call (a resumed run takes the plan's assignments, but make builds the references A names).
slurm=(BACKEND=slurm A=${a:0:2} SLURM_GRES= SLURM_CPUS="$cores")
RUN=$slurm_run make grade-all "${slurm[@]}" > slurm2.log 2>&1
rc=$?
grep -q "still queued: waiting for it" slurm2.log && grep -q 'graded 2 of 3, running 0, pending 0, failed 1' slurm2.log &&
  pass "slurm: waited for the queued array, 2 graded, 1 failed" || fail "slurm: waiting: $(tr '\n' ' ' < slurm2.log)"
[ $rc -ne 0 ] && grep -Eq "^dave,.*not graded: Slurm job ${job}_2 (ended CANCELLED|never ran)" "$slurm_run/gradebook.csv" &&
  pass "slurm: the cancelled student's row says why (exit $rc)" || fail "slurm: exit $rc, gradebook: $(tr '\n' ' ' < "$slurm_run/gradebook.csv")"
RUN=$slurm_run make grade-all "${slurm[@]}" > slurm3.log 2>&1 || fail "slurm, resumed: exit $? ($(tail -1 slurm3.log))"
grep -q "resuming $slurm_run: 2 of 3 graded already, grading 1" slurm3.log && pass "slurm: resumed, grading only the one without a result" ||
  fail "slurm: resume: $(tr '\n' ' ' < slurm3.log)"
cmp -s want.csv <(book "$slurm_run/gradebook.csv") && pass "slurm: the same gradebook as one after another" ||
  fail "slurm: gradebook differs: $(diff want.csv <(book "$slurm_run/gradebook.csv") | tr '\n' ' ')"
exit $failed

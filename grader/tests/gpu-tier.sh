#!/usr/bin/env bash
# gpu-tier.sh [--no-common | --common-only] [ASSIGNMENT...]: the GPU test tier (`make test-gpu`).
#
# Runs on a machine with a CUDA GPU, from a build made elsewhere by
# `make test-gpu-build` (the GPU host needs nvcc's runtime pieces and
# compute-sanitizer, not Check, inih or gnuplot). For each assignment:
#   1. the solutions are graded at full marks (grade --src solutions --expect);
#   2. the starter fails exactly the checks its grade.conf marks
#      expect_starter = fail, and passes those marked pass;
#   3. every reference case verifies (the reference run with --check on its
#      whole case table);
#   4. compute-sanitizer memcheck is clean on every variant of the solution.
# Then each assignment's extras (assignments/NN-name/tests/gpu-tier.sh, which defines
# extra_<assignment>). Then lecture 03's experiment must agree with the bank-conflict count,
# lecture 01's litmus test must see no stale read where fences forbid one, lecture
# 06's examples must verify every version (the scan versions in order), the GPU
# faults of every assignment (assignments/NN-name/tests/gpu-faults/<fault>/: a solution with
# one fault, built by make gpu-faults) must give the verdicts in their expect.tsv, and the
# adversarial suite (grader/tests/adversarial.sh --run) every verdict of its tables.
# Prints PASS/FAIL lines and a summary; exits 1 on any failure.
set -u
cd "$(dirname "$0")/../.."
GRADE=build/grader/grade
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
SAN=$CUDA_HOME/bin/compute-sanitizer
TMP=$(mktemp -d /tmp/scanlab-gpu-tier-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
ok() { echo "PASS  $*"; passed=$((passed + 1)); }
bad() { echo "FAIL  $*"; failed=$((failed + 1)); }

for f in "$GRADE" build/grader/judge build/tools/gpuinfo; do
  [ -x "$f" ] || { echo "gpu-tier: $f is missing: run 'make test-gpu-build' (on a machine with Check and inih) first" >&2; exit 2; }
done
if ! build/tools/gpuinfo >/dev/null; then
  echo "gpu-tier: $(build/tools/gpuinfo)" >&2
  exit 2
fi

# Which parts run: the assignments' checks and the common ones (lectures, GPU
# faults); a host that limits one command to 10 minutes needs them in separate
# calls (--no-common 01 02 03, --no-common 04 05, --common-only).
run_assignments=1
run_common=1
while [ $# -gt 0 ]; do
  case $1 in
    --no-common) run_common=0 ;;
    --common-only) run_assignments=0 ;;
    -*) echo "gpu-tier: unknown option '$1' (--no-common, --common-only)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done

# Assignment folders: all of them, or those named (NN or NN-name).
assignments=()
for d in assignments/*/grade.conf; do
  a=$(basename "$(dirname "$d")")
  if [ $# -eq 0 ]; then assignments+=("$a"); continue; fi
  for want in "$@"; do
    case "$a" in "$want" | "$want"-*) assignments+=("$a") ;; esac
  done
done
[ ${#assignments[@]} -gt 0 ] || { echo "gpu-tier: no assignment matches: $*" >&2; exit 2; }

echo "== Scan Lab GPU tier, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "GPU:     $(build/tools/gpuinfo)"
echo "Driver:  $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
echo "nvcc:    $("$CUDA_HOME/bin/nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' || echo 'not found')"
echo "sanitizer: $("$SAN" --version 2>/dev/null | grep -o 'Version [0-9.]*' | head -1 || echo 'not found')"
echo "build:   $(cat build/.gencode 2>/dev/null)"

# Variants and cases of a runner, from its --list.
# (--list is a machine format: docs/grading.md; copy_d2d is the driver's copy row, not student code)
variants() { "$1" --list | awk '$1 == "variant" && $2 != "copy_d2d" {print $2}'; }
cases() { "$1" --list | awk '$1 == "case" {print $2}'; }

# ---------------------------------------------------------------- per-assignment extras
# What only one assignment checks is in its own folder, assignments/NN-name/tests/gpu-tier.sh:
# it defines extra_<assignment> (run below, after the common checks) and may use ok, bad,
# TMP, CUDA_HOME and SAN.
for extra in assignments/*/tests/gpu-tier.sh; do
  [ -f "$extra" ] || continue
  # shellcheck source=/dev/null
  source "$extra"
done

[ $run_assignments = 1 ] || assignments=()
for a in "${assignments[@]}"; do
  echo
  echo "== $a"
  ref=assignments/$a/ref/reference
  for src in solutions starter; do
    out=$TMP/$src-$a
    t0=$(date +%s.%N)
    # --no-build: grade the build test-gpu-build made (carried here without objects), after
    # checking it was made from the files of this checkout; nothing is compiled here.
    "$GRADE" --no-build --src "$src" --expect --cuda "$CUDA_HOME" --results "$out" "$a" > "$out.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    sed 's/^/    /' "$out.log"
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
    if [ "$src" = solutions ]; then
      total=$(grep -o 'Total: [0-9.]* / [0-9.]*' "$out.log")
      # Full marks: every check passes. A metric check may instead be ungraded
      # where ncu may not read the counters; that is said, not hidden.
      tsv=$out/latest/results.tsv
      short=$(awk -F'\t' 'NR > 1 && $4 != "pass" && !($3 == "metric" && $4 == "ungraded") {print $2 " " $4}' "$tsv" 2>/dev/null | paste -sd, -)
      skipped=$(awk -F'\t' 'NR > 1 && $3 == "metric" && $4 == "ungraded" {print $2 ": " $10}' "$tsv" 2>/dev/null | paste -sd, -)
      if [ $rc -eq 0 ] && [ -s "$tsv" ] && [ -z "$short" ]; then
        ok "$a: solutions graded at full marks ($total, ${secs} s)${skipped:+; NOTE: $skipped}"
      else bad "$a: solutions not at full marks (exit $rc, $total; ${short:-no results.tsv})"; fi
    else
      if [ $rc -eq 0 ]; then ok "$a: starter fails exactly where grade.conf expects (${secs} s)"
      else bad "$a: starter verdicts differ from expect_starter (exit $rc)"; fi
    fi
  done

  # Every reference case verifies.
  n_cases=$(cases "$ref" | wc -l)
  for v in $(variants "$ref"); do
    good=$("$ref" --variant "$v" --check --reps 1 --warmup 0 2>"$TMP/ref.err" | grep -c ' ok=1 ')
    if [ "$good" -eq "$n_cases" ]; then ok "$a: reference variant $v verifies on all $n_cases cases"
    else bad "$a: reference variant $v verifies $good of $n_cases cases: $(tail -1 "$TMP/ref.err")"; fi
  done

  # What only this assignment has (functions below, named extra_<assignment>).
  if declare -F "extra_$a" > /dev/null; then "extra_$a"; fi

  # memcheck on every solution variant, on the smallest cases of the table.
  small=$(cases "$ref" | head -3 | paste -sd, -)
  for v in $(variants "$ref"); do
    # The judge starts the runner under memcheck (the tool after --).
    if build/grader/judge --assignment "$a" --runner "$ref" --variant "$v" --case "$small" --reps 1 --warmup 0 \
      -- "$SAN" --tool memcheck --error-exitcode 99 --print-limit 5 > "$TMP/memcheck.log" 2>&1; then
      ok "$a: memcheck clean on solution variant $v (cases $small)"
    else bad "$a: memcheck on solution variant $v: $(grep -m1 '=========' "$TMP/memcheck.log")"; fi
  done
done

if [ $run_common = 1 ]; then
# Lecture examples: lecture 03's experiment must show the time of a strided
# shared-memory load growing with the passes the CPU count predicts (within 10%).
echo
echo "== lectures"
if [ -x build/lectures/bank_stride ]; then
  if build/lectures/bank_stride > "$TMP/bank-stride.csv" 2> "$TMP/bank-stride.err"; then
    sed 's/^/    /' "$TMP/bank-stride.csv"
    off=$(awk -F, '$1 ~ /^[0-9]+$/ && ($4 < 0.9 * $2 || $4 > 1.1 * $2) {print "stride " $1 ": " $4 "x, model " $2}' "$TMP/bank-stride.csv" | paste -sd, -)
    rows=$(grep -c '^[0-9]' "$TMP/bank-stride.csv")
    if [ "$rows" -gt 0 ] && [ -z "$off" ]; then ok "lecture 03: bank_stride's times follow the bank-conflict count on all $rows strides"
    else bad "lecture 03: bank_stride disagrees with the bank-conflict count: ${off:-no rows}"; fi
  else bad "lecture 03: bank_stride failed: $(tail -1 "$TMP/bank-stride.err")"; fi
fi

# Lecture 01's litmus test: with fences, or with release and acquire, no reader
# may see the flag without the data. (The unfenced counts are printed, not
# judged: the outcome is allowed there, and rare.)
if [ -x build/lectures/mp_litmus ]; then
  if build/lectures/mp_litmus > "$TMP/mp-litmus.csv" 2> "$TMP/mp-litmus.err"; then
    sed 's/^/    /' "$TMP/mp-litmus.csv"
    bad_rows=$(awk -F, '($1 == "fences" || $1 == "release_acquire") && ($6 != 0 || $2 != 819200) {print $1 ": " $6 " of " $2}' "$TMP/mp-litmus.csv" | paste -sd, -)
    n_ok=$(awk -F, '$1 == "fences" || $1 == "release_acquire"' "$TMP/mp-litmus.csv" | wc -l)
    if [ "$n_ok" -eq 2 ] && [ -z "$bad_rows" ]; then ok "lecture 01: mp_litmus: no stale read with fences or release/acquire (2 x 819200 trials)"
    else bad "lecture 01: mp_litmus: stale reads where fences forbid them: ${bad_rows:-rows missing}"; fi
  else bad "lecture 01: mp_litmus failed: $(tail -1 "$TMP/mp-litmus.err")"; fi
fi

# Lecture 06's examples: every version verified, the scan versions in order,
# every row there (tests/lecture06-judge.sh, which the unit tests also
# run on the measured CSVs).
for ex in app_compact app_radix_sort app_binning; do
  [ -x "build/lectures/$ex" ] || { bad "lecture 06: build/lectures/$ex missing (make lectures)"; continue; }
  if "build/lectures/$ex" > "$TMP/$ex.csv" 2> "$TMP/$ex.err"; then
    sed 's/^/    /' "$TMP/$ex.csv"
    if verdict=$(bash tests/lecture06-judge.sh "$ex" "$TMP/$ex.csv"); then ok "lecture 06: $verdict"
    else bad "lecture 06: $verdict"; fi
  else bad "lecture 06: $ex failed: $(tail -1 "$TMP/$ex.err")"; fi
done

# GPU faults: each is a solution with one fault; the grader must give the
# expected verdict and reason, and still finish and write results.json.
for dir in assignments/*/tests/gpu-faults/*/; do
  [ -d "$dir" ] || continue
  fault=$(basename "$dir")
  a=${dir#assignments/}
  a=${a%%/*}
  bin=build/gpu-faults/$fault/$a/runner
  [ -x "$bin" ] || { bad "gpu fault $fault: $bin missing (make test-gpu-build)"; continue; }
  root=$TMP/fault-$fault
  mkdir -p "$root"
  t0=$(date +%s)
  # the fault's own build (make gpu-faults: the folder it assembles, built by grade --build-only --dir --out)
  # (--no-inspect where the fault is a probe of the sandbox that the inspection would refuse: its no-inspect file says why)
  noinspect=(); [ ! -f "${dir}no-inspect" ] || noinspect=(--no-inspect)
  "$GRADE" --no-build "${noinspect[@]}" --dir "build/gpu-faults/$fault/$a/src" --out "build/gpu-faults/$fault/$a" --results "$root/results" --cuda "$CUDA_HOME" \
    --timeout-scale 0.25 "$a" > "$root/log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - t0 ))
  sed 's/^/    /' "$root/log"
  tsv=$root/results/latest/results.tsv
  [ -s "$tsv" ] || { bad "gpu fault $fault: no results.tsv (grader exit $rc)"; continue; }
  while IFS=$'\t' read -r check verdict reason; do
    case "$check" in ''|'#'*) continue ;; esac
    got=$(awk -F'\t' -v c="$check" '$2 == c {print $4}' "$tsv")
    line=$(grep -F "] $check " "$root/log" | tail -1)
    if [ "$got" = "$verdict" ] && { [ -z "$reason" ] || grep -qF "$reason" <<< "$line"; }; then
      ok "gpu fault $fault: $a/$check is $verdict${reason:+ ($reason)}, grading took ${secs} s"
    else bad "gpu fault $fault: $a/$check is '$got', want $verdict${reason:+ with '$reason'}"; fi
  done < "${dir}expect.tsv"
  # memcheck.txt (VARIANT CASE TEXT): memcheck itself, run through the judge on
  # the fault's runner, must name the fault (the grader does not run memcheck
  # once the correctness check it requires has failed).
  if [ -f "${dir}memcheck.txt" ]; then
    read -r mv mc mtext < "${dir}memcheck.txt"
    build/grader/judge --assignment "$a" --runner "$bin" --variant "$mv" --case "$mc" --reps 1 --warmup 0 \
      -- "$SAN" --tool memcheck --error-exitcode 99 --print-limit 5 > "$TMP/fault-memcheck.log" 2>&1
    mrc=$?
    if [ $mrc -eq 99 ] && grep -qF "$mtext" "$TMP/fault-memcheck.log"; then
      ok "gpu fault $fault: memcheck on $mv $mc reports '$mtext'"
    else bad "gpu fault $fault: memcheck on $mv $mc exits $mrc, want 99 and '$mtext': $(grep -m1 '=========' "$TMP/fault-memcheck.log")"; fi
  fi
done

# The adversarial suite (grader/tests/adversarial.sh): real student files that try
# to score without the work, each with the verdict it must get; built with
# `make test-gpu-build`, run here through the judge.
echo
echo "== adversarial suite"
if [ -d build/adversarial ]; then
  bash grader/tests/adversarial.sh --run --no-build > "$TMP/adversarial.log" 2>&1
  rc=$?
  sed 's/^/    /' "$TMP/adversarial.log"
  summary=$(tail -1 "$TMP/adversarial.log")
  if [ $rc -eq 0 ]; then ok "adversarial suite: $summary"; else bad "adversarial suite: $summary"; fi
else
  bad "adversarial suite: build/adversarial missing (make test-gpu-build)"
fi

fi # run_common

echo
echo "== GPU tier: $passed passed, $failed failed"
[ $failed -eq 0 ]

#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS [A] [STUDENT_TIMEOUT]: make grade-all. Grades one folder per
# student (SUBMISSIONS/<student>/NN-name/FILE, shaped like starter/), all with the same
# seed, each in its own copy of the course under build/, so that one broken or hostile
# submission costs only its own row. Each student's run has a wall-clock limit
# (STUDENT_TIMEOUT seconds, default 1800): a run past it is stopped and scores 0 with
# the reason. Where the students are graded (docs/instructor-guide.md, "Grading a class"):
#   BACKEND=local (default)  on this host: one student after another, or with GPUS=0,1,...
#                            one worker per GPU, each pinned with CUDA_VISIBLE_DEVICES, so
#                            no two students ever share a GPU (perf checks must not)
#   BACKEND=slurm            one Slurm job per student, as a job array, each asking for one
#                            GPU (SLURM_GRES, default gpu:1; empty: none) on SLURM_PARTITION
#                            and SLURM_ACCOUNT (when set) for SLURM_TIME (default: the
#                            student's limit plus 10 minutes), SLURM_CPUS cores; WAIT=1
#                            (default) waits for the array, printing graded, running,
#                            pending and failed, and merges the gradebook; WAIT=0 returns
#                            once the array is submitted. The course folder must be on a
#                            file system the nodes share.
# A run lives in grade-results/all-<stamp>/: plan (the submissions, assignments, limit
# and seed), students, rows/<student>.csv (one per student graded), <student>/ (the
# grader's results folder, make.log, each assignment's build.log), gradebook.csv:
#   student,<one column per assignment>,total,max,seconds,failures
# RUN=grade-results/all-<stamp> resumes a run: it grades only the students without a row
# (a failed, preempted or cancelled job leaves none), and says so; with BACKEND=slurm
# and the run's array still queued, it waits for it instead. A student without a row
# gets one in the gradebook anyway, with 0 points and the reason.
#   grade-all.sh --task RUN INDEX   grade student INDEX (from 0) of RUN/students (a Slurm array task)
# Exit: 0; 1 when a folder was rejected (its name is not a safe path component) or a
# student has no result; 2 bad usage.
set -u

die() { echo "make grade-all: $*" >&2; exit 2; }

# ------------------------------------------------------------------ one student

# The course as make grade needs it, with this student's files in starter/. A file
# the student lacks becomes one that stops the build naming it (scored 0).
prepare() {
  local student=$1 work=$2 a f name
  mkdir -p "$work/build" "$work/starter"
  cp -rp Makefile mk grader assignments "$work/"
  cp -rp build/lib build/grader build/tools build/.gencode "$work/build/"
  for a in "${assignments[@]}"; do
    mkdir -p "$work/starter/$a"
    for f in starter/"$a"/*; do
      name=$(basename "$f")
      if [ -f "$subs/$student/$a/$name" ] && [ ! -L "$subs/$student/$a/$name" ]; then
        cp "$subs/$student/$a/$name" "$work/starter/$a/$name"
      else
        printf '#error "%s/%s is not in this submission"\n' "$a" "$name" > "$work/starter/$a/$name"
      fi
    done
  done
}

# Grades one student into $run/<student>/ and writes $run/rows/<student>.csv
# (atomically: a row is there only when the grading finished). Prints one line.
grade_student() {
  local student=$1 work dest rc t0 a c fail_text total max
  work=$(mktemp -d "$PWD/build/grade-all.XXXXXX") || die "cannot create a work folder under build/"
  dest=$run/$student
  rm -rf "$dest"
  prepare "$student" "$work"
  t0=$SECONDS
  # timeout signals its whole process group (make, nvcc, the grader) at the limit.
  (cd "$work" && unset GRADE_SEED && SCANLAB_SEED=$seed NO_COLOR=1 timeout -k 10 "$limit" make grade ${only:+A=$only} < /dev/null > make.log 2>&1)
  rc=$?
  if [ -L "$work/grade-results/latest" ]; then
    mv "$work/grade-results/$(readlink "$work/grade-results/latest")" "$dest"
  else
    mkdir -p "$dest"
  fi
  cp "$work/make.log" "$dest/make.log"
  for a in "${assignments[@]}"; do
    [ -f "$work/build/starter/$a/build.log" ] && cp "$work/build/starter/$a/build.log" "$dest/$a.build.log"
  done
  [ -n "${CUDA_VISIBLE_DEVICES+set}" ] && echo "$CUDA_VISIBLE_DEVICES" > "$dest/gpu"

  local failures=() scores=()
  total=0.00
  max="" # unknown when nothing was graded
  if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ ! -f "$dest/results.tsv" ]; then
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && failures+=("timed out after $limit s: not graded") ||
      failures+=("not graded: make grade exited $rc before writing results (make.log)")
    for a in "${assignments[@]}"; do scores+=(0.00); done
  else
    for a in "${assignments[@]}"; do
      scores+=("$(awk -F'\t' -v a="$a" '$1 == a { s += $5 } END { printf "%.2f", s }' "$dest/results.tsv")")
      if [ ! -x "$work/build/starter/$a/runner" ]; then
        failures+=("$a: does not compile")
      else
        while IFS= read -r c; do failures+=("$a/$c"); done < <(awk -F'\t' -v a="$a" '$1 == a && ($4 == "fail" || $4 == "error" || $4 == "partial") { print $2 }' "$dest/results.tsv")
      fi
    done
    read -r total max < <(awk -F'\t' '$5 ~ /^[0-9.]+$/ { s += $5; m += $6 } END { printf "%.2f %.2f\n", s, m }' "$dest/results.tsv")
  fi
  fail_text=$(IFS=';'; echo "${failures[*]:-}" | sed 's/;/; /g; s/"/""/g')
  row "$student" "$(printf ',%s' "${scores[@]}")" "$total" "$max" $((SECONDS - t0)) "$fail_text" > "$run/rows/.$student.tmp"
  mv "$run/rows/.$student.tmp" "$run/rows/$student.csv"
  printf '%s: %s / %s in %d s%s\n' "$student" "$total" "${max:--}" $((SECONDS - t0)) "${failures:+ (${failures[0]}${failures[1]:+, ...})}"
  rm -rf "$work"
}

# One gradebook row: student, ",score,score...", total, max, seconds, failures.
row() { printf '%s%s,%s,%s,%s,"%s"\n' "$1" "$2" "$3" "$4" "$5" "$6"; }

# ------------------------------------------------------------------ the run

# Reads a run's plan (written by new_run) into the variables the grading uses.
load_plan() {
  [ -f "$run/plan" ] || die "RUN=$run has no plan: not a folder that make grade-all made"
  subs=$(sed -n 's/^submissions=//p' "$run/plan")
  only=$(sed -n 's/^only=//p' "$run/plan")
  limit=$(sed -n 's/^limit=//p' "$run/plan")
  seed=$(sed -n 's/^seed=//p' "$run/plan")
  read -r -a assignments <<< "$(sed -n 's/^assignments=//p' "$run/plan")"
  mapfile -t students < "$run/students"
}

# A new run: the assignments graded, the students (a folder name becomes a path and
# a CSV field: letters, digits, . _ - only), the seed, the plan.
new_run() {
  local conf a d name
  [ -d "$subs" ] || die "SUBMISSIONS=$subs is not a folder"
  case "$limit" in '' | *[!0-9]* | 0) die "STUDENT_TIMEOUT=$limit is not a positive whole number of seconds" ;; esac
  assignments=()
  for conf in assignments/*/grade.conf; do
    a=$(basename "$(dirname "$conf")")
    [ -z "$only" ] || [ "$a" = "$only" ] || [ "${a#"$only"-}" != "$a" ] && assignments+=("$a")
  done
  [ ${#assignments[@]} -gt 0 ] || die "A=$only matches no assignment"
  students=()
  for d in "$subs"/*; do
    name=$(basename "$d")
    if [ ! -d "$d" ] || [ -L "$d" ]; then
      echo "grade-all: skipped $(printf '%q' "$name"): not a folder" >&2
    elif [[ ! "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]]; then
      echo "grade-all: rejected $(printf '%q' "$name"): a student's folder name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit" >&2
      rejected=$((rejected + 1))
    else
      students+=("$name")
    fi
  done
  run=grade-results/all-$(date +%Y%m%d-%H%M%S)
  [ -e "$run" ] && run=$run-$$
  mkdir -p "$run/rows" || die "cannot create $run"
  if [ -z "${SCANLAB_SEED:-}" ] && [ -n "${GRADE_SEED:-}" ]; then
    echo "grade-all: warning: GRADE_SEED is the old name of SCANLAB_SEED; set SCANLAB_SEED=$GRADE_SEED instead" >&2
    SCANLAB_SEED=$GRADE_SEED
  fi
  seed=${SCANLAB_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000000))}
  subs=$(cd "$subs" && pwd)
  printf 'submissions=%s\nonly=%s\nlimit=%s\nseed=%s\nassignments=%s\n' "$subs" "$only" "$limit" "$seed" "${assignments[*]}" > "$run/plan"
  printf '%s\n' "${students[@]}" > "$run/students"
  [ ${#students[@]} -gt 0 ] || : > "$run/students"
}

# The students of the run that have no row yet.
todo() {
  local s
  for s in "${students[@]}"; do [ -f "$run/rows/$s.csv" ] || echo "$s"; done
}

# Why a student has no row: the Slurm job's end when the scheduler still knows it.
missing_reason() {
  local student=$1 index=$2 job state=""
  job=$(cat "$run/slurm/job" 2> /dev/null)
  if [ -n "$job" ] && command -v sacct > /dev/null; then
    state=$(sacct -n -X -P -j "${job}_$index" -o State 2> /dev/null | head -1 | cut -d' ' -f1)
    [[ $state =~ ^[A-Z_]+$ ]] || state="" # no accounting: sacct says so, not a state
  fi
  if [ -z "$state" ] && [ -n "$job" ] && command -v scontrol > /dev/null; then
    state=$(scontrol show job "${job}_$index" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2)
  fi
  if [ -n "$job" ]; then
    local log=$run/slurm/$index.log how
    if [ -n "$state" ]; then how="ended $state"
    elif [ -f "$log" ]; then how="ran and ended"
    else how="never ran (cancelled while it waited; the scheduler no longer knows it)"
    fi
    echo "not graded: Slurm job ${job}_$index $how and left no result${state:+ ($log)}; RUN=$run grades it again"
  else
    echo "not graded: no result (RUN=$run grades it again)"
  fi
}

# gradebook.csv from the rows, in the students' order; a student without a row gets
# 0 points and the reason. Returns 1 when a row is missing.
merge() {
  local book=$run/gradebook.csv i zeros="" missing=0 s
  for i in "${assignments[@]}"; do zeros+=",0.00"; done
  { printf 'student'; printf ',%s' "${assignments[@]}"; printf ',total,max,seconds,failures\n'; } > "$book.tmp"
  for i in "${!students[@]}"; do
    s=${students[i]}
    if [ -f "$run/rows/$s.csv" ]; then
      cat "$run/rows/$s.csv" >> "$book.tmp"
    else
      row "$s" "$zeros" 0.00 "" 0 "$(missing_reason "$s" "$i")" >> "$book.tmp"
      missing=$((missing + 1))
    fi
  done
  mv "$book.tmp" "$book"
  if [ "$missing" -gt 0 ]; then
    echo "grade-all: wrote $book ($missing student(s) without a result: RUN=$run grades them again)"
    return 1
  fi
  echo "grade-all: wrote $book"
}

# ------------------------------------------------------------------ backends

grade_local() {
  local list i=0 s
  mapfile -t list < <(todo)
  for s in "${list[@]}"; do
    i=$((i + 1))
    printf '[%d/%d] %s ... ' "$i" "${#list[@]}" "$s"
    grade_student "$s" | sed "s/^$s: //"
  done
}

# One worker per GPU; each takes the next student from a queue under a lock, so a
# fast GPU grades more students, and each GPU grades one student at a time.
grade_gpus() {
  local gpus list g n
  IFS=, read -r -a gpus <<< "$GPUS"
  for g in "${gpus[@]}"; do [[ $g =~ ^[0-9]+$ ]] || die "GPUS=$GPUS: '$g' is not a GPU number (GPUS=0,1,2,3)"; done
  [ "$(printf '%s\n' "${gpus[@]}" | sort -u | wc -l)" -eq ${#gpus[@]} ] || die "GPUS=$GPUS names a GPU twice"
  mapfile -t list < <(todo)
  printf '%s\n' "${list[@]}" > "$run/.queue"
  echo 0 > "$run/.next"
  n=${#list[@]}
  echo "grade-all: $n student(s) on GPUs ${gpus[*]}, one at a time on each"
  for g in "${gpus[@]}"; do
    (
      export CUDA_VISIBLE_DEVICES=$g
      while :; do
        k=$(flock "$run/.next" bash -c 'k=$(cat "$1"); echo $((k + 1)) > "$1"; echo "$k"' _ "$run/.next")
        [ "$k" -lt "$n" ] || break
        s=$(sed -n "$((k + 1))p" "$run/.queue")
        line=$(grade_student "$s")
        printf '[%d/%d] %s (GPU %s)\n' "$((k + 1))" "$n" "$line" "$g"
      done
    ) &
  done
  wait
  rm -f "$run/.queue" "$run/.next"
}

# The array's tasks by state, from squeue: "running pending".
queue_counts() {
  squeue -h -r -j "$1" -o '%T' 2> /dev/null | awk '$1 == "RUNNING" || $1 == "COMPLETING" { r++ } $1 == "PENDING" || $1 == "CONFIGURING" { p++ } END { printf "%d %d\n", r, p }'
}

slurm_wait() {
  local job=$1 r p graded last="" now n=${#students[@]}
  while :; do
    read -r r p < <(queue_counts "$job")
    graded=$(find "$run/rows" -name '*.csv' | wc -l)
    now="graded $graded of $n, running $r, pending $p, failed $((n - graded - r - p < 0 ? 0 : n - graded - r - p))"
    [ "$now" = "$last" ] || echo "grade-all: Slurm job $job: $now"
    last=$now
    [ $((r + p)) -gt 0 ] || break
    sleep "${POLL:-10}"
  done
}

grade_slurm() {
  local list job idx args=() i s
  for s in sbatch squeue; do command -v "$s" > /dev/null || die "BACKEND=slurm needs $s on PATH (the Slurm client)"; done
  mkdir -p "$run/slurm"
  if [ -f "$run/slurm/job" ] && [ -n "$(squeue -h -j "$(cat "$run/slurm/job")" 2> /dev/null)" ]; then
    job=$(cat "$run/slurm/job")
    echo "grade-all: Slurm job $job of $run is still queued: waiting for it"
  else
    mapfile -t list < <(todo)
    if [ ${#list[@]} -eq 0 ]; then echo "grade-all: every student of $run has a result"; return 0; fi
    idx=""
    for i in "${!students[@]}"; do [ -f "$run/rows/${students[i]}.csv" ] || idx+="${idx:+,}$i"; done
    [ ${#list[@]} -eq ${#students[@]} ] || echo "grade-all: resuming $run: $(( ${#students[@]} - ${#list[@]} )) of ${#students[@]} graded already, grading ${#list[@]}"
    args=(--parsable --job-name=scanlab-grade --array="$idx" --output="$run/slurm/%a.log" --cpus-per-task="${SLURM_CPUS:-1}"
      --time="${SLURM_TIME:-$(((limit + 600 + 59) / 60))}")
    [ -n "${SLURM_GRES-gpu:1}" ] && args+=(--gres="${SLURM_GRES-gpu:1}")
    [ -n "${SLURM_PARTITION:-}" ] && args+=(--partition="$SLURM_PARTITION")
    [ -n "${SLURM_ACCOUNT:-}" ] && args+=(--account="$SLURM_ACCOUNT")
    job=$(sbatch "${args[@]}" --chdir="$PWD" --wrap "bash tools/grade-all.sh --task '$run' \$SLURM_ARRAY_TASK_ID") ||
      die "sbatch refused the array (above)"
    job=${job%%;*}
    echo "$job" > "$run/slurm/job"
    echo "grade-all: Slurm job $job: ${#list[@]} student(s), one task each ($run/slurm/<index>.log)"
  fi
  if [ "${WAIT:-1}" = 0 ]; then
    echo "grade-all: not waiting (WAIT=0): RUN=$run BACKEND=slurm make grade-all waits for it and merges the gradebook"
    exit 0
  fi
  slurm_wait "$job"
}

# ------------------------------------------------------------------ main

rejected=0
if [ "${1:-}" = --task ]; then
  run=${2:?usage: grade-all.sh --task RUN INDEX}
  index=${3:?usage: grade-all.sh --task RUN INDEX}
  load_plan
  [[ $index =~ ^[0-9]+$ ]] && [ "$index" -lt ${#students[@]} ] || die "--task: no student $index in $run/students"
  grade_student "${students[index]}"
  exit 0
fi

if [ -n "${RUN:-}" ]; then
  run=${RUN%/}
  load_plan
  echo "grade-all: resuming $run ($(todo | wc -l) of ${#students[@]} student(s) without a result; the plan's submissions, assignments, limit and seed)"
else
  subs=${1:?usage: grade-all.sh SUBMISSIONS [A] [STUDENT_TIMEOUT]}
  subs=${subs%/}
  only=${2:-}
  limit=${3:-1800}
  new_run
  echo "grade-all: ${#students[@]} student(s), assignments ${assignments[*]}, seed $seed, at most $limit s each -> $run/"
fi

case ${BACKEND:-local} in
  local) if [ -n "${GPUS:-}" ]; then grade_gpus; else grade_local; fi ;;
  slurm) [ -z "${GPUS:-}" ] || die "GPUS= is for BACKEND=local (Slurm gives each job its own GPU)"; grade_slurm ;;
  *) die "BACKEND=$BACKEND: not local or slurm" ;;
esac

merge || exit 1
[ $rejected -eq 0 ] || { echo "grade-all: $rejected folder(s) rejected (above); they are not in the gradebook" >&2; exit 1; }
exit 0

#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS [A] [STUDENT_TIMEOUT]: make grade-all. Grades one folder per
# student (SUBMISSIONS/<student>/NN-name/FILE, shaped like starter/), all with the same
# seed, each in its own copy of the course in a temporary folder outside the course
# (mktemp -d: no solutions/ there, none reachable by a relative path), so that one broken
# or hostile submission costs only its own row. Each submission is hostile: one that holds
# a symbolic link or a file that is not a plain file, or whose build read a file of the
# course or of the submissions folder, is rejected with the reason in its row. Each student's run has a wall-clock limit
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
# and seed), students, rows/<student>.csv (one per student graded), results/<student>/
# (the grader's results folder, make.log, each assignment's build.log), gradebook.csv
# (RFC 4180: a field with a comma, quote or line break is quoted):
#   student,<one column per assignment>,total,max,seconds,failures
# A student's name is a folder name: 1 to 64 letters, digits, '.', '_' or '-', starting
# with a letter or digit (valid_name, for a new run and for RUN= alike). SCANLAB_SEED,
# GPUS, BACKEND, A and STUDENT_TIMEOUT are checked before a run folder is made. Ctrl-C
# (SIGINT) or SIGTERM stops every grading process (each student's run is a process
# group of its own) and leaves the run for RUN= to resume.
# RUN=grade-results/all-<stamp> resumes a run: it grades only the students without a row
# (a failed, preempted or cancelled job leaves none), and says so; with BACKEND=slurm
# and the run's array still queued, it waits for it instead. A student without a row
# gets one in the gradebook anyway, with 0 points and the reason.
#   grade-all.sh --task RUN INDEX   grade student INDEX (from 0) of RUN/students (a Slurm array task)
# Exit: 0; 1 when a folder was rejected (its name is not a safe path component) or a
# student has no result; 2 bad usage; 130 interrupted (RUN= resumes).
set -u

die() { echo "make grade-all: $*" >&2; exit 2; }

# The course's own folder and the submissions', as real paths: a student's build must
# read no file under either (it has its own copy of what it may read).
course=$(pwd -P)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/grade-all-checks.sh
. "$here/grade-all-checks.sh"
# shellcheck source=tools/grade-all-slurm.sh
. "$here/grade-all-slurm.sh"

# ------------------------------------------------------------------ one student

# The course as make grade needs it, with this student's files in starter/. A file
# the student lacks becomes one that stops the build naming it (scored 0).
prepare() {
  local student=$1 work=$2 a f name
  mkdir -p "$work/build" "$work/starter"
  cp -rp Makefile mk tools grader assignments "$work/"
  cp -rp build/lib build/grader build/tools build/.gencode "$work/build/"
  # what the course built already (the runner's library, the protocol, the judge, the
  # symbol cache of the inspection), times kept: each student's make finds it up to date
  for f in build/runner build/protocol build/judge build/inspect-libs; do
    [ ! -d "$f" ] || cp -rp "$f" "$work/build/"
  done
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

# The process group of the student's run in progress (empty: none), and its work copy:
# what stop_grading ends and removes.
current_pgid=""
current_work=""

# Ends the student's run in progress, its whole process group (make, nvcc, the grader,
# the judge, the runner), and removes its work copy. No row is written for it.
stop_grading() {
  local i
  if [ -n "$current_pgid" ]; then
    kill -TERM -- "-$current_pgid" 2> /dev/null
    for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$current_pgid" 2> /dev/null && sleep 0.2; done
    kill -KILL -- "-$current_pgid" 2> /dev/null
  fi
  [ -n "$current_work" ] && rm -rf "$current_work"
  current_pgid="" current_work=""
}

# Grades one student into $run/results/<student>/ and writes $run/rows/<student>.csv
# (atomically: a row is there only when the grading finished). Sets summary to one line.
grade_student() {
  local student=$1 work="" dest rc=0 t0 a c fail_text total max why
  valid_name "$student" || die "'$student' is not a student's name (a bug: every name is checked when read)"
  dest=$run/results/$student
  rm -rf "$dest"
  mkdir -p "$dest"
  t0=$SECONDS
  local failures=() scores=()
  total=0.00
  max="" # unknown when nothing was graded
  if why=$(hostile_paths "$subs/$student"); then
    work=$(mktemp -d "${TMPDIR:-/tmp}/scanlab-grade-all.XXXXXX") || die "cannot create a work folder in ${TMPDIR:-/tmp}"
    current_work=$work
    local real_work real_subs
    real_work=$(cd "$work" && pwd -P) real_subs=$(cd "$subs" && pwd -P)
    if inside "$real_work" "$course" || inside "$real_work" "$real_subs"; then
      rm -rf "$work"
      die "the work folder $work is inside the course or the submissions (set TMPDIR elsewhere)"
    fi
    prepare "$student" "$work"
    # timeout makes itself a process group, which it signals whole at the limit; an
    # interrupt ends the same group (stop_grading). The compilers' temporary files go
    # into the work copy, and so away with it.
    mkdir -p "$work/tmp"
    (cd "$work" && unset GRADE_SEED && TMPDIR=$work/tmp SCANLAB_SEED=$seed NO_COLOR=1 exec timeout -k 10 "$limit" make grade ${only:+A=$only} < /dev/null > make.log 2>&1) &
    current_pgid=$!
    wait "$current_pgid"
    rc=$?
    current_pgid=""
    if [ -L "$work/grade-results/latest" ]; then
      rm -rf "$dest"
      mv "$work/grade-results/$(readlink "$work/grade-results/latest")" "$dest"
    fi
    cp "$work/make.log" "$dest/make.log"
    for a in "${assignments[@]}"; do
      [ -f "$work/build/starter/$a/build.log" ] && cp "$work/build/starter/$a/build.log" "$dest/$a.build.log"
    done
    [ -n "${CUDA_VISIBLE_DEVICES+set}" ] && echo "$CUDA_VISIBLE_DEVICES" > "$dest/gpu"
    why=$(outside_reads "$work" "$course" "$subs")
  fi
  if [ -n "$why" ]; then
    failures+=("rejected: $why")
    for a in "${assignments[@]}"; do scores+=(0.00); done
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ ! -f "$dest/results.tsv" ]; then
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
  fail_text=$(IFS=';'; echo "${failures[*]:-}" | sed 's/;/; /g')
  row "$student" "${scores[*]}" "$total" "$max" $((SECONDS - t0)) "$fail_text" > "$run/rows/.$student.tmp"
  mv "$run/rows/.$student.tmp" "$run/rows/$student.csv"
  summary=$(printf '%s / %s in %d s%s' "$total" "${max:--}" $((SECONDS - t0)) "${failures:+ (${failures[0]}${failures[1]:+, ...})}")
  [ -z "$work" ] || rm -rf "$work"
  current_work=""
}

# One gradebook row: student, the scores (one word each), total, max, seconds, failures;
# every field as RFC 4180 wants it (csv_field), the failures always quoted.
row() {
  local s out
  out=$(csv_field "$1")
  for s in $2; do out+=",$s"; done
  printf '%s,%s,%s,%s,"%s"\n' "$out" "$3" "$4" "$5" "$(printf '%s' "$6" | tr '\r\n' '  ' | sed 's/"/""/g')"
}
# ------------------------------------------------------------------ the run

# Reads a run's plan (written by new_run) into the variables the grading uses, each
# checked as a new run checks it: a plan or roster edited (or damaged) since is refused
# before anything is graded or removed.
load_plan() {
  local line=0 name a
  [ -f "$run/plan" ] && [ -f "$run/students" ] || die "RUN=$run has no plan or students: not a folder that make grade-all made"
  subs=$(sed -n 's/^submissions=//p' "$run/plan")
  only=$(sed -n 's/^only=//p' "$run/plan")
  limit=$(sed -n 's/^limit=//p' "$run/plan")
  seed=$(sed -n 's/^seed=//p' "$run/plan")
  read -r -a assignments <<< "$(sed -n 's/^assignments=//p' "$run/plan")"
  [ -d "$subs" ] || die "$run/plan: submissions=$subs is not a folder"
  valid_limit "$limit" || die "$run/plan: limit=$limit is not a positive whole number of seconds"
  valid_seed "$seed" || die "$run/plan: seed=$seed is not an unsigned integer below 2^53"
  [ ${#assignments[@]} -gt 0 ] || die "$run/plan: no assignments"
  for a in "${assignments[@]}"; do [ -f "assignments/$a/grade.conf" ] || die "$run/plan: no assignment $a here"; done
  students=()
  declare -A seen=()
  while IFS= read -r name || [ -n "$name" ]; do
    line=$((line + 1))
    valid_name "$name" || die "$run/students:$line: '$name' is not a student's name ($NAME_RULE)"
    [ -z "${seen[$name]:-}" ] || die "$run/students:$line: $name is listed twice (line ${seen[$name]} too)"
    seen[$name]=$line
    students+=("$name")
  done < "$run/students"
}

valid_limit() { [[ $1 =~ ^[1-9][0-9]{0,6}$ ]]; }

# The settings, checked before a run folder is made (and before a run is resumed):
# BACKEND, GPUS and, for a new run, the seed (SCANLAB_SEED, or its old name GRADE_SEED:
# the warning is said by the run itself, not by its --check).
check_settings() {
  local g gpus
  case ${BACKEND:-local} in local | slurm) ;; *) die "BACKEND=$BACKEND: not local or slurm" ;; esac
  if [ -n "${GPUS:-}" ]; then
    [ "${BACKEND:-local}" = local ] || die "GPUS= is for BACKEND=local (Slurm gives each job its own GPU)"
    IFS=, read -r -a gpus <<< "$GPUS"
    [ ${#gpus[@]} -gt 0 ] && [ "${GPUS%,}" = "$GPUS" ] || die "GPUS=$GPUS: not a list of GPU numbers (GPUS=0,1,2,3)"
    for g in "${gpus[@]}"; do [[ $g =~ ^[0-9]+$ ]] || die "GPUS=$GPUS: '$g' is not a GPU number (GPUS=0,1,2,3)"; done
    [ "$(printf '%s\n' "${gpus[@]}" | sort -u | wc -l)" -eq ${#gpus[@]} ] || die "GPUS=$GPUS names a GPU twice"
  fi
  [ -z "${RUN:-}" ] || return 0 # a resumed run keeps its plan's seed
  if [ -z "${SCANLAB_SEED:-}" ] && [ -n "${GRADE_SEED:-}" ]; then
    [ "${1:-}" = --check ] || echo "grade-all: warning: GRADE_SEED is the old name of SCANLAB_SEED; set SCANLAB_SEED=$GRADE_SEED instead" >&2
    SCANLAB_SEED=$GRADE_SEED
  fi
  [ -z "${SCANLAB_SEED:-}" ] || valid_seed "$SCANLAB_SEED" || die "SCANLAB_SEED=$SCANLAB_SEED: not an unsigned integer below 2^53"
}

# A new run: the assignments graded, the students (a folder name becomes a path and
# a CSV field: letters, digits, . _ - only), the seed, the plan.
# The arguments of a new run (SUBMISSIONS, A, STUDENT_TIMEOUT): the assignments it grades.
new_run_args() {
  local conf a
  [ -d "$subs" ] || die "SUBMISSIONS=$subs is not a folder"
  valid_limit "$limit" || die "STUDENT_TIMEOUT=$limit is not a positive whole number of seconds"
  assignments=()
  for conf in assignments/*/grade.conf; do
    a=$(basename "$(dirname "$conf")")
    [ -z "$only" ] || [ "$a" = "$only" ] || [ "${a#"$only"-}" != "$a" ] && assignments+=("$a")
  done
  [ ${#assignments[@]} -gt 0 ] || die "A=$only matches no assignment"
}

new_run() {
  local d name
  new_run_args
  students=()
  for d in "$subs"/*; do
    name=$(basename "$d")
    if [ -L "$d" ]; then
      echo "grade-all: rejected $(printf '%q' "$name"): a symbolic link, not a student's folder" >&2
      rejected=$((rejected + 1))
    elif [ ! -d "$d" ]; then
      echo "grade-all: skipped $(printf '%q' "$name"): not a folder" >&2
    elif ! valid_name "$name"; then
      echo "grade-all: rejected $(printf '%q' "$name"): a student's folder name must be $NAME_RULE" >&2
      rejected=$((rejected + 1))
    else
      students+=("$name")
    fi
  done
  run=grade-results/all-$(date +%Y%m%d-%H%M%S)
  [ -e "$run" ] && run=$run-$$
  mkdir -p "$run/rows" "$run/results" || die "cannot create $run"
  seed=${SCANLAB_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000000))}
  subs=$(cd "$subs" && pwd -P)
  printf 'submissions=%s\nonly=%s\nlimit=%s\nseed=%s\nassignments=%s\n' "$subs" "$only" "$limit" "$seed" "${assignments[*]}" > "$run/plan"
  printf '%s\n' "${students[@]}" > "$run/students"
  [ ${#students[@]} -gt 0 ] || : > "$run/students"
}

# The students of the run that have no row yet.
todo() {
  local s
  for s in "${students[@]}"; do [ -f "$run/rows/$s.csv" ] || echo "$s"; done
}

# gradebook.csv from the rows, in the students' order; a student without a row gets
# 0 points and the reason. Returns 1 when a row is missing.
merge() {
  local book=$run/gradebook.csv i zeros="" missing=0 s
  for i in "${assignments[@]}"; do zeros+=",0.00"; done
  { printf 'student'; printf ',%s' "${assignments[@]}"; printf ',total,max,seconds,failures\n'; } > "$book.tmp"
  zeros=${zeros//,/ }
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
    grade_student "$s"
    echo "$summary"
  done
}

# One worker per GPU; each takes the next student from a queue under a lock, so a
# fast GPU grades more students, and each GPU grades one student at a time.
# An interrupt of the run stops each worker (SIGTERM), which ends its student's process
# group (stop_grading).
workers=()
grade_gpus() {
  local gpus list g n
  IFS=, read -r -a gpus <<< "$GPUS"
  mapfile -t list < <(todo)
  printf '%s\n' "${list[@]}" > "$run/.queue"
  echo 0 > "$run/.next"
  n=${#list[@]}
  echo "grade-all: $n student(s) on GPUs ${gpus[*]}, one at a time on each"
  for g in "${gpus[@]}"; do
    (
      trap 'stop_grading; exit 143' TERM
      export CUDA_VISIBLE_DEVICES=$g
      while :; do
        k=$(flock "$run/.next" bash -c 'k=$(cat "$1"); echo $((k + 1)) > "$1"; echo "$k"' _ "$run/.next")
        [ "$k" -lt "$n" ] || break
        s=$(sed -n "$((k + 1))p" "$run/.queue")
        grade_student "$s"
        printf '[%d/%d] %s: %s (GPU %s)\n' "$((k + 1))" "$n" "$s" "$summary" "$g"
      done
    ) &
    workers+=($!)
  done
  wait
  workers=()
  rm -f "$run/.queue" "$run/.next"
}

# ------------------------------------------------------------------ main

# Ctrl-C (SIGINT) or SIGTERM: every worker and every student's process group is ended,
# its work copy removed, and no row is written for a student whose grading was cut short.
interrupted() {
  trap '' INT TERM
  local w
  for w in "${workers[@]}"; do kill -TERM "$w" 2> /dev/null; done
  [ ${#workers[@]} -eq 0 ] || wait
  stop_grading
  if [ -z "${run:-}" ]; then
    echo "grade-all: interrupted ($1) before a run began" >&2
  elif [ "${BACKEND:-local}" = slurm ]; then
    echo "grade-all: interrupted ($1): the Slurm array keeps running; RUN=$run BACKEND=slurm make grade-all waits for it" >&2
  else
    echo "grade-all: interrupted ($1): RUN=$run grades the students without a result" >&2
  fi
  exit 130
}
trap 'interrupted SIGINT' INT
trap 'interrupted SIGTERM' TERM

rejected=0
run=""
if [ "${1:-}" = --task ]; then
  run=${2:?usage: grade-all.sh --task RUN INDEX}
  index=${3:?usage: grade-all.sh --task RUN INDEX}
  load_plan
  [[ $index =~ ^[0-9]+$ ]] && [ "$index" -lt ${#students[@]} ] || die "--task: no student $index in $run/students"
  grade_student "${students[index]}"
  echo "${students[index]}: $summary"
  exit 0
fi

check_settings "${1:-}"
if [ "${1:-}" = --check ]; then # make grade-all's first step, before it builds anything
  shift
  if [ -n "${RUN:-}" ]; then
    run=${RUN%/}
    load_plan
  else
    subs=${1:?usage: grade-all.sh --check SUBMISSIONS [A] [STUDENT_TIMEOUT]} only=${2:-} limit=${3:-1800}
    new_run_args
  fi
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
  slurm) grade_slurm ;;
esac

merge || exit 1
[ $rejected -eq 0 ] || { echo "grade-all: $rejected folder(s) rejected (above); they are not in the gradebook" >&2; exit 1; }
exit 0

# shellcheck shell=bash disable=SC2154 # run, students, limit: set by tools/grade-all.sh
# grade-all-slurm.sh: make grade-all's Slurm backend (BACKEND=slurm), sourced by
# tools/grade-all.sh, whose variables (run, students, limit) and functions (todo, die)
# it uses: the job array, waiting for it, and why a student's task left no row.

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
    job=$(sbatch "${args[@]}" --chdir="$PWD" --wrap "bash tools/grade-all.sh --task $(printf '%q' "$run") \$SLURM_ARRAY_TASK_ID") ||
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

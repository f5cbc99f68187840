#!/usr/bin/env bash
# grade-all.sh SUBMISSIONS [A] [STUDENT_TIMEOUT]: make grade-all. Grades one folder per
# student (SUBMISSIONS/<student>/NN-name/FILE, shaped like starter/), one after another
# with the same seed, each in its own copy of the course under build/, so that one
# broken or hostile submission costs only its own row. Each student's run has a
# wall-clock limit (STUDENT_TIMEOUT seconds, default 1800): a run past it is stopped
# and scores 0 with the reason. Writes grade-results/all-<stamp>/<student>/ (the
# grader's results folder, make.log, each assignment's build.log) and
# grade-results/all-<stamp>/gradebook.csv:
#   student,<one column per assignment>,total,max,failures
# Exit: 0, or 1 when a folder was rejected (its name is not a safe path component).
set -u
subs=${1:?usage: grade-all.sh SUBMISSIONS [A] [STUDENT_TIMEOUT]}
only=${2:-}
limit=${3:-1800}
subs=${subs%/}

die() { echo "make grade-all: $*" >&2; exit 2; }
[ -d "$subs" ] || die "SUBMISSIONS=$subs is not a folder"
case "$limit" in '' | *[!0-9]* | 0) die "STUDENT_TIMEOUT=$limit is not a positive whole number of seconds" ;; esac

# The assignments graded: all, or the one A names (A=01 or A=01-warp-scan), as make grade picks them.
assignments=()
for conf in assignments/*/grade.conf; do
  a=$(basename "$(dirname "$conf")")
  [ -z "$only" ] || [ "$a" = "$only" ] || [ "${a#"$only"-}" != "$a" ] && assignments+=("$a")
done
[ ${#assignments[@]} -gt 0 ] || die "A=$only matches no assignment"

out=grade-results/all-$(date +%Y%m%d-%H%M%S)
[ -e "$out" ] && out=$out-$$
mkdir -p "$out" || die "cannot create $out"
seed=${GRADE_SEED:-$(((RANDOM << 15 | RANDOM) % 1000000000))}
work_root=$(mktemp -d "$PWD/build/grade-all.XXXXXX") || die "cannot create a work folder under build/"
trap 'rm -rf "$work_root"' EXIT

# A student's folder name becomes a path and a CSV field: letters, digits, . _ - only.
students=()
rejected=0
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

book=$out/gradebook.csv
{ printf 'student'; printf ',%s' "${assignments[@]}"; printf ',total,max,seconds,failures\n'; } > "$book"
echo "grade-all: ${#students[@]} student(s), assignments ${assignments[*]}, seed $seed, at most $limit s each -> $out/"

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

i=0
for student in "${students[@]}"; do
  i=$((i + 1))
  printf '[%d/%d] %s ... ' "$i" "${#students[@]}" "$student"
  work=$work_root/$student
  dest=$out/$student
  prepare "$student" "$work"
  t0=$SECONDS
  # timeout signals its whole process group (make, nvcc, the grader) at the limit.
  (cd "$work" && GRADE_SEED=$seed NO_COLOR=1 timeout -k 10 "$limit" make grade ${only:+A=$only} < /dev/null > make.log 2>&1)
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

  failures=()
  scores=()
  total=0.00
  max="" # unknown when nothing was graded
  if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ ! -f "$dest/results.tsv" ]; then
    [ $rc -eq 124 ] || [ $rc -eq 137 ] && failures+=("timed out after $limit s: not graded") ||
      failures+=("not graded: make grade exited $rc before writing results (make.log)")
    for a in "${assignments[@]}"; do scores+=(0.00); done
  else
    for a in "${assignments[@]}"; do
      scores+=("$(awk -F'\t' -v a="$a" '$1 == a { s += $5 } END { printf "%.2f", s }' "$dest/results.tsv")")
      if [ ! -x "$work/build/starter/$a/harness" ]; then
        failures+=("$a: does not compile")
      else
        while IFS= read -r c; do failures+=("$a/$c"); done < <(awk -F'\t' -v a="$a" '$1 == a && ($4 == "fail" || $4 == "error" || $4 == "partial") { print $2 }' "$dest/results.tsv")
      fi
    done
    read -r total max < <(awk -F'\t' '$5 ~ /^[0-9.]+$/ { s += $5; m += $6 } END { printf "%.2f %.2f\n", s, m }' "$dest/results.tsv")
  fi
  fail_text=$(IFS=';'; echo "${failures[*]:-}" | sed 's/;/; /g; s/"/""/g')
  { printf '%s' "$student"; printf ',%s' "${scores[@]}"; printf ',%s,%s,%d,"%s"\n' "$total" "$max" $((SECONDS - t0)) "$fail_text"; } >> "$book"
  printf '%s / %s in %d s%s\n' "$total" "${max:--}" $((SECONDS - t0)) "${failures:+ (${failures[0]}${failures[1]:+, ...})}"
  rm -rf "$work"
done

echo "grade-all: wrote $book"
[ $rejected -eq 0 ] || { echo "grade-all: $rejected folder(s) rejected (above); they are not in the gradebook" >&2; exit 1; }
exit 0

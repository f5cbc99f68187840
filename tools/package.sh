#!/usr/bin/env bash
# package.sh: the student handout and the Gradescope autograder (make handout, make gradescope).
#
#   package.sh handout    FAT_GENCODE OUT.tar.gz
#   package.sh gradescope FAT_GENCODE OUT.zip [A]
#
# Both hold the same tree: every file git tracks (as it is in the working tree; commit
# new files first, so that nothing else lying in the checkout ships) except solutions/,
# answer files, the GPU tier's faults (assignments/NN/tests/gpu-faults: solutions with one bug each), its adversarial
# suite (assignments/NN/tests/adversarial, whose control includes a solution) and each assignment's research/
# (assignments/NN/research: tuning tools and probes built on the solutions, with some of their code;
# the top-level research/ is their index), plus the
# reference binaries assignments/NN/ref/reference, and ref/bench where the assignment's
# grade.conf declares baselines (make bench runs it; built fat: FAT_GENCODE must be the flags
# in build/.gencode) and the grader and the judge prebuilt as grader/bin/grade and
# grader/bin/judge, which the Makefile copies into place instead of building it (so no
# libinih-dev is needed).
# The Gradescope zip adds setup.sh and run_autograder at its root (tools/gradescope/);
# A, when given, is the assignment its run_autograder grades.
set -euo pipefail
what=${1:?usage: package.sh handout|gradescope FAT_GENCODE OUT [A]}
fat=${2:?FAT_GENCODE}
out=${3:?OUT}
only=${4:-}

die() { echo "make $what: $*" >&2; exit 1; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || die "needs a git checkout (it ships the files git tracks)"
[ "$(cat build/.gencode 2>/dev/null)" = "$fat" ] || die "build/.gencode is not the fat GPU list; the references would not run everywhere"
[ -x build/grader/grade ] || die "build/grader/grade is missing"

# Staged under build/, so nothing outside build/ and dist/ is touched.
stage_root=build/package-$what
stage=$stage_root/scan-lab
rm -rf "$stage_root"
mkdir -p "$stage" "$(dirname "$out")"
git ls-files -z --cached |
  while IFS= read -r -d '' f; do
    case "$f" in
      solutions/* | assignments/*/tests/gpu-faults/* | assignments/*/tests/adversarial/* | assignments/*/research/* | research/* | .ci/* | */ANSWERS* | ANSWERS*) continue ;;
      # The reference's tuning record answers handout 04's task 3 and its questions: instructors only.
      docs/tuning-04.md | docs/results/tuning-0*) continue ;;
      # The variants test_counts.c compiles are patches of the solutions: their context is solution code.
      assignments/*/tests/variants/*) continue ;;
      # The known lists name the notes that still state a question's answer or show a solution's shape.
      tests/answers-known.txt | assignments/*/tests/leaks-known.txt) continue ;;
    esac
    [ -f "$f" ] && printf '%s\0' "$f" # tracked but deleted files are skipped
  done | xargs -0 cp --parents -p -t "$stage"

n=0
for conf in assignments/*/grade.conf; do
  a=$(dirname "$conf")
  [ -x "$a/ref/reference" ] || die "$a/ref/reference is missing (make reference)"
  mkdir -p "$stage/$a/ref"
  cp -p "$a/ref/reference" "$stage/$a/ref/reference"
  n=$((n + 1))
  # make bench runs the reference's bench build where the assignment declares baselines (CUB rows).
  if grep -q '^baselines *=' "$conf"; then
    [ -x "$a/ref/bench" ] || die "$a/ref/bench is missing (make reference)"
    cp -p "$a/ref/bench" "$stage/$a/ref/bench"
    n=$((n + 1))
  fi
done
mkdir -p "$stage/grader/bin"
cp -p build/grader/grade "$stage/grader/bin/grade"
cp -p build/grader/judge "$stage/grader/bin/judge" # the judge, with the specs of every assignment

tmp=$out.tmp$$
case "$what" in
  handout)
    tar -C "$stage_root" -czf "$tmp" scan-lab
    ;;
  gradescope)
    cp -p tools/gradescope/setup.sh tools/gradescope/run_autograder "$stage/"
    chmod 755 "$stage/setup.sh" "$stage/run_autograder"
    printf '%s\n' "$only" > "$stage/.gradescope-assignment"
    command -v zip >/dev/null || die "zip is not installed: sudo apt-get install -y zip"
    abs=$(realpath -m "$tmp")
    rm -f "$abs"
    (cd "$stage" && zip -q -r -y "$abs" .)
    ;;
  *) die "unknown package '$what'" ;;
esac
mv -f "$tmp" "$out"
rm -rf "$stage_root"
echo "make $what: wrote $out ($(du -h "$out" | cut -f1); $n reference binaries, grader prebuilt, no solutions/)"
